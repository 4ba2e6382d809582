/**
 * Agent card signature verification (spec §8.4.3). Keys come only from what the caller trusts:
 * a key list, a JWKS, or a `jku` URL the caller has explicitly allowed. Nothing is fetched by default.
 */
import type { CryptoKey, JSONWebKeySet, JWK, KeyObject } from 'jose';
import { jose } from '../protocol/lazy-schemas.js';
import type { AgentCard } from '../protocol/card.js';
import { canonicalCardBytes } from '../protocol/card-canonical.js';
import { signedForm } from '../protocol/v03/card.js';
import { ASYMMETRIC_ALGORITHMS } from './jws-algorithms.js';

/** Default algorithm allow-list: asymmetric only. `none` is never accepted. */
export const DEFAULT_CARD_ALGORITHMS: readonly string[] = ASYMMETRIC_ALGORITHMS;

/** Loads the JWKS at an allowed `jku` URL. */
export type JwksFetcher = (jku: URL) => Promise<JSONWebKeySet>;

/** What the caller trusts. Expired or revoked keys must simply not be listed (§8.4.3). */
export interface CardTrust {
  /** Trusted public keys by kid. */
  keys?: ReadonlyArray<{ kid: string; key: CryptoKey | KeyObject | JWK }>;
  /**
   * A trusted key set, or the function used to load the JWKS at an allowed `jku`
   * (default for the latter: `fetch`, no redirects, 5 s timeout).
   */
  jwks?: JSONWebKeySet | JwksFetcher;
  /** `jku` URLs that may be fetched; compared after URL normalisation. Default: none, never fetch. */
  allowedJkuUrls?: ReadonlyArray<string | URL>;
  /** Accepted `alg` values. Default {@link DEFAULT_CARD_ALGORITHMS}; HS* only if listed; `none` never. */
  algorithms?: readonly string[];
  /**
   * When false (default) {@link assertAgentCardVerified} lets through cards it cannot check (unsigned, or
   * signed only by unknown keys); a check that runs and fails always throws. When true, only verified cards pass.
   */
  requireSignature?: boolean;
}

/**
 * Why a card did not verify: no signature; no trusted key for its `kid`; a signature that does not
 * match the content; an unreadable signature; an algorithm not in the allow-list.
 */
export type CardVerifyFailure =
  'unsigned' | 'unknown-kid' | 'bad-signature' | 'malformed' | 'alg-not-allowed';
/** The result of {@link verifyAgentCard}: the key that verified the card, or the most telling failure. */
export type CardVerifyResult =
  | { verified: true; kid: string; alg: string }
  | { verified: false; reason: CardVerifyFailure; message: string };

