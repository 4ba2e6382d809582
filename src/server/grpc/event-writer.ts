/**
 * Writes a task's event stream to a server-streaming call (§10.7). A cancelled call or a passed
 * deadline closes the event stream at once, so no subscriber is left behind; a reader that falls
 * behind by more than a bounded number of bytes has its stream ended with UNAVAILABLE (subscribe
 * again to continue: the new stream starts with the task's current state) instead of making the
 * server buffer without limit — the same bound the SSE writer keeps.
 */
import { Metadata, status as Status, type ServerWritableStream, type StatusObject } from '@grpc/grpc-js';
import type { StreamResponse } from '../../protocol/index.js';
import { encodeMessage } from '../../protocol/grpc/index.js';
import type { EventStream, StreamSink } from '../tasks/event-stream.js';
import type { Logger } from '../logger.js';
import type { GrpcCallContext } from './context.js';
import { extensionMetadata } from './errors.js';

/** Default bound on unsent bytes per stream: 8 MiB, as for SSE. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** The sink of one event stream: each event becomes one protobuf StreamResponse message on the call. */
export class GrpcEventWriter implements StreamSink {
  #pending = 0;
  #ended = false;
  readonly #max: number;
  readonly #onEnd: Array<() => void> = [];

  constructor(
    private readonly call: ServerWritableStream<Buffer, Buffer>,
    private readonly cc: GrpcCallContext,
    private readonly stream: EventStream,
    private readonly opts: { logger: Logger; maxBufferedBytes?: number | undefined },
  ) {
    this.#max = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    // Fired for a client cancel, a passed deadline, a broken connection — and after our own final status.
    call.once('cancelled', () => this.#finish());
    if (call.cancelled) {
      this.#finish();
      return;
    }
    // Headers go out now, as an SSE stream's do: the client knows the stream is open before the first event.
    call.sendMetadata(extensionMetadata(cc) ?? new Metadata());
  }

  /** Whether the call has ended, whoever ended it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Called once when the stream ends. */
  onEnd(fn: () => void): void {
    if (this.#ended) fn();
    else this.#onEnd.push(fn);
  }

  event(event: StreamResponse): void {
    if (this.#ended) return;
    let bytes: Buffer;
    try {
      bytes = encodeMessage('StreamResponse', event) as Buffer;
    } catch (err) {
      this.opts.logger.error({ err }, 'a stream event could not be encoded as protobuf');
      this.fail({ code: Status.INTERNAL, details: 'Internal error' });
      return;
    }
    const size = bytes.length;
    this.#pending += size;
    this.call.write(bytes, () => {
      this.#pending -= size;
    });
    if (this.#pending > this.#max) {
      this.fail({
        code: Status.UNAVAILABLE,
        details: `The stream was ended because the client read too slowly (over ${this.#max} bytes unsent); call SubscribeToTask to continue`,
      });
    }
  }

  /** The task stopped: end the call with OK. */
  end(): void {
    if (this.#ended) return;
    this.cc.finished = true;
    this.call.end();
    this.#finish();
  }

  /** End the call with a status (shutdown, slow reader, an event that cannot be sent). */
  fail(status: Partial<StatusObject>): void {
    if (this.#ended) return;
    this.cc.finished = true;
    if (!this.call.cancelled) this.call.emit('error', { metadata: new Metadata(), ...status });
    this.#finish();
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.stream.close();
    for (const fn of this.#onEnd.splice(0)) fn();
  }
}
