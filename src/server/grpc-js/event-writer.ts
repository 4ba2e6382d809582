/**
 * Writes a task's event stream to a server-streaming call of grpc-js (§10.7). A cancelled call or a passed
 * deadline closes the event stream at once, so no subscriber is left behind; a reader that falls
 * behind by more than a bounded number of bytes has its stream ended with UNAVAILABLE (subscribe
 * again to continue: the new stream starts with the task's current state) instead of making the
 * server buffer without limit — the same bound the SSE writer keeps.
 */
import type { ServerWritableStream, StatusObject } from '@grpc/grpc-js';
import { Metadata, status as Status } from './grpc.js';
import type { StreamResponse } from '../../protocol/index.js';
import type { EventStream } from '../tasks/event-stream.js';
import type { Logger } from '../logger.js';
import {
  DEFAULT_MAX_BUFFERED_BYTES,
  GrpcStreamSink,
  encodeEvent,
  slowReaderMessage,
} from '../kernel/grpc-stream.js';
import type { GrpcCallContext } from './context.js';
import { extensionMetadata } from './errors.js';

/** The sink of one event stream: each event becomes one protobuf StreamResponse message on the call. */
export class GrpcEventWriter extends GrpcStreamSink {
  #pending = 0;
  readonly #max: number;

  constructor(
    private readonly call: ServerWritableStream<Buffer, Buffer>,
    private readonly cc: GrpcCallContext,
    stream: EventStream,
    private readonly opts: { logger: Logger; maxBufferedBytes?: number | undefined },
  ) {
    super(stream);
    this.#max = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    // Fired for a client cancel, a passed deadline, a broken connection — and after our own final status.
    call.once('cancelled', () => this.finish());
    if (call.cancelled) {
      this.finish();
      return;
    }
    // Headers go out now, as an SSE stream's do: the client knows the stream is open before the first event.
    call.sendMetadata(extensionMetadata(cc) ?? new Metadata());
  }

  event(event: StreamResponse): void {
    if (this.ended) return;
    const bytes = encodeEvent(event, this.opts.logger);
    if (!bytes) {
      this.fail({ code: Status.INTERNAL, details: 'Internal error' });
      return;
    }
    const size = bytes.length;
    this.#pending += size;
    this.call.write(bytes, () => {
      this.#pending -= size;
    });
    if (this.#pending > this.#max)
      this.fail({ code: Status.UNAVAILABLE, details: slowReaderMessage(this.#max) });
  }

  /** The task stopped: end the call with OK. */
  end(): void {
    if (this.ended) return;
    this.cc.finished = true;
    this.call.end();
    this.finish();
  }

  /** The server is going away: end with UNAVAILABLE, which clients answer by subscribing again. */
  goAway(): void {
    this.fail({
      code: Status.UNAVAILABLE,
      details: 'The agent is shutting down; subscribe again to continue',
    });
  }

  /** End the call with a status (shutdown, slow reader, an event that cannot be sent). */
  fail(status: Partial<StatusObject>): void {
    if (this.ended) return;
    this.cc.finished = true;
    if (!this.call.cancelled) this.call.emit('error', { metadata: new Metadata(), ...status });
    this.finish();
  }
}
