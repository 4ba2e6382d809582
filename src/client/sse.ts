/**
 * Reading a `text/event-stream` response body into events, with a cap on any one event so a
 * misbehaving agent cannot make us buffer without bound. Parsing itself is `eventsource-parser`'s job.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { A2AClientError } from './errors.js';
import { toClientError } from './http.js';

export type SseEvent = EventSourceMessage;

export interface SseReadOptions {
  /** Largest single event (in characters of its raw lines) accepted. */
  maxEventBytes: number;
  /** Describes the call in error messages, e.g. "SubscribeToTask". */
  what: string;
  url: string;
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
  const parser = createParser({
    maxBufferSize: opts.maxEventBytes,
    onEvent: (e) => queue.push(e),
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') {
        failure = new A2AClientError(
          'RESPONSE_TOO_LARGE',
          `${opts.what}: a stream event from ${opts.url} exceeds the limit of ${opts.maxEventBytes} characters (raise maxEventBytes if this is expected)`,
        );
      }
      // Unknown fields and bad `retry:` values are ignorable by the SSE rules.
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw toClientError(err, `${opts.what} stream`, opts.url);
      }
      // An event cut off by the end of the body is dropped, as the SSE rules say.
      if (chunk.done) {
        parser.feed(decoder.decode());
      } else {
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      if (failure) throw failure;
      while (queue.length > 0) yield queue.shift() as SseEvent;
      if (chunk.done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
