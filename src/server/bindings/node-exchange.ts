/**
 * The node:http side of an {@link HttpExchange}: the hot path of a standalone server. A reply is one
 * `writeHead(…).end(body)` with a content-length (head and body in one socket write); a stream's
 * writes of one synchronous burst are corked into one write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthRequest } from '../kernel/request.js';
import { inTurn } from '../kernel/heavy-turns.js';
import {
  BodyReadError,
  BodyTooLargeError,
  type AnswerBody,
  type HttpExchange,
  type StreamTarget,
} from './exchange.js';

/** Told of every stream as it opens (a server uses it to end open streams when it closes). */
export type StreamOpened = (res: ServerResponse) => void;

/** One node:http request and its response. */
export class NodeExchange implements HttpExchange {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly opened?: StreamOpened,
  ) {}

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get url(): string {
    return this.req.url ?? '/';
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return typeof v === 'string' || v === undefined ? v : v.join(', ');
  }

  readBody(limit: number): Promise<string> {
    return readBody(this.req, limit);
  }

  authRequest(): AuthRequest {
    return this.req;
  }

  get answered(): boolean {
    return this.res.headersSent;
  }

  onAbandoned(fn: () => void): void {
    const res = this.res;
    if (res.closed) fn();
    else res.once('close', () => void (res.writableFinished || fn()));
  }

  reply(status: number, headers: Record<string, string>, body?: AnswerBody): void {
    if (Array.isArray(body)) return this.#replyParts(status, headers, body);
    const one = body as string | Uint8Array | undefined;
    if (one !== undefined)
      headers['content-length'] = String(
        typeof one === 'string' ? Buffer.byteLength(one) : one.byteLength,
      );
    this.res.writeHead(status, headers).end(one);
  }

  /** The parts leave in one socket write, none of them copied into a joined body first. */
  #replyParts(
    status: number,
    headers: Record<string, string>,
    parts: ReadonlyArray<string | Uint8Array>,
  ): void {
    let size = 0;
    for (const p of parts) size += typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength;
    headers['content-length'] = String(size);
    const res = this.res.writeHead(status, headers);
    res.cork();
    for (const p of parts) res.write(p);
    res.end();
  }

  openStream(headers: Record<string, string>): StreamTarget {
    const res = this.res;
    res.writeHead(200, headers);
    res.flushHeaders();
    this.opened?.(res);
    return new NodeStream(res);
  }

  drop(): void {
    this.res.destroy();
  }
}

/** A streamed response body; made only for streams, so a unary call allocates none of this. */
class NodeStream implements StreamTarget {
  #started = false;
  #corked = false;
  #closed = false;
  #onClose: Array<() => void> | undefined;

  constructor(private readonly res: ServerResponse) {
    res.on('close', this.#finish);
  }

  write(chunk: string | Uint8Array): void {
    if (this.#closed) return;
    // The first event goes out at once with the head, so the client sees the stream start before the
    // rest of a burst is serialised; the events after it in the same tick leave in one socket write.
    if (!this.#started) {
      this.#started = true;
      this.res.write(chunk);
      return;
    }
    if (!this.#corked) {
      this.#corked = true;
      this.res.cork();
      process.nextTick(this.#uncork);
    }
    this.res.write(chunk);
  }

  readonly #uncork = (): void => {
    if (!this.#corked) return;
    this.#corked = false;
    this.res.uncork();
  };

  get buffered(): number {
    return this.res.destroyed ? 0 : this.res.writableLength;
  }

  abort(): void {
    this.res.destroy();
  }

  end(): void {
    if (this.#closed) return;
    this.#uncork();
    this.res.end();
    this.#finish();
  }

  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else (this.#onClose ??= []).push(fn);
  }

  readonly #finish = (): void => {
    if (this.#closed) return;
    this.#closed = true;
    const fns = this.#onClose;
    this.#onClose = undefined;
    if (fns) for (const fn of fns) fn();
  };
}

/**
 * Read the whole body, refusing (without buffering) anything past `limit` bytes. When a framework
 * already consumed the stream and left the result on `req.body` (Express with `express.json()`),
 * that value is used instead, serialised back to JSON unless it is raw bytes or text.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (parsed !== undefined && (req.readableEnded || (req.complete && !req.readable))) {
    const buf = Buffer.isBuffer(parsed)
      ? parsed
      : Buffer.from(typeof parsed === 'string' ? parsed : JSON.stringify(parsed));
    return buf.length > limit
      ? Promise.reject(new BodyTooLargeError(limit))
      : Promise.resolve(inTurn(buf.toString('utf8')));
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
    req.on('end', () =>
      resolve(inTurn((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'))),
    );
    req.on('error', () => reject(new BodyReadError()));
  });
}
