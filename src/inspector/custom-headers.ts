/**
 * Custom headers per agent (a gateway's API key, a tenant header, a trace id): checked before they
 * are kept, sent with the card request and every call (gRPC: as metadata), and treated like
 * credentials when their name says they are one — masked on the wire view, never sent back to the
 * page, kept when the page sends the mask back unchanged.
 */
import { MASK } from './mask.js';
import { BadRequest } from './errors.js';

/** Headers one agent may carry, and the largest value: enough for any real header, bounded for the session. */
export const MAX_HEADERS = 32;
const MAX_VALUE = 8192;

/** Headers the client, the binding or HTTP itself sets: overriding them would break the call, not test it. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'accept',
  'accept-encoding',
  'a2a-version',
  'a2a-extensions',
  'last-event-id',
  'x-a2a-inspector-exchange',
]);

/** RFC 9110 token characters: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Words that make a header a credential: its value is masked and never shown again. */
const SECRET = /auth|token|secret|key|password|passwd|cookie|session|credential|signature/i;

/** Whether a header (by name) carries a credential. */
export function isSecretHeader(name: string): boolean {
  return SECRET.test(name);
}

/** One custom header as the page sees it: a secret one's value is not given back. */
export interface HeaderFact {
  name: string;
  /** The value; absent for a secret header (its value is held on the server). */
  value?: string;
  secret: boolean;
}

/**
 * Reads the page's list (`[{ name, value }]`, at most {@link MAX_HEADERS}); a value equal to the mask
 * keeps what `held` has for that name. Throws {@link BadRequest} naming the entry at fault.
 */
export function checkHeaders(
  value: unknown,
  held: ReadonlyMap<string, string>,
): Map<string, string> {
  if (!Array.isArray(value)) throw new BadRequest('headers: a list of { name, value }');
  if (value.length > MAX_HEADERS) throw new BadRequest(`headers: at most ${MAX_HEADERS}`);
  const out = new Map<string, string>();
  value.forEach((h: unknown, i) => {
    const at = `headers[${i}]`;
    if (typeof h !== 'object' || h === null) throw new BadRequest(`${at} is not an object`);
    const { name, value: v } = h as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || !TOKEN.test(name) || name.length > 256)
      throw new BadRequest(
        `${at}.name is not a header name (letters, digits and !#$%&'*+.^_\`|~-)`,
      );
    const key = name.toLowerCase();
    if (RESERVED.has(key))
      throw new BadRequest(`${at}: ${name} is set by the client or by HTTP itself`);
    if (out.has(key)) throw new BadRequest(`${at}: ${name} is given twice`);
    if (typeof v !== 'string') throw new BadRequest(`${at}.value must be a string`);
    const kept = v === MASK ? held.get(key) : v.trim();
    if (kept === undefined) throw new BadRequest(`${at}: no value held for ${name}; type it again`);
    if (kept.length > MAX_VALUE) throw new BadRequest(`${at}.value is longer than ${MAX_VALUE}`);
    // CR, LF and NUL would split the request; HTTP/1.1, HTTP/2 and gRPC metadata all carry printable ASCII.
    if (!/^[\x20-\x7e]*$/.test(kept))
      throw new BadRequest(
        `${at}.value must be printable ASCII (no line breaks or control characters)`,
      );
    out.set(key, kept);
  });
  return out;
}

/** The headers as the page may see them. */
export function headerFacts(headers: ReadonlyMap<string, string>): HeaderFact[] {
  return [...headers].map(([name, value]) =>
    isSecretHeader(name) ? { name, secret: true } : { name, value, secret: false },
  );
}
