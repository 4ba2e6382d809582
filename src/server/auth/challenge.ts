/**
 * What a 401 tells the client (spec §3.3.2, §7.4): the `WWW-Authenticate` challenges derived from
 * the card's security schemes, and plain-words descriptions of each scheme for error messages.
 */
import type { AgentCard, SecurityScheme } from '../../protocol/index.js';

/** A quoted-string per RFC 9110 §5.6.4. */
const quoted = (s: string): string => `"${s.replace(/["\\]/g, '\\$&')}"`;

/** The names of the schemes a request may have to satisfy: those in requirements, else all declared. */
export function schemesInPlay(card: AgentCard): string[] {
  const reqs = card.securityRequirements ?? [];
  const names =
    reqs.length > 0
      ? reqs.flatMap((r) => Object.keys(r.schemes ?? {}))
      : Object.keys(card.securitySchemes ?? {});
  return [...new Set(names)];
}

/** One challenge for one scheme. */
function challengeFor(scheme: SecurityScheme, realm: string): string | undefined {
  if ('httpAuthSecurityScheme' in scheme) {
    const s = scheme.httpAuthSecurityScheme.scheme;
    const name =
      s.toLowerCase() === 'bearer' ? 'Bearer' : s.toLowerCase() === 'basic' ? 'Basic' : s;
    return name === 'Basic' ? `Basic realm=${realm}, charset="UTF-8"` : `${name} realm=${realm}`;
  }
  if ('oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme)
    return `Bearer realm=${realm}`;
  if ('apiKeySecurityScheme' in scheme) {
    // Not a registered HTTP auth scheme: a hint for people and tools reading the 401.
    const { location, name } = scheme.apiKeySecurityScheme;
    return `ApiKey realm=${realm}, in=${quoted(location.toLowerCase())}, name=${quoted(name)}`;
  }
  // mTLS happens below HTTP; a 401 still has to carry some challenge (RFC 9110 §11.6.1), so say what is missing.
  if ('mtlsSecurityScheme' in scheme) return `MutualTLS realm=${realm}`;
  return undefined;
}

/**
 * The `WWW-Authenticate` value for 401 answers of an agent with this card: one challenge per
 * scheme a client could use (duplicates merged), joined with ", " as RFC 9110 §11.6.1 allows,
 * e.g. `Bearer realm="Travel agent", ApiKey realm="Travel agent", in="header", name="X-API-Key"`.
 * The realm is the agent's name. API keys and mTLS, which HTTP has no auth scheme for, get the
 * hints `ApiKey` and `MutualTLS`. Falls back to `Bearer realm="…"` for a card without schemes.
 */
export function challengeFromCard(card: AgentCard): string {
  const realm = quoted(card.name);
  const out: string[] = [];
  for (const name of schemesInPlay(card)) {
    const scheme = card.securitySchemes?.[name];
    const c = scheme && challengeFor(scheme, realm);
    if (c && !out.includes(c)) out.push(c);
  }
  return out.length > 0 ? out.join(', ') : `Bearer realm=${realm}`;
}

/** A scheme in words, for messages: `a bearer token in the Authorization header`. */
export function describeScheme(scheme: SecurityScheme | undefined): string {
  if (!scheme) return 'an undeclared scheme';
  if ('httpAuthSecurityScheme' in scheme) {
    const s = scheme.httpAuthSecurityScheme.scheme;
    if (s.toLowerCase() === 'bearer') return 'a bearer token (Authorization: Bearer …)';
    if (s.toLowerCase() === 'basic') return 'a user name and password (Authorization: Basic …)';
    return `HTTP ${s} credentials (Authorization: ${s} …)`;
  }
  if ('oauth2SecurityScheme' in scheme)
    return 'an OAuth 2.0 access token (Authorization: Bearer …)';
  if ('openIdConnectSecurityScheme' in scheme)
    return 'an OpenID Connect token (Authorization: Bearer …)';
  if ('apiKeySecurityScheme' in scheme) {
    const { location, name } = scheme.apiKeySecurityScheme;
    const where = location.toLowerCase();
    return `an API key in the ${where === 'query' ? 'query parameter' : where === 'cookie' ? 'cookie' : 'header'} "${name}"`;
  }
  if ('mtlsSecurityScheme' in scheme) return 'a trusted TLS client certificate';
  return 'an unknown kind of credential';
}
