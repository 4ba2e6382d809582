/**
 * Server-Sent Events writer (§9.4.2, §11.7): one write per event, an `id:` on every event,
 * keep-alive comments on idle streams, and a cap on what a slow client may leave buffered
 * (past it the stream ends; the client resumes with Last-Event-ID).
 */
import type { ServerResponse } from 'node:http';

export interface SseOptions {
  /** Interval of `: keep-alive` comments on an idle stream (ms); 0 disables. Default 15 000. */
  keepAliveMs?: number;
  /** Bytes a slow client may leave unsent before the stream is closed. Default 8 MiB. */
  maxBufferedBytes?: number;
  headers?: Record<string, string>;
  /** Told of every stream as it opens (a server uses it to end open streams when it closes). */
  onOpen?: (res: ServerResponse) => void;
}

export class SseWriter {
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #lastWrite = Date.now();
  readonly #max: number;
  readonly #onClose: Array<() => void> = [];

  constructor(
    private readonly res: ServerResponse,
    opts: SseOptions = {},
  ) {
    this.#max = opts.maxBufferedBytes ?? 8 * 1024 * 1024;
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...opts.headers,
    };
    res.writeHead(200, headers);
    res.flushHeaders();
    opts.onOpen?.(res);
    const every = opts.keepAliveMs ?? 15_000;
    if (every > 0) {
      this.#timer = setInterval(() => {
        if (Date.now() - this.#lastWrite >= every - 5) this.#raw(': keep-alive\n\n');
      }, every);
      this.#timer.unref();
    }
    res.on('close', () => this.#finish());
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Called once when the stream ends, whoever ended it. */
  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.push(fn);
  }

  /** Send one event; `data` must be a single-line JSON text. */
  event(data: string, id?: string): void {
    this.#raw(id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`);
  }

  #raw(chunk: string): void {
    if (this.#closed) return;
    this.#lastWrite = Date.now();
    // Events an agent emits in one burst leave in one socket write: cork now, uncork after this tick.
    if (!this.#corked) {
      this.#corked = true;
      this.res.cork();
      process.nextTick(this.#uncork);
    }
    this.res.write(chunk);
    if (this.res.writableLength > this.#max) this.end();
  }

  #corked = false;
  readonly #uncork = (): void => {
    this.#corked = false;
    this.res.uncork();
  };

  end(): void {
    if (this.#closed) return;
    if (this.#corked) this.#uncork();
    this.res.end();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    for (const fn of this.#onClose.splice(0)) fn();
  }
}
