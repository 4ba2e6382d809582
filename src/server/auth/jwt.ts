/**
 * JWT access tokens for OAuth 2.0, OpenID Connect and HTTP Bearer schemes: signature, issuer,
 * audience and lifetime checked with jose, then mapped to a {@link Caller}.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type KeyObject, type JWK, type CryptoKey } from 'jose';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../caller.js';
import { authorizationOf, carriesBearer, settle, type SchemeVerifier } from './verifiers.js';

export interface JwtBearerOptions {
  /**
   * Where the verification keys come from: a JWKS URL (fetched and cached, keys rotated by `kid`),
   * a key resolver (e.g. jose's `createLocalJWKSet`), or one key / shared secret.
   */
  keys: URL | JWTVerifyGetKey | CryptoKey | KeyObject | JWK | Uint8Array;
  /** Expected `iss`. Strongly recommended. */
  issuer?: string | string[];
  /** Expected `aud` (this agent). Strongly recommended. */
  audience?: string | string[];
  /** Accepted `alg` values. Default: whatever the key allows (jose refuses `none`). */
  algorithms?: string[];
  /** Allowed clock skew in seconds. Default 30. */
  clockToleranceSeconds?: number;
  /**
   * Map verified claims to the caller. Default: `id` = `sub` (tokens without `sub` are refused),
   * `claims` = the whole payload, so `scope` / `scp` feed the card's scope check.
   */
  toCaller?: (payload: JWTPayload, req: IncomingMessage) => Caller | undefined | Promise<Caller | undefined>;
}

/** Why jose refused a token, in words that reveal nothing about the keys. */
function reasonOf(err: unknown): string | undefined {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `the token's "${err.claim}" claim is not accepted`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (err instanceof errors.JWKSNoMatchingKey) return 'the token was signed with an unknown key';
  if (err instanceof errors.JOSEError) return 'the token is not a valid JWT';
  return undefined;
}

/**
 * A verifier for JWT bearer tokens (RFC 9068 access tokens, OpenID Connect ID tokens, or any
 * signed JWT). Refused tokens are 401 with the reason (expired, wrong audience, bad signature…);
 * a JWKS endpoint that cannot be reached is an internal error, not the caller's fault.
 */
export function jwtBearer(options: JwtBearerOptions): SchemeVerifier {
  const keys = options.keys instanceof URL ? createRemoteJWKSet(options.keys) : options.keys;
  const verifyOptions = {
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
    ...(options.audience !== undefined ? { audience: options.audience } : {}),
    ...(options.algorithms ? { algorithms: options.algorithms } : {}),
    clockTolerance: options.clockToleranceSeconds ?? 30,
  };
  return {
    kind: 'jwt bearer',
    accepts: carriesBearer,
    async check(req, _scheme, name) {
      const token = authorizationOf(req, 'Bearer');
      if (token === undefined) return { status: 'absent' };
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys as JWTVerifyGetKey, verifyOptions));
      } catch (err) {
        const reason = reasonOf(err);
        if (reason === undefined || err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) throw err;
        return { status: 'rejected', reason };
      }
      if (options.toCaller) return settle(options.toCaller(payload, req), name);
      if (typeof payload.sub !== 'string' || payload.sub === '') return { status: 'rejected', reason: 'the token has no "sub" claim' };
      return { status: 'ok', caller: { id: payload.sub, scheme: name, claims: { ...payload } } };
    },
  };
}
