/**
 * Writes a task's event stream to a server-streaming call of grpc-js (§10.7). A cancelled call or a passed
 * deadline closes the event stream at once, so no subscriber is left behind; a reader that falls
 * behind by more than a bounded number of bytes (`kernel/stream-buffer.ts`, the same bound the SSE
 * writer keeps) has its stream ended with RESOURCE_EXHAUSTED (reason SLOW_READER; subscribe again to
 * continue from the task's current state), and reset if it still does not drain, instead of making
 * the server buffer without limit.
 */
import type { ServerWritableStream, StatusObject } from '@grpc/grpc-js';
import { constants } from 'node:http2';
import { Metadata, status as Status } from './grpc.js';
import type { StreamResponse } from '../../protocol/index.js';
import type { EventStream } from '../tasks/event-stream.js';
import type { Logger } from '../logger.js';
import { GrpcStreamSink, encodeEvent } from '../kernel/grpc-stream.js';
import { STATUS_DETAILS_KEY, encodeStatus } from '../../protocol/grpc/index.js';
import { StreamBuffer, slowReaderError } from '../kernel/stream-buffer.js';
import type { GrpcCallContext } from './context.js';
import { extensionMetadata } from './errors.js';

const NGHTTP2_CANCEL = constants.NGHTTP2_CANCEL;

/** The sink of one event stream: each event becomes one protobuf StreamResponse message on the call. */
export class GrpcEventWriter extends GrpcStreamSink {
  /** Bytes given to grpc-js whose write has not completed (flushed to the HTTP/2 stream). */
  #pending = 0;
  #gone = false;
  readonly #buffer: StreamBuffer;

  constructor(
    private readonly call: ServerWritableStream<Buffer, Buffer>,
    private readonly cc: GrpcCallContext,
    stream: EventStream,
    private readonly opts: { logger: Logger; maxStreamBufferBytes: number },
  ) {
    super(stream);
    this.#buffer = new StreamBuffer(opts.maxStreamBufferBytes, {
      waiting: () => (this.#gone ? 0 : this.#pending),
      drop: () => this.fail(slowReaderStatus(cc, opts.maxStreamBufferBytes)),
      destroy: () => resetCall(call),
    });
    // Fired for a client cancel, a passed deadline, a broken connection — and after our own final status.
    call.once('cancelled', () => {
      this.#gone = true;
      this.#buffer.ended();
      this.finish();
    });
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
    if (!this.#buffer.admit(bytes)) return;
    const size = bytes.length;
    this.#pending += size;
    this.call.write(bytes, () => {
      this.#pending -= size;
    });
    this.#buffer.written();
  }

  /** The task stopped: end the call with OK. */
  end(): void {
    if (this.ended) return;
    this.cc.finished = true;
    this.call.end();
    this.#buffer.ended();
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
    this.#buffer.ended();
    this.finish();
  }
}

/** RESOURCE_EXHAUSTED for a reader that fell too far behind, with its ErrorInfo (reason SLOW_READER). */
function slowReaderStatus(cc: GrpcCallContext, max: number): Partial<StatusObject> {
  const err = slowReaderError(max);
  const metadata = extensionMetadata(cc) ?? new Metadata();
  const code = Status.RESOURCE_EXHAUSTED;
  metadata.set(
    STATUS_DETAILS_KEY,
    Buffer.from(encodeStatus({ code, message: err.message, details: err.details })),
  );
  return { code, details: err.message, metadata };
}

/**
 * Reset the HTTP/2 stream under a grpc-js call (RST_STREAM CANCEL), discarding what it has not sent.
 * grpc-js has no public way to do this; its call objects chain to the one that holds the stream.
 * Where that shape is not found, the call's own writable side is destroyed instead.
 */
function resetCall(call: ServerWritableStream<Buffer, Buffer>): void {
  let link = (call as unknown as { call?: Record<string, unknown> }).call;
  for (let i = 0; link && !link['stream'] && i < 16; i++)
    link = link['nextCall'] as Record<string, unknown> | undefined;
  const h2 = link?.['stream'] as
    { close?: (code: number) => void; destroyed?: boolean } | undefined;
  if (h2 && typeof h2.close === 'function') {
    if (!h2.destroyed) h2.close(NGHTTP2_CANCEL);
  } else call.destroy();
}
