/**
 * An {@link Authenticator} derived from the card (spec §7.4, §13.3): the card's
 * `securityRequirements` are alternatives, any one of which admits the request; within one, every
 * named scheme must verify (and, optionally, grant the listed scopes). The card is the single
 * source of truth: what it declares is what is enforced, and a mismatch fails at start.
 */
import {
  A2AError,
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  type AgentCard,
} from '../../protocol/index.js';
import type { Authenticator, AuthRequest, CallAuth } from '../kernel/request.js';
import type { Caller } from '../dispatch/call-context.js';
import { A2AConfigError } from '../kernel/config-error.js';
import { challengeFromCard, describeScheme, schemesInPlay } from './challenge.js';
import type { SchemeOutcome, SchemeVerifier } from './verifiers.js';

/** Verifiers by scheme name, as the card's `securitySchemes` names them. */
export type Verifiers = Readonly<Record<string, SchemeVerifier>>;

/** How the card's security requirements are enforced (shared by `createAgentServer({ auth })` and {@link authenticatorFromCard}). */
export interface CardAuthOptions {
  /**
   * Check the scopes a requirement lists against the caller's granted scopes (`claims.scopes`
   * array, or space-separated `claims.scope` / `claims.scp`); a shortfall is PermissionDenied (403).
   * Default true. Turn off when your verifier enforces scopes itself.
   */
  checkScopes?: boolean;
}

/** The `auth` option of `createAgentServer`. */
export interface ServerAuthOptions extends CardAuthOptions {
  /** One verifier per scheme the card's requirements name, e.g. `{ bearer: staticBearerTokens({...}) }`. */
  verifiers: Verifiers;
}

type Alternative = Array<{ name: string; scopes: string[] }>;

/** The scopes a caller was granted, from the usual claim spellings. */
function grantedScopes(caller: Caller): Set<string> {
  const c = caller.claims ?? {};
  const out = new Set<string>();
  for (const v of [c.scopes, c.scope, c.scp]) {
    if (Array.isArray(v)) for (const s of v) if (typeof s === 'string') out.add(s);
    if (typeof v === 'string') for (const s of v.split(/\s+/)) if (s) out.add(s);
  }
  return out;
}

/** One identity from several schemes: the first scheme of the requirement names the caller. */
function combine(callers: Caller[]): Caller {
  const [first, ...rest] = callers as [Caller, ...Caller[]];
  if (rest.length === 0) return first;
  const claims = Object.assign({}, ...[...callers].reverse().map((c) => c.claims ?? {})) as Record<
    string,
    unknown
  >;
  return { ...first, claims };
}

function kitInfo(reason: string, metadata: Record<string, string>) {
  return [{ '@type': ERROR_INFO_TYPE, reason, domain: KIT_ERROR_DOMAIN, metadata }];
}

/** Check that the verifiers and the card fit together; returns the alternatives to try. */
function plan(
  card: AgentCard,
  verifiers: Verifiers,
): { alternatives: Alternative[]; anonymous: boolean } {
  const schemes = card.securitySchemes ?? {};
  const declared = Object.keys(schemes);
  for (const name of Object.keys(verifiers)) {
    if (!schemes[name]) {
      throw new A2AConfigError(
        'auth.verifiers',
        `auth verifier "${name}" matches no securitySchemes entry of the card (declared: ${declared.join(', ') || 'none'})`,
      );
    }
  }
  const requirements = card.securityRequirements ?? [];
  for (const name of requirements.length > 0 ? schemesInPlay(card) : Object.keys(verifiers)) {
    const scheme = schemes[name];
    if (!scheme)
      throw new A2AConfigError(
        'card',
        `securityRequirements name the scheme "${name}", which securitySchemes does not declare`,
      );
    const v = verifiers[name];
    if (!v)
      throw new A2AConfigError(
        'auth.verifiers',
        `the card requires the scheme "${name}" (${describeScheme(scheme)}) but no verifier is configured for it`,
      );
    if (!v.accepts(scheme))
      throw new A2AConfigError(
        'auth.verifiers',
        `the verifier for "${name}" is a ${v.kind} verifier, which cannot check ${describeScheme(scheme)}`,
      );
  }
  if (requirements.length === 0) {
    // Nothing required: any configured scheme identifies the caller when used, anonymous otherwise.
    return {
      alternatives: Object.keys(verifiers).map((name) => [{ name, scopes: [] }]),
      anonymous: true,
    };
  }
  const alternatives = requirements.map((r) =>
    Object.entries(r.schemes ?? {}).map(([name, s]) => ({ name, scopes: s?.list ?? [] })),
  );
  return {
    alternatives: alternatives.filter((a) => a.length > 0),
    anonymous: alternatives.some((a) => a.length === 0),
  };
}

