/**
 * Writes a task's event stream to a server-streaming call on an HTTP/2 stream (§10.7). HTTP/2 flow
 * control is the back-pressure: once `write()` reports a full buffer, the unsent bytes are counted,
 * and a reader that falls behind by more than the bound has its stream ended with UNAVAILABLE
 * (subscribe again to continue: the new stream starts with the task's current state) — memory per
 * stream stays bounded, the same bound the SSE writer keeps. A cancelled call or a passed deadline
 * closes the event stream at once, so no subscriber is left behind.
 */
import type { A2AError, StreamResponse } from '../../protocol/index.js';
import { GRPC_CODES, encodeGrpcMessage } from '../../protocol/grpc/index.js';
import type { EventStream } from '../tasks/event-stream.js';
import type { Logger } from '../logger.js';
import type { H2Call } from './h2-call.js';
import { errorHeaders, plainStatusHeaders } from './h2-wire.js';
import {
  DEFAULT_MAX_BUFFERED_BYTES,
  GrpcStreamSink,
  encodeEvent,
  slowReaderMessage,
} from '../kernel/grpc-stream.js';

/** The sink of one event stream: each event becomes one StreamResponse message on the call. */
export class H2EventWriter extends GrpcStreamSink {
  #failure: Record<string, string> | undefined;
  readonly #max: number;

  constructor(
    private readonly call: H2Call,
    stream: EventStream,
    private readonly opts: { logger: Logger; maxBufferedBytes?: number | undefined },
  ) {
    super(stream);
    this.#max = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    // Ends for a client reset, a passed deadline, a broken connection — and after our own status.
    call.onEnd(() => this.finish());
    if (call.cancelled || call.gone) {
      this.finish();
      return;
    }
    // Headers go out now, as an SSE stream's do: the client knows the stream is open before the first event.
    call.respond();
  }

  event(event: StreamResponse): void {
    if (this.ended || this.call.finished) return;
    const bytes = encodeEvent(event, this.opts.logger, true);
    if (!bytes) {
      this.fail(GRPC_CODES.INTERNAL, 'Internal error', 'INTERNAL');
      return;
    }
    const s = this.call.stream;
    // write() buffers what flow control holds back; writableLength is what is still unsent.
    if (!s.write(bytes) && s.writableLength > this.#max) {
      this.fail(GRPC_CODES.UNAVAILABLE, slowReaderMessage(this.#max), 'SLOW_READER');
    }
  }

  /** The stream failed after it started: its status goes out when it ends. */
  error(err: A2AError): void {
    this.#failure ??= errorHeaders(err);
  }

  /** The stream carried no event for too long: it ends with OK, its message saying why. */
  idle(message: string): void {
    this.#failure ??= { 'grpc-status': '0', 'grpc-message': encodeGrpcMessage(message) };
  }

  /** The task stopped: end the call with OK (or the failure the stream reported). */
  end(): void {
    if (this.ended) return;
    this.call.status(this.#failure ?? { 'grpc-status': '0' });
    this.finish();
  }

  /** End the call with a status (shutdown, slow reader, an event that cannot be sent). */
  fail(code: number, message: string, reason: string): void {
    if (this.ended) return;
    this.call.status(plainStatusHeaders(code, message, reason));
    this.finish();
  }
}
