/**
 * Per-scheme credential verifiers (spec §4.5, §7.4). A verifier knows where its kind of scheme
 * carries the credential (Authorization header, API-key header / query / cookie, TLS certificate)
 * and hands it to the user's check, which maps it to a {@link Caller} or rejects it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import type { SecurityScheme } from '../../protocol/index.js';
import type { Caller } from '../dispatch/call-context.js';
import type { AuthRequest } from '../kernel/request.js';

type Maybe<T> = T | undefined | Promise<T | undefined>;

/** What one scheme concluded about one request. */
export type SchemeOutcome =
  { status: 'absent' } | { status: 'rejected'; reason?: string } | { status: 'ok'; caller: Caller };

/**
 * Checks one security scheme of the card. Build them with {@link bearer}, {@link basic},
 * {@link apiKey}, {@link mutualTls}, or implement this for a scheme of your own.
 */
export interface SchemeVerifier {
  /** Short name used in error messages at start, e.g. `bearer`. */
  readonly kind: string;
  /** Whether this verifier can check `scheme`; a mismatch is reported when the server starts. */
  accepts(scheme: SecurityScheme): boolean;
  /** Look for this scheme's credential on `req` and verify it. */
  check(req: AuthRequest, scheme: SecurityScheme, name: string): Promise<SchemeOutcome>;
}

/**
 * Turns a verify function's answer into an outcome: a Caller is accepted (its `scheme` defaults to
 * the scheme's name), undefined is a rejection. A thrown A2AError propagates as is.
 */
export async function settle(result: Maybe<Caller>, name: string): Promise<SchemeOutcome> {
  const caller = await result;
  if (!caller) return { status: 'rejected' };
  // An empty id is the anonymous owner: accepting it would share tasks with every anonymous caller.
  if (typeof caller.id !== 'string' || caller.id === '')
    throw new Error(`the verifier for scheme "${name}" returned a caller without an id`);
  return { status: 'ok', caller: caller.scheme ? caller : { ...caller, scheme: name } };
}

/** The credentials after `Authorization: <scheme> `, when the request uses that scheme. */
export function authorizationOf(req: AuthRequest, scheme: string): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const space = h.indexOf(' ');
  const kind = space < 0 ? h : h.slice(0, space);
  return kind.toLowerCase() === scheme.toLowerCase()
    ? h.slice(space < 0 ? h.length : space + 1).trim()
    : undefined;
}

