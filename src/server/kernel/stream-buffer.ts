/**
 * The bounded send buffer of one stream subscriber (SSE on any exchange, gRPC on node:http2 or
 * grpc-js): what a reader that does not keep up may cost the server. Every transport measures the
 * same thing — bytes handed to its socket (or Web stream) that the client has not taken yet — and
 * this module decides what happens to them:
 *
 * - one event always passes when nothing is waiting, even an event larger than the bound alone;
 * - an event that would take the waiting bytes past the bound is not sent: the subscriber is dropped
 *   with a clear end (an `Unavailable` error with ErrorInfo reason `SLOW_READER`, or gRPC
 *   RESOURCE_EXHAUSTED), written past the bound so a reader that comes back learns why;
 * - bytes still over the bound {@link SLOW_READER_GRACE_MS} after a write drop the subscriber too
 *   (an oversized lone event that is never read is no exception);
 * - a dropped subscriber whose socket has still not drained {@link SLOW_READER_GRACE_MS} later has
 *   its connection (gRPC: its stream) destroyed, so the memory is released whatever the client does.
 *
 * Nothing here buffers: a transport keeps writing to its own socket; this only says yes or no.
 */
import {
  A2AError,
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  SLOW_READER_REASON,
} from '../../protocol/index.js';
import { A2AConfigError } from './config-error.js';

/** Default bound on the bytes one stream subscriber may leave unread: 4 MiB. */
export const DEFAULT_MAX_STREAM_BUFFER_BYTES = 4 * 1024 * 1024;

/** How long a slow reader has, over the bound or after being dropped, before the next step. */
export const SLOW_READER_GRACE_MS = 10_000;

export { SLOW_READER_REASON };

/** A piece of a stream as a transport writes it: text (counted as UTF-8) or bytes. */
export type StreamChunk = string | Uint8Array;

/** The bytes `chunk` takes on the wire. */
export function chunkBytes(chunk: StreamChunk): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
}

/** Whether `chunk` fits beside `waiting` bytes within `max` (a string is measured only when it must be). */
function fits(waiting: number, chunk: StreamChunk, max: number): boolean {
  if (typeof chunk !== 'string') return waiting + chunk.byteLength <= max;
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit: most chunks are decided without scanning them.
  if (waiting + chunk.length > max) return false;
  if (waiting + chunk.length * 3 <= max) return true;
  return waiting + Buffer.byteLength(chunk) <= max;
}

/** The text that ends a slow reader's stream, on every transport. */
export function slowReaderMessage(max: number): string {
  return `The agent dropped this stream because the client read too slowly (more than ${max} bytes were waiting to be sent); read faster, or call SubscribeToTask again to continue from the task's current state`;
}

/** The error that ends a slow reader's SSE stream: Unavailable (-32012, HTTP 503) with reason SLOW_READER. */
export function slowReaderError(max: number): A2AError {
  return new A2AError('Unavailable', slowReaderMessage(max), [
    {
      '@type': ERROR_INFO_TYPE,
      reason: SLOW_READER_REASON,
      domain: KIT_ERROR_DOMAIN,
      metadata: { maxStreamBufferBytes: String(max) },
    },
  ]);
}

/**
 * The bound itself, checked when a server part is built: undefined (the default applies) or a
 * whole number of bytes ≥ 1024; anything else is an {@link A2AConfigError} naming `option`.
 */
export function checkStreamBufferBytes(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1024)
    throw new A2AConfigError(
      option,
      `${option} must be a whole number of bytes ≥ 1024 (the default is ${DEFAULT_MAX_STREAM_BUFFER_BYTES}), got ${typeof value === 'number' ? String(value) : typeof value}`,
    );
  return value;
}

/**
 * The bound a stream applies: the first of `values` that is set (the option, then a deprecated
 * alias), else the default. Each is checked as {@link checkStreamBufferBytes} does, under its name.
 */
export function streamBufferBytes(values: Record<string, unknown>): number {
  for (const [name, value] of Object.entries(values)) {
    const checked = checkStreamBufferBytes(name, value);
    if (checked !== undefined) return checked;
  }
  return DEFAULT_MAX_STREAM_BUFFER_BYTES;
}

/** What the bound needs from a transport's stream. */
export interface StreamOutlet {
  /** Bytes handed to the socket (or Web stream) that the client has not taken yet; 0 once it is gone. */
  waiting(): number;
  /** End the stream with its clear end (the slow-reader error or status), written past the bound. */
  drop(): void;
  /** Destroy the connection (gRPC: reset the stream): the unsent bytes are discarded. */
  destroy(): void;
}

/** Counters of every bounded stream of the process, for tests and operators. */
export interface StreamBufferStats {
  /** Subscribers whose buffer is watched now. */
  subscribers: number;
  /** Bytes those subscribers leave unread now. */
  waitingBytes: number;
  /** Subscribers dropped as slow readers since the process started. */
  dropped: number;
  /** Dropped subscribers whose connection was destroyed because it still had not drained. */
  destroyed: number;
}

const watched = new Set<StreamBuffer>();
let dropped = 0;
let destroyed = 0;

/**
 * The counters of every bounded stream in this process.
 * @internal
 */
export function streamBufferStats(): StreamBufferStats {
  let waitingBytes = 0;
  for (const b of watched) waitingBytes += b.waiting;
  return { subscribers: watched.size, waitingBytes, dropped, destroyed };
}

/** The send buffer of one subscriber: asked before every write, told when the stream is over. */
export class StreamBuffer {
  #state: 'open' | 'dropped' | 'done' = 'open';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The bound in bytes. */
    readonly max: number,
    private readonly outlet: StreamOutlet,
    private readonly graceMs = SLOW_READER_GRACE_MS,
  ) {
    watched.add(this);
  }

  /** Bytes this subscriber leaves unread now. */
  get waiting(): number {
    return this.outlet.waiting();
  }

  /** Whether the subscriber was dropped as a slow reader. */
  get dropped(): boolean {
    return this.#state === 'dropped';
  }

  /**
   * May `chunk` be written now? False when the subscriber is (or is now, because of this chunk)
   * dropped; the caller then writes nothing. After a true answer the caller writes, then calls
   * {@link written}.
   */
  admit(chunk: StreamChunk): boolean {
    if (this.#state !== 'open') return false;
    const waiting = this.outlet.waiting();
    if (waiting === 0 || fits(waiting, chunk, this.max)) return true;
    this.#drop();
    return false;
  }

  /** A chunk was written: if that left more than the bound waiting, the reader has the grace to take it. */
  written(): void {
    if (this.#state !== 'open' || this.#timer || this.outlet.waiting() <= this.max) return;
    this.#arm(() => {
      if (this.outlet.waiting() > this.max) this.#drop();
      else this.#release();
    });
  }

  /**
   * The stream ended (ours, or the client's). A dropped reader keeps its deadline; bytes still over
   * the bound keep theirs (a stream that ended cleanly is not left holding them for ever).
   */
  ended(): void {
    if (this.#state === 'open' && this.#timer === undefined) this.#release();
    else if (this.#state === 'open') this.#state = 'done';
  }

  #drop(): void {
    if (this.#state === 'dropped') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'dropped';
    dropped++;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (wasOpen) this.outlet.drop();
    this.#arm(() => {
      if (this.outlet.waiting() > 0) {
        destroyed++;
        this.outlet.destroy();
      }
      this.#release();
    });
  }

  #arm(fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timer = undefined;
      fn();
    }, this.graceMs);
    // A slow reader must not keep a process alive; Web hosts have no unref.
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  #release(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#state === 'open') this.#state = 'done';
    watched.delete(this);
  }
}
