/**
 * What both gRPC event writers — the node:http2 one of `serveGrpc` and the grpc-js one of
 * `grpcHandlers` — share about sending a task's events: one event as protobuf bytes, and how a
 * stream ends (once, whoever ends it). The bound on unsent bytes is `stream-buffer.ts`'s.
 */
import type { StreamResponse } from '../../protocol/index.js';
import { encodeFramed, encodeMessage } from '../../protocol/grpc/index.js';
import type { Logger } from '../logger.js';
import { keepEventProto, keptEventProto } from './encode-cache.js';
import type { EventStream, StreamSink } from '../tasks/event-stream.js';

/**
 * `event` as the bytes of one StreamResponse message (`framed`: with the gRPC length prefix, ready for
 * the wire), or undefined when it cannot be encoded (logged here; the writer then ends the stream with
 * INTERNAL, since the client could not read the event). A large event is encoded once for all the
 * streams that send it (`encode-cache.ts`).
 */
export function encodeEvent(
  event: StreamResponse,
  logger: Logger,
  framed = false,
): Buffer | undefined {
  const kept = keptEventProto(event, framed);
  if (kept) return kept;
  try {
    const bytes = framed
      ? encodeFramed('StreamResponse', event)
      : encodeMessage('StreamResponse', event);
    return keepEventProto(event, framed, bytes);
  } catch (err) {
    logger.error({ err }, 'a stream event could not be encoded as protobuf');
    return undefined;
  }
}

/**
 * The end of a gRPC event writer: it happens once, whether the client, a deadline, the server or the
 * task ends the call; the event stream is then closed at once, so no subscriber is left behind.
 */
export abstract class GrpcStreamSink implements StreamSink {
  #ended = false;
  readonly #onEnd: Array<() => void> = [];

  protected constructor(private readonly stream: EventStream) {}

  /** Whether the call has ended, whoever ended it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Called once when the stream ends. */
  onEnd(fn: () => void): void {
    if (this.#ended) fn();
    else this.#onEnd.push(fn);
  }

  abstract event(event: StreamResponse, id: string): void;
  abstract end(): void;

  /** Mark the call ended (after the writer sent its status, or saw the call go away). */
  protected finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.stream.close();
    for (const fn of this.#onEnd.splice(0)) fn();
  }
}