/** Schemes whose credential is a bearer token: HTTP Bearer, OAuth 2.0, OpenID Connect. */
export function carriesBearer(s: SecurityScheme): boolean {
  return (
    'oauth2SecurityScheme' in s ||
    'openIdConnectSecurityScheme' in s ||
    ('httpAuthSecurityScheme' in s && s.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer')
  );
}

/**
 * HTTP Bearer tokens (`Authorization: Bearer …`). Also serves OAuth 2.0 and OpenID Connect
 * schemes: their access tokens arrive as bearer tokens, and `verify` validates them (introspection,
 * JWT verification — see {@link jwtBearer}). Return undefined for a token you do not accept.
 */
export function bearer(verify: (token: string, req: AuthRequest) => Maybe<Caller>): SchemeVerifier {
  return {
    kind: 'bearer',
    accepts: carriesBearer,
    async check(req, _scheme, name) {
      const token = authorizationOf(req, 'Bearer');
      if (token === undefined) return { status: 'absent' };
      if (token === '') return { status: 'rejected', reason: 'the bearer token is empty' };
      return settle(verify(token, req), name);
    },
  };
}

/** HTTP Basic (`Authorization: Basic base64(user:password)`, RFC 7617). */
export function basic(
  verify: (user: string, password: string, req: AuthRequest) => Maybe<Caller>,
): SchemeVerifier {
  return {
    kind: 'basic',
    accepts: (s) =>
      'httpAuthSecurityScheme' in s && s.httpAuthSecurityScheme.scheme.toLowerCase() === 'basic',
    async check(req, _scheme, name) {
      const b64 = authorizationOf(req, 'Basic');
      if (b64 === undefined) return { status: 'absent' };
      const decoded = /^[A-Za-z0-9+/]+=*$/.test(b64)
        ? Buffer.from(b64, 'base64').toString('utf8')
        : '';
      const colon = decoded.indexOf(':');
      if (colon < 0)
        return {
          status: 'rejected',
          reason: 'the Basic credentials are not base64 of "user:password"',
        };
      return settle(verify(decoded.slice(0, colon), decoded.slice(colon + 1), req), name);
    },
  };
}

/** The value of cookie `name`, percent-decoded when it is valid percent-encoding. */
function cookie(req: AuthRequest, name: string): string | undefined {
  const value = req.headers.cookie;
  const header = Array.isArray(value) ? value.join('; ') : value;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const raw = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The API key for `scheme` on `req`, from wherever the scheme says it travels. */
export function apiKeyOf(req: AuthRequest, scheme: SecurityScheme): string | undefined {
  if (!('apiKeySecurityScheme' in scheme)) return undefined;
  const { location, name } = scheme.apiKeySecurityScheme;
  switch (location.toLowerCase()) {
    case 'query':
      return new URL(req.url ?? '/', 'http://x').searchParams.get(name) ?? undefined;
    case 'cookie':
      return cookie(req, name);
    default: {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    }
  }
}

/** API keys, read from the header, query parameter or cookie the scheme names. */
export function apiKey(verify: (key: string, req: AuthRequest) => Maybe<Caller>): SchemeVerifier {
  return {
    kind: 'apiKey',
    accepts: (s) => 'apiKeySecurityScheme' in s,
    async check(req, scheme, name) {
      const key = apiKeyOf(req, scheme);
      if (key === undefined) return { status: 'absent' };
      if (key === '') return { status: 'rejected', reason: 'the API key is empty' };
      return settle(verify(key, req), name);
    },
  };
}

/**
 * Mutual TLS: the client certificate of a TLS connection the server's CA list has already
 * validated (mount the server's listener in `https.createServer({ requestCert: true, ca, … })`).
 * A certificate the TLS layer did not authorize is rejected without calling `verify`.
 */
export function mutualTls(
  verify: (cert: PeerCertificate, req: AuthRequest) => Maybe<Caller>,
): SchemeVerifier {
  return {
    kind: 'mtls',
    accepts: (s) => 'mtlsSecurityScheme' in s,
    async check(req, _scheme, name) {
      // Requests through the fetch adapter have no socket, hence no certificate.
      const socket = req.socket;
      const cert =
        typeof socket?.getPeerCertificate === 'function'
          ? (socket.getPeerCertificate() as PeerCertificate)
          : undefined;
      if (!cert || Object.keys(cert).length === 0) return { status: 'absent' };
      if (!socket?.authorized)
        return { status: 'rejected', reason: 'the client certificate is not trusted' };
      return settle(verify(cert, req), name);
    },
  };
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Compare two secrets in time independent of where they differ (and, via hashing, of their lengths). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** A lookup over a fixed secret → caller-id table that compares against every entry, every time. */
function fixedSecrets(
  table: Readonly<Record<string, string>>,
): (secret: string) => Caller | undefined {
  const entries = Object.entries(table).map(([secret, id]) => [digest(secret), id] as const);
  return (secret) => {
    const d = digest(secret);
    let found: string | undefined;
    for (const [candidate, id] of entries)
      if (timingSafeEqual(candidate, d) && found === undefined) found = id;
    return found === undefined ? undefined : { id: found };
  };
}

/** Bearer tokens from a fixed table `{ token: callerId }` (tests, demos, internal services). */
export function staticBearerTokens(tokens: Readonly<Record<string, string>>): SchemeVerifier {
  return bearer(fixedSecrets(tokens));
}

/** API keys from a fixed table `{ key: callerId }`. */
export function staticApiKeys(keys: Readonly<Record<string, string>>): SchemeVerifier {
  return apiKey(fixedSecrets(keys));
}
