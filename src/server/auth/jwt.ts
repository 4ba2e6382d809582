/**
 * JWT access tokens for OAuth 2.0, OpenID Connect and HTTP Bearer schemes: signature, issuer,
 * audience and lifetime checked with jose (loaded by the first token checked), then mapped to a
 * {@link Caller}.
 */

type Jose = typeof import('jose');
import type { JWTPayload, JWTVerifyGetKey, KeyObject, JWK, CryptoKey } from 'jose';
import { jose } from '../../protocol/lazy-schemas.js';
import type { SecurityScheme } from '../../protocol/index.js';
import type { Caller } from '../dispatch/call-context.js';
import type { AuthRequest } from '../kernel/request.js';
import { authorizationOf, carriesBearer, settle, type SchemeVerifier } from './verifiers.js';
import { pinAlgorithms } from './jwt-algorithms.js';

/**
 * Options of {@link jwtBearer}. Exactly one of `audience` and `acceptAnyAudience: true` must be given:
 * a token minted for another service of the same issuer must not open this agent by default.
 */
export type JwtBearerOptions = JwtBearerCommonOptions &
  (
    | {
        /** Expected `aud` (this agent's identifier at the issuer). A token for any other audience is refused. */
        audience: string | readonly string[];
        acceptAnyAudience?: never;
      }
    | {
        audience?: never;
        /**
         * Accept tokens whatever their `aud` claim: any token the issuer mints for any of its clients
         * and services opens this agent. Only for an issuer that serves this agent alone.
         */
        acceptAnyAudience: true;
      }
  );

/** The options of {@link jwtBearer} other than the audience decision. */
export interface JwtBearerCommonOptions {
  /**
   * Where the verification keys come from: a JWKS URL (fetched and cached, keys rotated by `kid`),
   * a key resolver (e.g. jose's `createLocalJWKSet`), or one key / shared secret. Omit it to
   * discover the keys from the scheme's `openIdConnectUrl` / `oauth2MetadataUrl`.
   */
  keys?: URL | JWTVerifyGetKey | CryptoKey | KeyObject | JWK | Uint8Array;
  /** Expected `iss`. Strongly recommended; defaults to the discovered issuer when keys are discovered. */
  issuer?: string | string[];
  /**
   * Accepted `alg` values, narrowed to what the key's type can verify (an RSA key never checks an
   * HS256 token). Default: every algorithm of the key's type; for a JWKS URL or discovered keys, the
   * asymmetric ones (RS*, PS*, ES*, EdDSA).
   */
  algorithms?: string[];
  /** Allowed clock skew in seconds. Default 30. */
  clockToleranceSeconds?: number;
  /**
   * Map verified claims to the caller. Default: `id` = `sub` (tokens without `sub` are refused),
   * `claims` = the whole payload, so `scope` / `scp` feed the card's scope check.
   */
  toCaller?: (
    payload: JWTPayload,
    req: AuthRequest,
  ) => Caller | undefined | Promise<Caller | undefined>;
}

/** The `aud` values to require, or undefined for an explicit opt-out; throws on a missing or empty decision. */
function audienceOf(options: JwtBearerOptions): string[] | undefined {
  const { audience, acceptAnyAudience } = options as {
    audience?: unknown;
    acceptAnyAudience?: unknown;
  };
  if (audience !== undefined && acceptAnyAudience !== undefined) {
    throw new TypeError('jwtBearer: give either `audience` or `acceptAnyAudience: true`, not both');
  }
  if (acceptAnyAudience !== undefined) {
    if (acceptAnyAudience !== true)
      throw new TypeError(
        'jwtBearer: `acceptAnyAudience` may only be `true`; give `audience` instead',
      );
    return undefined;
  }
  const list =
    typeof audience === 'string'
      ? [audience]
      : Array.isArray(audience)
        ? (audience as unknown[])
        : undefined;
  if (list === undefined) {
    throw new TypeError(
      'jwtBearer: `audience` is required (the `aud` value the issuer puts in tokens meant for this agent); ' +
        'without it a token minted for any other service of the issuer would be accepted. ' +
        'Pass `acceptAnyAudience: true` to accept that deliberately.',
    );
  }
  if (list.length === 0 || !list.every((a) => typeof a === 'string' && a !== '')) {
    throw new TypeError(
      'jwtBearer: `audience` must be a non-empty string or a non-empty list of non-empty strings',
    );
  }
  return list as string[];
}

/** Why jose refused a token, in words that reveal nothing about the keys. */
function reasonOf({ errors }: Jose, err: unknown): string | undefined {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return `the token's "${err.claim}" claim is not accepted`;
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return 'the token signature does not verify';
  if (err instanceof errors.JWKSNoMatchingKey) return 'the token was signed with an unknown key';
  if (err instanceof errors.JOSEError) return 'the token is not a valid JWT';
  return undefined;
}

