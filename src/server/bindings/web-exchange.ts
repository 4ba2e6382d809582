/**
 * The Web side of an {@link HttpExchange}: a `Request` in, one `Response` out (through
 * {@link WebExchange.response}). Uses only Web-standard APIs (streams, TextEncoder/Decoder,
 * AbortSignal), so it runs wherever `fetch`-style handlers do. A streamed answer is a
 * `ReadableStream` whose queue is what the client has not taken yet: the SSE writer watches it and
 * ends a stream that falls too far behind (the client resumes with Last-Event-ID). The stream closes
 * when the host cancels the body or the request's signal aborts (the client went away).
 */
import { readBoundedText } from '../../protocol/body.js';
import type { AuthRequest } from '../kernel/request.js';
import { inTurn } from '../kernel/heavy-turns.js';
import {
  BodyReadError,
  BodyTooLargeError,
  type AnswerBody,
  type HttpExchange,
  type StreamTarget,
} from './exchange.js';

const NULL_BODY = new Set([101, 204, 205, 304]);
// Connection management belongs to the host that serves the Response.
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade'];
const encoder = new TextEncoder();

/** One Web `Request` and the `Response` it gets. */
export class WebExchange implements HttpExchange {
  readonly method: string;
  /** Resolves once the answer's status and headers are known (a stream's body follows). */
  readonly response: Promise<Response>;
  #resolve!: (r: Response) => void;
  #answered = false;
  /** The answer is complete (replied, or the stream ended on our side): a later abort is not abandonment. */
  #complete = false;
  #gone = false;
  #abandoned: Array<() => void> | undefined;
  #watching = false;
  #stream: WebStream | undefined;

  constructor(
    readonly request: Request,
    /** Path and query (the host may have rewritten the path, e.g. below a prefix). */
    readonly url: string,
  ) {
    this.method = request.method.toUpperCase();
    this.response = new Promise<Response>((r) => (this.#resolve = r));
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  async readBody(limit: number): Promise<string> {
    let text: string | undefined;
    try {
      text = await readBoundedText(
        this.request.body,
        limit,
        this.request.headers.get('content-length'),
      );
    } catch {
      throw new BodyReadError(); // the host already read the body, or the peer broke it off
    }
    if (text === undefined) throw new BodyTooLargeError(limit);
    return inTurn(text);
  }

  authRequest(): AuthRequest {
    const headers: Record<string, string> = {};
    this.request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // What authenticators read: there is no socket, so a TLS client certificate is simply absent.
    return { method: this.method, url: this.url, headers };
  }

  get answered(): boolean {
    return this.#answered;
  }

  onAbandoned(fn: () => void): void {
    if (this.#gone) return fn();
    if (this.#complete) return;
    (this.#abandoned ??= []).push(fn);
    this.#watch();
  }

  reply(status: number, headers: Record<string, string>, body?: AnswerBody): void {
    if (this.#answered) return;
    this.#answered = this.#complete = true;
    const whole = Array.isArray(body) ? new Blob(body as BlobPart[]) : body;
    const payload = NULL_BODY.has(status) || whole === undefined ? null : (whole as BodyInit);
    this.#resolve(new Response(payload, { status, headers }));
  }

  openStream(headers: Record<string, string>): StreamTarget {
    const out = { ...headers };
    for (const h of HOP_BY_HOP) delete out[h];
    const stream = (this.#stream = new WebStream(this));
    this.#answered = true;
    this.#resolve(new Response(stream.body, { status: 200, headers: out }));
    this.#watch();
    return stream;
  }

  drop(): void {
    if (!this.#answered) {
      this.#answered = this.#complete = true;
      this.#resolve(new Response(null, { status: 500 }));
      return;
    }
    this.#stream?.fail();
  }

  /** Our side finished the stream. */
  completed(): void {
    this.#complete = true;
  }

  /** The client went away: the host cancelled the body or aborted the request. */
  gone(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#stream?.fail();
    if (this.#complete) return;
    const fns = this.#abandoned;
    this.#abandoned = undefined;
    if (fns) for (const fn of fns) fn();
  }

  /** Listen to the request's signal only when something cares: a stream, or an agent reading its signal. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const signal = this.request.signal as AbortSignal | undefined;
    if (!signal) return;
    if (signal.aborted) this.gone();
    else signal.addEventListener('abort', () => this.gone(), { once: true });
  }
}

/** A streamed body: text written in one synchronous burst is enqueued as one chunk. */
class WebStream implements StreamTarget {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #pending = '';
  #scheduled = false;
  #closed = false;
  #onClose: Array<() => void> | undefined;

  constructor(private readonly exchange: WebExchange) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.#controller = c;
        },
        cancel: () => exchange.gone(),
      },
      // Nothing is pulled ahead: every queued byte is one the client has not read yet.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
  }

  write(chunk: string | Uint8Array): void {
    if (this.#closed) return;
    if (typeof chunk !== 'string') {
      // Bytes (a large event encoded once for many readers) follow the text before them, uncopied.
      this.#flush();
      this.#controller.enqueue(chunk);
      return;
    }
    this.#pending += chunk;
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    if (this.#closed || this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    this.#controller.enqueue(encoder.encode(text));
  };

  get buffered(): number {
    const size = this.#controller.desiredSize;
    return this.#pending.length + (size !== null && size < 0 ? -size : 0);
  }

  end(): void {
    if (this.#closed) return;
    this.#flush();
    this.exchange.completed();
    this.#closed = true;
    this.#controller.close();
    this.#finish();
  }

  /** The stream is over without a proper end (the client left, or we failed after the head). */
  fail(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller.error(new Error('the stream was abandoned'));
    } catch {
      // the host already cancelled it
    }
    this.#finish();
  }

  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else (this.#onClose ??= []).push(fn);
  }

  /** Discard what the client has not taken, even after {@link end} (the host then drops the connection). */
  abort(): void {
    this.#pending = '';
    try {
      this.#controller.error(new Error('the client read too slowly'));
    } catch {
      // already errored or cancelled
    }
    this.#closed = true;
    this.#finish();
  }

  #finish(): void {
    const fns = this.#onClose;
    this.#onClose = undefined;
    if (fns) for (const fn of fns) fn();
  }
}
