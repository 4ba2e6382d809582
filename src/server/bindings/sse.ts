/**
 * Server-Sent Events writer (§9.4.2, §11.7): one write per event, an `id:` on every event,
 * keep-alive comments on idle streams, and a bounded send buffer (`kernel/stream-buffer.ts`): a
 * client that falls too far behind is dropped with a last error event (Unavailable, reason
 * SLOW_READER), and its connection destroyed if it still does not drain. Transport-neutral: it
 * writes to the {@link StreamTarget} of whichever exchange carries the request.
 */
import type { A2AError } from '../../protocol/index.js';
import { StreamBuffer, slowReaderError, streamBufferBytes } from '../kernel/stream-buffer.js';
import type { HttpExchange, StreamTarget } from './exchange.js';
import type { StreamOpened } from './node-exchange.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';

export interface SseOptions {
  /** Interval of `: keep-alive` comments on an idle stream (ms); 0 disables. Default 15 000. */
  keepAliveMs?: number;
  /**
   * Bytes a slow client may leave unsent before the stream is dropped.
   * @deprecated Use the server's `maxStreamBufferBytes` (one bound for SSE and gRPC; default 4 MiB).
   */
  maxBufferedBytes?: number;
  /**
   * The bound in force, resolved from the server's `maxStreamBufferBytes`. Set by the agent server
   * itself, not an option.
   * @internal
   */
  maxStreamBufferBytes?: number;
  headers?: Record<string, string>;
  /** Told of every node:http stream as it opens (the response itself, for apps that watch their streams). */
  onOpen?: StreamOpened;
  /**
   * Registers every stream, whatever the exchange, so a draining server can tell it to go away. Set
   * by the agent server itself, not an option.
   * @internal
   */
  track?: (stream: OpenStream) => Untrack;
}

/** The comment a draining server ends its streams with; clients ignore comments and resume on the clean end. */
export const GOING_AWAY_COMMENT = ': going away; resubscribe with Last-Event-ID to continue\n\n';

/** Writes one SSE stream; made once the operation has produced a stream (the answer is then 200). */
export class SseWriter {
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #lastWrite = Date.now();
  readonly #buffer: StreamBuffer;
  /** Set while the slow-reader error goes out: it is written past the bound. */
  #dropping = false;
  #onSlowReader: ((err: A2AError) => void) | undefined;
  readonly #target: StreamTarget;
  #onClose: Array<() => void> | undefined;

  constructor(exchange: HttpExchange, opts: SseOptions = {}) {
    const max = streamBufferBytes({
      maxStreamBufferBytes: opts.maxStreamBufferBytes,
      'sse.maxBufferedBytes': opts.maxBufferedBytes,
    });
    this.#buffer = new StreamBuffer(max, {
      waiting: () => this.#target.buffered,
      drop: () => this.#dropSlowReader(),
      destroy: () => this.#target.abort(),
    });
    this.#target = exchange.openStream({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...opts.headers,
    });
    const every = opts.keepAliveMs ?? 15_000;
    if (every > 0) {
      const timer = setInterval(() => {
        if (Date.now() - this.#lastWrite >= every - 5) this.#raw(': keep-alive\n\n');
      }, every);
      // A keep-alive must not hold a node process open; Web hosts have no unref.
      (timer as { unref?: () => void }).unref?.();
      this.#timer = timer;
    }
    this.#target.onClose(() => this.#finish());
    if (opts.track) this.onClose(opts.track({ transport: 'sse', goAway: () => this.goAway() }));
  }

  /** The server is going away: a last comment, then a clean end (the client resumes with Last-Event-ID). */
  goAway(): void {
    this.#raw(GOING_AWAY_COMMENT);
    this.end();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Called once when the stream ends, whoever ended it. */
  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else (this.#onClose ??= []).push(fn);
  }

  /**
   * How this binding writes the error that ends a slow reader's stream (its error event); without
   * one the stream ends with a comment saying why.
   */
  onSlowReader(write: (err: A2AError) => void): void {
    this.#onSlowReader = write;
  }

  /** Send a comment (clients skip it; people reading the stream see it); `text` must be one line. */
  comment(text: string): void {
    this.#raw(`: ${text}\n\n`);
  }

  /** Send one event; `data` must be a single-line JSON text. `type` names the event (0.3 sends errors as `error` events). */
  event(data: string, id?: string, type?: string): void {
    const text = id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`;
    this.#raw(type === undefined ? text : `event: ${type}\n${text}`);
  }

  /**
   * Send one event whose `data:` line is `prefix`, `body` and `suffix`: `body` the bytes of a large
   * payload encoded once for all its readers (`kernel/encode-cache.ts`), written without a copy. The
   * three writes are admitted as one event (the shared bytes are what counts), so an event is never
   * cut in two by the slow-reader bound.
   */
  eventBytes(prefix: string, body: Uint8Array, suffix: string, id?: string): void {
    if (this.#closed) return;
    if (!this.#dropping && !this.#buffer.admit(body)) return;
    this.#lastWrite = Date.now();
    this.#target.write(id === undefined ? `data: ${prefix}` : `id: ${id}\ndata: ${prefix}`);
    this.#target.write(body);
    this.#target.write(`${suffix}\n\n`);
    if (!this.#dropping) this.#buffer.written();
  }

  #raw(chunk: string): void {
    if (this.#closed) return;
    if (!this.#dropping && !this.#buffer.admit(chunk)) return;
    this.#lastWrite = Date.now();
    this.#target.write(chunk);
    if (!this.#dropping) this.#buffer.written();
  }

  /** The reader fell too far behind: its last event says so, then the stream ends. */
  #dropSlowReader(): void {
    if (this.#closed) return;
    this.#dropping = true;
    const err = slowReaderError(this.#buffer.max);
    if (this.#onSlowReader) this.#onSlowReader(err);
    else this.comment(err.message);
    this.end();
  }

  /** End the stream after what was written so far. */
  end(): void {
    if (this.#closed) return;
    this.#target.end();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.ended();
    if (this.#timer) clearInterval(this.#timer);
    const fns = this.#onClose;
    this.#onClose = undefined;
    if (fns) for (const fn of fns) fn();
  }
}