/**
 * Why a token's header is refused before any key is looked up: unreadable, or naming an algorithm
 * the verifier's key cannot check. Undefined when jose may go on.
 */
function algorithmRefused(
  { decodeProtectedHeader }: Jose,
  token: string,
  algorithms: readonly string[],
): string | undefined {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return 'the token is not a valid JWT';
  }
  if (typeof alg === 'string' && algorithms.includes(alg)) return undefined;
  return 'the token is signed with an algorithm this agent does not accept';
}

/** The discovery document a scheme points to: OIDC's `openIdConnectUrl`, OAuth 2's `oauth2MetadataUrl`. */
function metadataUrl(s: SecurityScheme): string | undefined {
  if ('openIdConnectSecurityScheme' in s) return s.openIdConnectSecurityScheme.openIdConnectUrl;
  if ('oauth2SecurityScheme' in s) return s.oauth2SecurityScheme.oauth2MetadataUrl;
  return undefined;
}

interface Discovered {
  keys: JWTVerifyGetKey;
  issuer?: string;
}

/** Read `jwks_uri` and `issuer` from an OpenID / RFC 8414 metadata document. */
async function discover({ createRemoteJWKSet }: Jose, url: string): Promise<Discovered> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`the metadata document ${url} answered HTTP ${res.status}`);
  const doc = (await res.json()) as { jwks_uri?: unknown; issuer?: unknown };
  if (typeof doc.jwks_uri !== 'string')
    throw new Error(`the metadata document ${url} has no jwks_uri`);
  return {
    keys: createRemoteJWKSet(new URL(doc.jwks_uri)),
    ...(typeof doc.issuer === 'string' ? { issuer: doc.issuer } : {}),
  };
}

/**
 * A verifier for JWT bearer tokens (RFC 9068 access tokens, OpenID Connect ID tokens, or any
 * signed JWT). Without `keys`, the keys (and the expected issuer, unless `issuer` is given) come
 * from the scheme's own discovery URL on the card — `openIdConnectUrl`, or `oauth2MetadataUrl` —
 * read on first use. Refused tokens are 401 with the reason (expired, wrong audience, bad
 * signature…); an identity provider that cannot be reached is an internal error, not the caller's.
 *
 * `audience` is required (or `acceptAnyAudience: true`, deliberately): a missing decision throws here,
 * when the server is configured, rather than accepting every token of the issuer.
 */
export function jwtBearer(options: JwtBearerOptions): SchemeVerifier {
  const audience = audienceOf(options);
  const given = options.keys;
  const fixed = given !== undefined;
  // A key set at a URL is made once, with jose, on the first token checked.
  let fixedKeys: Discovered | undefined;
  const discovered = new Map<string, Promise<Discovered>>();
  const keysFor = (j: Jose, scheme: SecurityScheme): Promise<Discovered> | Discovered => {
    if (given !== undefined) {
      return (fixedKeys ??= {
        keys: (given instanceof URL ? j.createRemoteJWKSet(given) : given) as JWTVerifyGetKey,
      });
    }
    const url = metadataUrl(scheme)!;
    let p = discovered.get(url);
    if (!p) {
      discovered.set(url, (p = discover(j, url)));
      p.catch(() => discovered.delete(url)); // try again on the next request
    }
    return p;
  };
  // Pinned now, from the key's type: a token's own `alg` header never chooses how it is checked.
  const algorithms = pinAlgorithms(options.keys, options.algorithms);
  const base = {
    ...(audience !== undefined ? { audience } : {}),
    algorithms,
    clockTolerance: options.clockToleranceSeconds ?? 30,
  };
  return {
    kind: fixed
      ? 'jwt bearer'
      : 'jwt bearer (keys discovered from openIdConnectUrl / oauth2MetadataUrl)',
    accepts: (s) => carriesBearer(s) && (fixed || metadataUrl(s) !== undefined),
    async check(req, scheme, name) {
      const token = authorizationOf(req, 'Bearer');
      if (token === undefined) return { status: 'absent' };
      const j = jose.now() ?? (await jose.load());
      const refused = algorithmRefused(j, token, algorithms);
      if (refused) return { status: 'rejected', reason: refused };
      const { keys, issuer } = await keysFor(j, scheme);
      const iss = options.issuer ?? issuer;
      let payload: JWTPayload;
      try {
        ({ payload } = await j.jwtVerify(token, keys, {
          ...base,
          ...(iss !== undefined ? { issuer: iss } : {}),
        }));
      } catch (err) {
        const reason = reasonOf(j, err);
        if (
          reason === undefined ||
          err instanceof j.errors.JWKSTimeout ||
          err instanceof j.errors.JWKSInvalid
        )
          throw err;
        return { status: 'rejected', reason };
      }
      if (options.toCaller) return settle(options.toCaller(payload, req), name);
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return { status: 'rejected', reason: 'the token has no "sub" claim' };
      return { status: 'ok', caller: { id: payload.sub, scheme: name, claims: { ...payload } } };
    },
  };
}
