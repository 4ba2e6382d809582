/** Small HTTP helpers shared by the bindings: service parameters, the query string, JSON media types. */
import { A2A_MEDIA_TYPE, HEADER_EXTENSIONS } from '../../protocol/index.js';
import type { HttpExchange } from './exchange.js';

/**
 * Whether JSON text nests objects and arrays deeper than `max`. A scan of the text before parsing (strings
 * skipped), so a hostile body is refused without building its object tree; linear and allocation-free.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return false;
}

/** The error for a body past the depth limit, naming it. */
export function tooDeepMessage(max: number): string {
  return `The request body nests JSON more than ${max} levels deep, the most this server accepts`;
}

/**
 * Compressed request bodies are refused rather than decoded: a decompression bomb would otherwise get
 * past the body limit. Returns the message for the 415 answer, or undefined for an identity body.
 */
export function unsupportedEncoding(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || header.toLowerCase() === 'identity')
    return undefined;
  return `Content-Encoding "${header.slice(0, 40)}" is not accepted: send the request body uncompressed`;
}

/** `A2A-Extensions` in lower case, as header lookups take it. */
export const EXTENSIONS_HEADER = HEADER_EXTENSIONS.toLowerCase();
// Shared by every request without the header; frozen so that no caller can change it for the others.
const NO_EXTENSIONS = Object.freeze([]) as unknown as string[];

/** Extension URIs from an `A2A-Extensions` value (comma-separated; repeated headers arrive joined). */
export function requestedExtensions(raw: string | undefined): string[] {
  if (!raw) return NO_EXTENSIONS;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `A2A-Version` from the header, else from the `A2A-Version` query parameter (§3.6.1). */
export function requestedVersionParam(
  ex: HttpExchange,
  query?: URLSearchParams,
): string | undefined {
  const h = ex.header('a2a-version');
  if (h !== undefined) return h;
  return query?.get('A2A-Version') ?? query?.get('a2a-version') ?? undefined;
}

/** The query string of a request URL, parsed only when there is one. */
export function queryOf(url: string): URLSearchParams | undefined {
  const q = url.indexOf('?');
  return q >= 0 ? new URLSearchParams(url.slice(q + 1)) : undefined;
}

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

const JSON_MEDIA_TYPES = new Set(['application/json', A2A_MEDIA_TYPE]);

/** Whether a Content-Type names a JSON body we read (`application/json` or `application/a2a+json`, UTF-8). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === 'application/json' || header === A2A_MEDIA_TYPE) return true; // the usual case, without parsing
  const [type, ...params] = (header ?? '').split(';').map((s) => s.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return (
    type !== undefined &&
    JSON_MEDIA_TYPES.has(type) &&
    (!charset || charset === 'utf-8' || charset === 'utf8')
  );
}
