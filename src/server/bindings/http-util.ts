/** Small HTTP helpers shared by the bindings: bounded body reading, service parameters. */
import type { IncomingMessage } from 'node:http';
import { A2A_MEDIA_TYPE, HEADER_EXTENSIONS } from '../../protocol/index.js';

/** The body exceeded the configured limit. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`The request body is larger than the ${limit}-byte limit`);
  }
}

/** Default request body limit: 4 MiB (messages may carry inline files). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Read the whole body, refusing (without buffering) anything past `limit` bytes. When a framework
 * already consumed the stream and left the result on `req.body` (Express with `express.json()`),
 * that value is used instead, serialised back to JSON unless it is raw bytes or text.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (parsed !== undefined && (req.readableEnded || (req.complete && !req.readable))) {
    const buf = Buffer.isBuffer(parsed) ? parsed : Buffer.from(typeof parsed === 'string' ? parsed : JSON.stringify(parsed));
    return buf.length > limit ? Promise.reject(new BodyTooLargeError(limit)) : Promise.resolve(buf);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `A2A-Extensions` as node:http names it (lower case). */
export const EXTENSIONS_HEADER = HEADER_EXTENSIONS.toLowerCase();
// Shared by every request without the header; frozen so that no caller can change it for the others.
const NO_EXTENSIONS = Object.freeze([]) as unknown as string[];

/** Extension URIs from `A2A-Extensions` (comma-separated, possibly repeated). */
export function requestedExtensions(req: IncomingMessage): string[] {
  const raw = req.headers[EXTENSIONS_HEADER];
  if (!raw) return NO_EXTENSIONS;
  const joined = Array.isArray(raw) ? raw.join(',') : raw;
  return joined
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `A2A-Version` from the header, else from the `A2A-Version` query parameter (§3.6.1). */
export function requestedVersionParam(req: IncomingMessage, query?: URLSearchParams): string | undefined {
  const h = req.headers['a2a-version'];
  if (typeof h === 'string') return h;
  return query?.get('A2A-Version') ?? query?.get('a2a-version') ?? undefined;
}

/** The query string of a request URL, parsed only when there is one. */
export function queryOf(url: string | undefined): URLSearchParams | undefined {
  const q = url?.indexOf('?') ?? -1;
  return q >= 0 ? new URLSearchParams(url!.slice(q + 1)) : undefined;
}

const JSON_MEDIA_TYPES = new Set(['application/json', A2A_MEDIA_TYPE]);

/** Whether a Content-Type names a JSON body we read (`application/json` or `application/a2a+json`, UTF-8). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === 'application/json' || header === A2A_MEDIA_TYPE) return true; // the usual case, without parsing
  const [type, ...params] = (header ?? '').split(';').map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '');
  return type !== undefined && JSON_MEDIA_TYPES.has(type) && (!charset || charset === 'utf-8' || charset === 'utf8');
}