/**
 * Build the authenticator for `card`. Per request it tries the requirements in card order and
 * returns the caller of the first one met. Otherwise it throws, most specific first:
 * presented credentials that a verifier refused → Unauthenticated (401); valid credentials lacking
 * a listed scope → PermissionDenied (403); nothing presented → Unauthenticated naming what to send —
 * unless the card allows anonymous access (an empty requirement, or no requirements at all), which
 * yields `undefined`. Throws an A2AConfigError at build time when the card and `verifiers` do not match.
 */
export function authenticatorFromCard(
  card: AgentCard,
  verifiers: Verifiers,
  options: CardAuthOptions = {},
): Authenticator {
  const { alternatives, anonymous } = plan(card, verifiers);
  const schemes = card.securitySchemes ?? {};
  const checkScopes = options.checkScopes !== false;
  const expected = alternatives
    .map((alt) =>
      alt
        .map(({ name }) => `${describeScheme(schemes[name])} (scheme "${name}")`)
        .join(' together with '),
    )
    .join(', or ');

  return async function authenticate(req: AuthRequest): Promise<Caller | undefined> {
    const seen = new Map<string, Promise<SchemeOutcome>>();
    const outcome = (name: string): Promise<SchemeOutcome> => {
      let p = seen.get(name);
      if (!p) seen.set(name, (p = verifiers[name]!.check(req, schemes[name]!, name)));
      return p;
    };
    let refused: { name: string; reason?: string } | undefined;
    let lacking: { name: string; missing: string[] } | undefined;
    for (const alt of alternatives) {
      const callers: Caller[] = [];
      for (const { name, scopes } of alt) {
        const o = await outcome(name);
        if (o.status === 'rejected')
          refused ??= { name, ...(o.reason ? { reason: o.reason } : {}) };
        if (o.status !== 'ok') continue;
        const granted = checkScopes && scopes.length > 0 ? grantedScopes(o.caller) : undefined;
        const missing = granted ? scopes.filter((s) => !granted.has(s)) : [];
        if (missing.length > 0) lacking ??= { name, missing };
        else callers.push(o.caller);
      }
      if (callers.length === alt.length) return combine(callers);
    }
    if (refused) {
      const why = refused.reason ? `: ${refused.reason}` : '';
      throw new A2AError(
        'Unauthenticated',
        `The credentials for security scheme "${refused.name}" were not accepted${why}`,
        kitInfo('UNAUTHENTICATED', { scheme: refused.name }),
      );
    }
    if (lacking) {
      throw new A2AError(
        'PermissionDenied',
        `The caller lacks the scope(s) ${lacking.missing.join(', ')} that security scheme "${lacking.name}" requires here`,
        kitInfo('PERMISSION_DENIED', {
          scheme: lacking.name,
          missingScopes: lacking.missing.join(' '),
        }),
      );
    }
    if (anonymous) return undefined;
    throw new A2AError(
      'Unauthenticated',
      `Authentication required: send ${expected}`,
      kitInfo('UNAUTHENTICATED', {
        schemes: [...new Set(alternatives.flat().map((s) => s.name))].join(' '),
      }),
    );
  };
}

/**
 * The binding options `createAgentServer` derives from `auth`: the card's authenticator and its
 * challenge (an explicit `challenge` wins). Without `auth`, a card that declares schemes still
 * gets a challenge derived from it for the 401s of a hand-written `authenticate`.
 */
export function serverAuthOptions(
  card: AgentCard,
  opts: { auth?: ServerAuthOptions; authenticate?: Authenticator; challenge?: string },
): CallAuth {
  const challenge =
    opts.challenge ?? (opts.auth || card.securitySchemes ? challengeFromCard(card) : undefined);
  if (!opts.auth)
    return {
      ...(opts.authenticate ? { authenticate: opts.authenticate } : {}),
      ...(challenge ? { challenge } : {}),
    };
  if (opts.authenticate)
    throw new A2AConfigError(
      'auth',
      'give either `auth` (verifiers derived from the card) or `authenticate`, not both',
    );
  return {
    authenticate: authenticatorFromCard(card, opts.auth.verifiers, opts.auth),
    ...(challenge ? { challenge } : {}),
  };
}