/** Thrown by {@link assertAgentCardVerified}. */
export class AgentCardVerificationError extends Error {
  override readonly name = 'AgentCardVerificationError';
  /** Why the card was rejected. */
  readonly reason: CardVerifyFailure;
  /** Made by {@link assertAgentCardVerified}; `message` says which signature failed and why. */
  constructor(reason: CardVerifyFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Most telling first: a failed check on a trusted key outranks "we could not check". */
const SEVERITY: readonly CardVerifyFailure[] = [
  'bad-signature',
  'alg-not-allowed',
  'malformed',
  'unknown-kid',
];

interface Header {
  alg: string;
  kid: string;
  jku?: string;
}

function decodeHeader(
  { base64url }: typeof import('jose'),
  protectedB64: unknown,
): Header | string {
  if (typeof protectedB64 !== 'string' || !/^[A-Za-z0-9_-]+$/.test(protectedB64)) {
    return 'protected header is not base64url';
  }
  let h: unknown;
  try {
    h = JSON.parse(new TextDecoder().decode(base64url.decode(protectedB64)));
  } catch {
    return 'protected header is not base64url-encoded JSON';
  }
  if (typeof h !== 'object' || h === null || Array.isArray(h))
    return 'protected header is not a JSON object';
  const { alg, kid, jku } = h as Record<string, unknown>;
  if (typeof alg !== 'string' || !alg) return 'protected header has no alg';
  if (typeof kid !== 'string' || !kid) return 'protected header has no kid';
  if (jku !== undefined && typeof jku !== 'string') return 'protected header jku is not a string';
  return { alg, kid, ...(jku !== undefined ? { jku } : {}) };
}

function fromSet(set: JSONWebKeySet | undefined, kid: string): JWK | undefined {
  return set?.keys?.find((k) => k.kid === kid && (k.use === undefined || k.use === 'sig'));
}

async function defaultFetcher(jku: URL): Promise<JSONWebKeySet> {
  const res = await fetch(jku, { redirect: 'error', signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as JSONWebKeySet;
  if (!Array.isArray(body?.keys)) throw new Error('response is not a JWKS');
  return body;
}

const normalise = (u: string | URL): string | undefined => {
  try {
    return new URL(String(u)).href;
  } catch {
    return undefined;
  }
};

/**
 * Verify a card's signatures against the caller's trust. Succeeds on the first signature that verifies
 * with a trusted key; otherwise reports the most serious failure found. Never throws for a bad card.
 *
 * @example
 * ```ts
 * import { resolveAgentCard, verifyAgentCard } from 'a2a-kit/client';
 *
 * const card = await resolveAgentCard('http://localhost:41241');
 * const result = await verifyAgentCard(card, { jwks: { keys: [] } });
 * if (!result.verified) console.warn(`unverified card (${result.reason}): ${result.message}`);
 * ```
 */
export async function verifyAgentCard(
  card: AgentCard,
  trust: CardTrust = {},
): Promise<CardVerifyResult> {
  const sigs: unknown = card.signatures;
  if (sigs === undefined || (Array.isArray(sigs) && sigs.length === 0)) {
    return { verified: false, reason: 'unsigned', message: 'the agent card carries no signature' };
  }
  if (!Array.isArray(sigs))
    return { verified: false, reason: 'malformed', message: 'signatures is not an array' };

  const algorithms = (trust.algorithms ?? DEFAULT_CARD_ALGORITHMS).filter((a) => a !== 'none');
  const allowedJku = new Set(
    (trust.allowedJkuUrls ?? []).map(normalise).filter((u): u is string => !!u),
  );
  const fetcher = typeof trust.jwks === 'function' ? trust.jwks : defaultFetcher;
  const staticSet = typeof trust.jwks === 'function' ? undefined : trust.jwks;
  const fetched = new Map<string, Promise<JSONWebKeySet>>();
  // A card read from its 0.3 form was signed in that form: its signatures cover those bytes.
  // jose is loaded by the first signed card checked, not by the client's import.
  const j = jose.now() ?? (await jose.load());
  const payload = j.base64url.encode(canonicalCardBytes(signedForm(card) as AgentCard));
  const failures: Array<{ reason: CardVerifyFailure; message: string }> = [];

  for (const [n, sig] of sigs.entries()) {
    const s = (typeof sig === 'object' && sig !== null ? sig : {}) as Record<string, unknown>;
    const header = decodeHeader(j, s.protected);
    if (typeof header === 'string') {
      failures.push({ reason: 'malformed', message: `signatures[${n}]: ${header}` });
      continue;
    }
    const who = `signatures[${n}] (kid "${header.kid}", ${header.alg})`;
    if (typeof s.signature !== 'string' || !/^[A-Za-z0-9_-]+$/.test(s.signature)) {
      failures.push({ reason: 'malformed', message: `${who}: signature is not base64url` });
      continue;
    }
    if (!algorithms.includes(header.alg)) {
      failures.push({
        reason: 'alg-not-allowed',
        message: `${who}: algorithm ${header.alg} is not allowed`,
      });
      continue;
    }
    let key: CryptoKey | KeyObject | JWK | undefined =
      trust.keys?.find((k) => k.kid === header.kid)?.key ?? fromSet(staticSet, header.kid);
    if (!key && header.jku !== undefined) {
      const jku = normalise(header.jku);
      if (jku && allowedJku.has(jku)) {
        if (!fetched.has(jku)) fetched.set(jku, fetcher(new URL(jku)));
        try {
          key = fromSet(await fetched.get(jku), header.kid);
        } catch (e) {
          failures.push({
            reason: 'unknown-kid',
            message: `${who}: could not load JWKS ${jku}: ${(e as Error).message}`,
          });
          continue;
        }
      }
    }
    if (!key) {
      const where =
        header.jku !== undefined && !allowedJku.has(normalise(header.jku) ?? '')
          ? ` (its jku ${header.jku} is not in allowedJkuUrls, so it was not fetched)`
          : '';
      failures.push({
        reason: 'unknown-kid',
        message: `${who}: no trusted key has this kid${where}`,
      });
      continue;
    }
    if (
      typeof key === 'object' &&
      'kty' in key &&
      typeof key.alg === 'string' &&
      key.alg !== header.alg
    ) {
      failures.push({
        reason: 'alg-not-allowed',
        message: `${who}: trusted key is for ${key.alg}, not ${header.alg}`,
      });
      continue;
    }
    try {
      const jws = { protected: s.protected as string, signature: s.signature, payload };
      const header2 = s.header;
      await j.flattenedVerify(
        typeof header2 === 'object' && header2 !== null
          ? { ...jws, header: header2 as Record<string, unknown> }
          : jws,
        key,
        { algorithms },
      );
      return { verified: true, kid: header.kid, alg: header.alg };
    } catch (e) {
      if (e instanceof j.errors.JWSSignatureVerificationFailed) {
        failures.push({
          reason: 'bad-signature',
          message: `${who}: the signature does not match the card content; the card was changed after it was signed`,
        });
      } else if (e instanceof j.errors.JOSEAlgNotAllowed) {
        failures.push({
          reason: 'alg-not-allowed',
          message: `${who}: algorithm ${header.alg} is not allowed`,
        });
      } else if (e instanceof j.errors.JWSInvalid) {
        failures.push({ reason: 'malformed', message: `${who}: ${(e as Error).message}` });
      } else {
        // Typically a key that cannot do this algorithm (an RSA key for ES256, …).
        failures.push({
          reason: 'bad-signature',
          message: `${who}: the trusted key cannot verify it: ${(e as Error).message}`,
        });
      }
    }
  }
  const worst = SEVERITY.map((r) => failures.find((f) => f.reason === r)).find(
    (f) => f !== undefined,
  );
  const f = worst ?? { reason: 'malformed' as const, message: 'no usable signature' };
  return { verified: false, reason: f.reason, message: f.message };
}

/**
 * Verify and throw {@link AgentCardVerificationError} unless the card is acceptable under `trust`
 * (see {@link CardTrust.requireSignature}). Returns the verification result when it does not throw.
 */
export async function assertAgentCardVerified(
  card: AgentCard,
  trust: CardTrust = {},
): Promise<CardVerifyResult> {
  const result = await verifyAgentCard(card, trust);
  if (result.verified) return result;
  const uncheckable = result.reason === 'unsigned' || result.reason === 'unknown-kid';
  if (uncheckable && !trust.requireSignature) return result;
  throw new AgentCardVerificationError(result.reason, `agent card rejected: ${result.message}`);
}
