/**
 * In-memory stand-ins for node's IncomingMessage and ServerResponse, so the node:http listener
 * (and so every binding, unchanged) can answer a Web `Request` with a Web `Response`. They cover
 * what the bindings use; a streamed answer (SSE) becomes a Response whose body is a ReadableStream.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';

/** The request side: headers, method, path and the body as a readable stream. */
export class FetchIncomingMessage extends Readable {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string> = {};
  readonly httpVersion = '1.1';
  complete = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(request: Request, pathAndQuery: string) {
    super();
    this.method = request.method.toUpperCase();
    this.url = pathAndQuery;
    request.headers.forEach((value, name) => {
      this.headers[name] = value;
    });
    this.#reader = request.body?.getReader();
  }

  override _read(): void {
    const reader = this.#reader;
    if (!reader) {
      this.complete = true;
      this.push(null);
      return;
    }
    reader.read().then(
      ({ done, value }) => {
        if (done) {
          this.complete = true;
          this.push(null);
        } else {
          this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        }
      },
      (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
    );
  }
}

type HeaderValue = string | string[];
const NULL_BODY = new Set([101, 204, 205, 304]);
// Connection management belongs to the host that serves the Response.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/** The response side: collects status and headers, then resolves one Web Response. */
export class FetchServerResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  readonly #headers = new Map<string, HeaderValue>();
  readonly #resolve: (r: Response) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #committed = false;
  #gone = false;

  constructor(resolve: (r: Response) => void) {
    super();
    this.#resolve = resolve;
  }

  setHeader(name: string, value: HeaderValue | number): this {
    this.#headers.set(name.toLowerCase(), typeof value === 'number' ? String(value) : value);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.#headers.get(name.toLowerCase());
  }

  hasHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.#headers.delete(name.toLowerCase());
  }

  getHeaders(): Record<string, HeaderValue> {
    return Object.fromEntries(this.#headers);
  }

  writeHead(status: number, reasonOrHeaders?: string | Record<string, HeaderValue | number>, more?: Record<string, HeaderValue | number>): this {
    this.statusCode = status;
    const headers = typeof reasonOrHeaders === 'object' ? reasonOrHeaders : more;
    if (typeof reasonOrHeaders === 'string') this.statusMessage = reasonOrHeaders;
    for (const [k, v] of Object.entries(headers ?? {})) this.setHeader(k, v);
    this.headersSent = true;
    return this;
  }

  /** Writes already go straight into the body stream; corking has nothing to batch here. */
  cork(): void {}
  uncork(): void {}

  /** Like ServerResponse: true once the whole answer was handed over. */
  get writableFinished(): boolean {
    return this.writableEnded && !this.#gone;
  }

  /** Like ServerResponse: true once the answer is over, one way or the other. */
  get closed(): boolean {
    return this.writableEnded || this.destroyed;
  }

  /** Commit status and headers now: the answer is a stream (SSE). */
  flushHeaders(): void {
    this.#commitStream();
  }

  /** Bytes written but not yet taken by the host: what SseWriter's slow-client cap watches. */
  get writableLength(): number {
    const size = this.#controller?.desiredSize;
    return typeof size === 'number' && size < 0 ? -size : 0;
  }

  write(chunk: string | Uint8Array, encodingOrCb?: BufferEncoding | (() => void), cb?: () => void): boolean {
    if (this.writableEnded || this.#gone) return false;
    this.#commitStream();
    this.#controller!.enqueue(toBytes(chunk, typeof encodingOrCb === 'string' ? encodingOrCb : undefined));
    const done = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    done?.();
    return this.writableLength === 0;
  }

  end(chunk?: string | Uint8Array | (() => void), encodingOrCb?: BufferEncoding | (() => void), cb?: () => void): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.headersSent = true;
    const data = typeof chunk === 'function' ? undefined : chunk;
    const bytes = data === undefined ? undefined : toBytes(data, typeof encodingOrCb === 'string' ? encodingOrCb : undefined);
    if (!this.#committed) {
      this.#committed = true;
      const body = NULL_BODY.has(this.statusCode) || !bytes ? null : (bytes as Uint8Array<ArrayBuffer>);
      this.#resolve(new Response(body, { status: this.statusCode, headers: this.#webHeaders() }));
    } else if (!this.#gone) {
      if (bytes && bytes.length > 0) this.#controller!.enqueue(bytes);
      this.#controller!.close();
    }
    const done = [chunk, encodingOrCb, cb].find((f): f is () => void => typeof f === 'function');
    setImmediate(() => {
      done?.();
      this.emit('finish');
      this.emit('close');
    });
    return this;
  }

  /** The connection is gone (the host cancelled the body or aborted the request). */
  destroy(err?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#gone = true;
    if (!this.#committed) {
      this.#committed = true;
      this.#resolve(new Response(null, { status: 500 }));
    } else if (!this.writableEnded) {
      try {
        this.#controller?.error(err ?? new Error('the response was destroyed'));
      } catch {
        // already closed by the host
      }
    }
    this.writableEnded = true;
    setImmediate(() => this.emit('close'));
    return this;
  }

  /** The client went away: behave as a closed socket would. */
  clientGone(): void {
    if (this.writableEnded) return;
    this.destroy();
  }

  #commitStream(): void {
    if (this.#committed) return;
    this.#committed = true;
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.#controller = c;
        },
        pull: () => {
          this.emit('drain');
        },
        cancel: () => {
          this.#gone = true;
          this.clientGone();
        },
      },
      { highWaterMark: 0, size: (c) => c.byteLength },
    );
    this.#resolve(new Response(body, { status: this.statusCode, headers: this.#webHeaders() }));
  }

  #webHeaders(): Headers {
    const h = new Headers();
    for (const [k, v] of this.#headers) {
      if (HOP_BY_HOP.has(k)) continue;
      if (Array.isArray(v)) for (const one of v) h.append(k, one);
      else h.set(k, v);
    }
    return h;
  }
}

function toBytes(chunk: string | Uint8Array, encoding?: BufferEncoding): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk;
}
