/**
 * Writes a task's event stream to a server-streaming call on an HTTP/2 stream (§10.7). HTTP/2 flow
 * control is the back-pressure: the stream's unsent bytes are bounded as the SSE writer's are
 * (`kernel/stream-buffer.ts`); a reader that falls too far behind has its stream ended with
 * RESOURCE_EXHAUSTED (reason SLOW_READER; subscribe again to continue from the task's current
 * state), and reset if it still does not drain. A cancelled call or a passed deadline closes the
 * event stream at once, so no subscriber is left behind.
 */
import type { A2AError, StreamResponse } from '../../protocol/index.js';
import { GRPC_CODES, encodeGrpcMessage } from '../../protocol/grpc/index.js';
import type { EventStream } from '../tasks/event-stream.js';
import type { Logger } from '../logger.js';
import type { H2Call } from './h2-call.js';
import { errorHeaders, plainStatusHeaders } from './h2-wire.js';
import { GrpcStreamSink, encodeEvent } from '../kernel/grpc-stream.js';
import {
  DEFAULT_MAX_STREAM_BUFFER_BYTES,
  SLOW_READER_REASON,
  StreamBuffer,
  slowReaderMessage,
} from '../kernel/stream-buffer.js';

/** The sink of one event stream: each event becomes one StreamResponse message on the call. */
export class H2EventWriter extends GrpcStreamSink {
  #failure: Record<string, string> | undefined;
  readonly #buffer: StreamBuffer;

  constructor(
    private readonly call: H2Call,
    stream: EventStream,
    private readonly opts: { logger: Logger; maxStreamBufferBytes?: number | undefined },
  ) {
    super(stream);
    const max = opts.maxStreamBufferBytes ?? DEFAULT_MAX_STREAM_BUFFER_BYTES;
    this.#buffer = new StreamBuffer(max, {
      waiting: () => (call.gone ? 0 : call.stream.writableLength),
      drop: () =>
        this.fail(GRPC_CODES.RESOURCE_EXHAUSTED, slowReaderMessage(max), SLOW_READER_REASON),
      destroy: () => call.abort(),
    });
    // Ends for a client reset, a passed deadline, a broken connection — and after our own status.
    call.onEnd(() => {
      this.#buffer.ended();
      this.finish();
    });
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
    // write() buffers what flow control holds back; the bound decides whether it may.
    if (!this.#buffer.admit(bytes)) return;
    this.call.stream.write(bytes);
    this.#buffer.written();
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
    this.#buffer.ended();
    this.finish();
  }

  /** End the call with a status (shutdown, slow reader, an event that cannot be sent). */
  fail(code: number, message: string, reason: string): void {
    if (this.ended) return;
    this.call.status(plainStatusHeaders(code, message, reason));
    this.#buffer.ended();
    this.finish();
  }
}
