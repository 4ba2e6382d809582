/**
 * HTTP semantics of the agent card endpoint (spec §8.6.1, RFC 9110 §13, RFC 9111): caching headers
 * and conditional GETs, as a pure function of the request headers. Framework adapters only copy
 * the result onto their response.
 */
import type { AgentCard } from '../../protocol/card.js';
import { etagOfBytes, servedCardBytes } from './served-bytes.js';

export interface CardResponderOptions {
  /** `Cache-Control: public, max-age=N`. Default 300 seconds. */
  maxAgeSeconds?: number;
  /** `Last-Modified`; default: when the responder was built. Sub-second parts are dropped (HTTP dates have none). */
  lastModified?: Date;
}

export interface CardHttpHeaders {
  'cache-control': string;
  etag: string;
  'last-modified': string;
  /** Only on 200: a 304 carries no representation. */
  'content-type'?: string;
  /** `A2A-Version` when the card has a form per protocol version (an agent that speaks 0.3 too). */
  vary?: string;
}

export interface CardHttpResponse {
  status: 200 | 304;
  headers: CardHttpHeaders;
  /** The card JSON on 200 (absent for HEAD); never on 304. */
  body?: Buffer;
}

/** Node's `IncomingHttpHeaders`, a plain object with any header-name case, or a Fetch `Headers`. */
export type RequestHeaderSource =
  Record<string, string | string[] | undefined> | { get(name: string): string | null };

/** A request header by lower-case name, from any of the {@link RequestHeaderSource} shapes. */
export function header(src: RequestHeaderSource, name: string): string | undefined {
  if (typeof (src as { get?: unknown }).get === 'function') {
    return (src as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const rec = src as Record<string, string | string[] | undefined>;
  let v = rec[name];
  if (v === undefined) {
    const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
    v = key === undefined ? undefined : rec[key];
  }
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Entity tags of an If-None-Match value, as opaque tags (quotes kept, `W/` stripped), or `'*'`.
 * Scans quoted strings rather than splitting on commas because a tag may itself contain a comma.
 * Bare, unquoted tokens (a common client mistake) are read as if quoted.
 */
export function parseIfNoneMatch(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  const tags: string[] = [];
  let i = 0;
  // Each round consumes at least one character, so the loop ends within value.length rounds.
  while (i < value.length) {
    const c = value[i]!;
    if (c === ',' || c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (value.startsWith('W/', i)) i += 2;
    if (value[i] === '"') {
      const end = value.indexOf('"', i + 1);
      if (end === -1) break;
      tags.push(value.slice(i, end + 1));
      i = end + 1;
    } else {
      let end = value.indexOf(',', i);
      if (end === -1) end = value.length;
      const token = value.slice(i, end).trim();
      if (token === '*') return '*';
      if (token) tags.push(`"${token}"`);
      i = end + 1;
    }
  }
  return tags;
}

/** Weak comparison (RFC 9110 §8.8.3.2): opaque tags equal, `W/` prefixes ignored. */
const weakEquals = (a: string, b: string): boolean =>
  a.replace(/^W\//, '') === b.replace(/^W\//, '');

/**
 * Serves one card. Build it once per card (the body and ETag are computed here, not per request),
 * and build a new one when the card changes, e.g. after re-signing.
 */
export class CardResponder {
  /** Exactly the bytes sent on 200. */
  readonly body: Buffer;
  /** Strong ETag over {@link body}; changes with any served byte, signatures included. */
  readonly etag: string;
  readonly lastModified: Date;
  readonly maxAgeSeconds: number;
  readonly #headers: CardHttpHeaders;

  constructor(card: AgentCard, options: CardResponderOptions = {}) {
    const maxAge = options.maxAgeSeconds ?? 300;
    if (!Number.isInteger(maxAge) || maxAge < 0)
      throw new RangeError('maxAgeSeconds must be a non-negative integer');
    const lm = options.lastModified ?? new Date();
    if (Number.isNaN(lm.getTime())) throw new RangeError('lastModified is not a valid date');
    this.body = servedCardBytes(card);
    this.etag = etagOfBytes(this.body);
    this.lastModified = new Date(Math.floor(lm.getTime() / 1000) * 1000);
    this.maxAgeSeconds = maxAge;
    this.#headers = {
      'cache-control': `public, max-age=${maxAge}`,
      etag: this.etag,
      'last-modified': this.lastModified.toUTCString(),
    };
  }

  /**
   * Answer a GET or HEAD for the card. `If-None-Match` decides when present (`*` or any weakly
   * matching tag → 304); only without it is `If-Modified-Since` consulted (RFC 9110 §13.1.3).
   */
  respond(
    requestHeaders: RequestHeaderSource = {},
    method: 'GET' | 'HEAD' = 'GET',
  ): CardHttpResponse {
    if (this.#notModified(requestHeaders)) return { status: 304, headers: { ...this.#headers } };
    const headers: CardHttpHeaders = { 'content-type': 'application/json', ...this.#headers };
    return method === 'HEAD' ? { status: 200, headers } : { status: 200, headers, body: this.body };
  }

  #notModified(h: RequestHeaderSource): boolean {
    const inm = header(h, 'if-none-match');
    if (inm !== undefined) {
      const tags = parseIfNoneMatch(inm);
      return tags === '*' || tags.some((t) => weakEquals(t, this.etag));
    }
    const ims = header(h, 'if-modified-since');
    if (ims === undefined) return false;
    const since = Date.parse(ims);
    // An unparseable date is ignored, as RFC 9110 §13.1.3 asks.
    return !Number.isNaN(since) && this.lastModified.getTime() <= since;
  }
}
