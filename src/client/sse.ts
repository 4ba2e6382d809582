/**
 * Reading a `text/event-stream` response body into events, with a cap on any one event so a
 * misbehaving agent cannot make us buffer without bound. Parsing itself is `eventsource-parser`'s job.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { A2AClientError } from './errors.js';
import { isFetchFailure, toClientError } from './http.js';

/** A read that failed mid-body is a broken connection, not an unreachable agent. */
function lostConnection(err: unknown, opts: SseReadOptions): unknown {
  const mapped = toClientError(err, opts.what, opts.url);
  if (!isFetchFailure(err)) return mapped;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new A2AClientError(
    'NETWORK',
    `${opts.what}: the connection to ${opts.url} broke mid-stream (${cause?.code ?? cause?.message ?? err.message})`,
    { cause: err },
  );
}

export type SseEvent = EventSourceMessage;

export interface SseReadOptions {
  /** Largest single event (in characters of its raw lines) accepted. */
  maxEventBytes: number;
  /** Describes the call in error messages, e.g. "SubscribeToTask". */
  what: string;
  url: string;
  /**
   * Longest silence tolerated (no bytes at all, keep-alive comments included) before the
   * connection is considered dead. A half-open TCP connection never errors by itself.
   */
  idleTimeoutMs?: number | undefined;
}

/** True when the response says it is an event stream. */
export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/**
 * Yields the events of an SSE body in order. Stopping early (break/return) cancels the body, which
 * closes the connection. A broken connection surfaces as a `NETWORK` error.
 */
export async function* readSse(res: Response, opts: SseReadOptions): AsyncGenerator<SseEvent> {
  if (!res.body) return;
  const queue: SseEvent[] = [];
  let failure: Error | undefined;
  const tooLarge = () =>
    new A2AClientError(
      'RESPONSE_TOO_LARGE',
      `${opts.what}: a stream event from ${opts.url} exceeds the limit of ${opts.maxEventBytes} characters (raise maxEventBytes if this is expected)`,
    );
  // The parser's buffer cap bounds memory while an event is incomplete; an event that arrives
  // whole inside one chunk never fills that buffer, so its size is checked again here.
  const parser = createParser({
    maxBufferSize: opts.maxEventBytes,
    onEvent: (e) => {
      if (e.data.length > opts.maxEventBytes) failure ??= tooLarge();
      else if (!failure) queue.push(e);
    },
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') failure ??= tooLarge();
      // Unknown fields and bad `retry:` values are ignorable by the SSE rules.
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      let idle = false;
      const timer = opts.idleTimeoutMs
        ? setTimeout(() => {
            idle = true;
            void reader.cancel().catch(() => undefined);
          }, opts.idleTimeoutMs)
        : undefined;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw lostConnection(err, opts);
      } finally {
        clearTimeout(timer);
      }
      if (idle) {
        finished = true;
        throw new A2AClientError(
          'NETWORK',
          `${opts.what}: no data from ${opts.url} for ${opts.idleTimeoutMs} ms; the connection is presumed dead`,
        );
      }
      // An event cut off by the end of the body is dropped, as the SSE rules say.
      if (chunk.done) {
        parser.feed(decoder.decode());
      } else {
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      while (queue.length > 0) yield queue.shift() as SseEvent;
      if (failure) throw failure;
      if (chunk.done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
