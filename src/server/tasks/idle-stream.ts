/**
 * A bound on how long a stream may carry no task event (issue 25): a stream of a task that stays
 * WORKING is correct to stay open (§3.1.2, §3.1.6), but its keep-alive comments then defeat every
 * read timeout a client has, so an operator may end such streams after a quiet spell. The end is a
 * clean one (SSE: a last comment then the end of the response; gRPC: OK with a message saying why),
 * which every client reads as "the stream is over"; its last event shows the task was not finished,
 * and SubscribeToTask follows it again. Keep-alive comments never pass through here, so they do not
 * count as events.
 */
import type { EventStream, StreamSink } from './event-stream.js';

/** What an idle stream's end says, for the SSE comment and the gRPC status message. */
export function idleEndMessage(ms: number): string {
  return `No task event for ${ms} ms, so the server ended this stream; the task was not finished by then: call SubscribeToTask to follow it again`;
}

class IdleBoundedStream implements EventStream {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #done = false;

  constructor(
    private readonly inner: EventStream,
    private readonly ms: number,
  ) {}

  open(sink: StreamSink): void {
    const arm = (): void => {
      if (this.#timer) clearTimeout(this.#timer);
      if (this.#done) return;
      this.#timer = setTimeout(() => this.#idle(sink), this.ms);
      // A quiet stream must not hold a process open on its own.
      (this.#timer as { unref?: () => void }).unref?.();
    };
    arm();
    this.inner.open({
      event: (event, id) => {
        if (this.#done) return;
        sink.event(event, id);
        arm();
      },
      ...(sink.error ? { error: (err) => !this.#done && sink.error!(err) } : {}),
      end: () => {
        if (this.#stop()) sink.end();
      },
    });
  }

  #idle(sink: StreamSink): void {
    if (!this.#stop()) return;
    // Stop listening first: an event arriving now must not follow the end.
    this.inner.close();
    sink.idle?.(idleEndMessage(this.ms));
    sink.end();
  }

  /** Marks the stream done; false when it already was. */
  #stop(): boolean {
    if (this.#done) return false;
    this.#done = true;
    if (this.#timer) clearTimeout(this.#timer);
    return true;
  }

  close(): void {
    this.#stop();
    this.inner.close();
  }
}

/** `stream`, ended cleanly once it has carried no task event for `ms`; unchanged when `ms` is 0 or unset. */
export function idleBounded(stream: EventStream, ms: number | undefined): EventStream {
  return ms && ms > 0 ? new IdleBoundedStream(stream, ms) : stream;
}
