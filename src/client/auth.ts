/**
 * Client credentials (spec §7.3): the card says which schemes the agent accepts
 * (`securitySchemes`) and which combinations it requires (`securityRequirements`, alternatives
 * of schemes that must all be satisfied); the caller supplies credentials obtained out of band,
 * and this module puts them where each scheme says: Authorization header, API-key header,
 * query parameter or cookie.
 */
import type { AgentCard, SecurityScheme } from '../protocol/index.js';

/** A token or API key, or a user name and password for HTTP Basic. */
export type Credential = string | { username: string; password: string };

/** How a scheme is applied; also usable as a lookup key in a credentials map. */
export type SchemeKind =
  'bearer' | 'basic' | 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mtls';

/** What a credentials function is asked about. */
export interface CredentialQuery {
  /** The scheme's name in the card's `securitySchemes`. */
  name: string;
  /** The scheme as the card declares it. */
  scheme: SecurityScheme;
  /** Its kind, e.g. `bearer` or `apiKey`. */
  kind: SchemeKind;
}

/**
 * Credentials for one agent. A map is looked up by scheme name first, then by kind
 * (`bearer` also serves OAuth 2 and OpenID Connect schemes, which carry bearer tokens).
 * A function is asked per scheme and per request, so it can hand out a fresh token.
 */
export type Credentials =
  | Readonly<Record<string, Credential | undefined>>
  | ((query: CredentialQuery) => Credential | undefined | Promise<Credential | undefined>);

/** Where credentials go on one request. */
export interface AppliedAuth {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Names of the schemes applied, for logs. */
  schemes: string[];
}

/**
 * The kind of a security scheme declared on a card, which is also the key a credentials map may
 * use for it: e.g. `'bearer'` for an HTTP bearer scheme. Undefined for a scheme of no known kind.
 */
export function schemeKind(scheme: SecurityScheme): SchemeKind | undefined {
  if ('httpAuthSecurityScheme' in scheme) {
    const s = scheme.httpAuthSecurityScheme.scheme.toLowerCase();
    return s === 'bearer' ? 'bearer' : s === 'basic' ? 'basic' : 'http';
  }
  if ('apiKeySecurityScheme' in scheme) return 'apiKey';
  if ('oauth2SecurityScheme' in scheme) return 'oauth2';
  if ('openIdConnectSecurityScheme' in scheme) return 'openIdConnect';
  if ('mtlsSecurityScheme' in scheme) return 'mtls';
  return undefined;
}

async function lookup(
  credentials: Credentials,
  query: CredentialQuery,
): Promise<Credential | undefined> {
  if (typeof credentials === 'function') return credentials(query);
  const byKind =
    query.kind === 'oauth2' || query.kind === 'openIdConnect'
      ? (credentials[query.kind] ?? credentials['bearer'])
      : credentials[query.kind];
  return credentials[query.name] ?? byKind;
}

/**
 * Works out the headers and query parameters for one request: the first requirement (in the
 * card's order) whose schemes all have credentials wins; an empty requirement means anonymous
 * access is allowed and is used only when no other requirement can be met. A card with schemes
 * but no requirements gets every scheme we hold credentials for.
 */
export async function applyCredentials(
  card: AgentCard,
  credentials: Credentials | undefined,
): Promise<AppliedAuth> {
  const out: AppliedAuth = { headers: {}, query: {}, schemes: [] };
  const schemes = card.securitySchemes ?? {};
  if (!credentials || Object.keys(schemes).length === 0) return out;
  const requirements = (card.securityRequirements ?? []).map((r) => Object.keys(r.schemes ?? {}));
  const alternatives =
    requirements.length > 0 ? requirements.filter((r) => r.length > 0) : [Object.keys(schemes)];
  const partial = requirements.length === 0;

  for (const names of alternatives) {
    const found: Array<[string, SecurityScheme, SchemeKind, Credential]> = [];
    for (const name of names) {
      const scheme = schemes[name];
      const kind = scheme && schemeKind(scheme);
      const cred = scheme && kind ? await lookup(credentials, { name, scheme, kind }) : undefined;
      if (scheme && kind && cred !== undefined) found.push([name, scheme, kind, cred]);
      else if (!partial) break;
    }
    if (found.length === 0 || (!partial && found.length !== names.length)) continue;
    for (const [, scheme, kind, cred] of found) put(out, scheme, kind, cred);
    out.schemes = found.map(([name]) => name);
    return out;
  }
  return out;
}

function put(out: AppliedAuth, scheme: SecurityScheme, kind: SchemeKind, cred: Credential): void {
  const secret = typeof cred === 'string' ? cred : `${cred.username}:${cred.password}`;
  switch (kind) {
    case 'bearer':
    case 'oauth2':
    case 'openIdConnect':
      out.headers['Authorization'] = `Bearer ${secret}`;
      return;
    case 'basic':
      out.headers['Authorization'] = `Basic ${base64Utf8(secret)}`;
      return;
    case 'http':
      if ('httpAuthSecurityScheme' in scheme)
        out.headers['Authorization'] = `${scheme.httpAuthSecurityScheme.scheme} ${secret}`;
      return;
    case 'apiKey': {
      if (!('apiKeySecurityScheme' in scheme)) return;
      const { location, name } = scheme.apiKeySecurityScheme;
      const where = location.toLowerCase();
      if (where === 'query') out.query[name] = secret;
      else if (where === 'cookie') {
        const pair = `${name}=${encodeURIComponent(secret)}`;
        out.headers['Cookie'] = out.headers['Cookie'] ? `${out.headers['Cookie']}; ${pair}` : pair;
      } else out.headers[name] = secret;
      return;
    }
    case 'mtls':
      // The TLS client certificate lives in the fetch implementation (dispatcher), not in a header.
      return;
  }
}

/** Base64 of the UTF-8 bytes of `text` with Web APIs only: the client also runs in browsers. */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
