/**
 * The open streams of an agent server, whatever carries them (SSE over HTTP, server-streaming gRPC), in
 * one place, so that a drain can tell every one of them that the server is going away. Each transport
 * knows how to say it: SSE ends the response cleanly (the client resubscribes with Last-Event-ID), gRPC
 * ends the call with UNAVAILABLE (the client's cue to call again).
 */

/** One open stream, as the registry sees it. */
export interface OpenStream {
  /** What carries it, for the drain's counts. */
  readonly transport: 'sse' | 'grpc';
  /** Tell the client this server is going away and end the stream; the client resumes elsewhere. */
  goAway(): void;
}

/** Stops tracking a stream (called when it ends, whoever ended it). */
export type Untrack = () => void;

const noop: Untrack = () => undefined;

/** Registers streams as they open; {@link StreamRegistry.goAwayAll} ends them all at once. */
export class StreamRegistry {
  readonly #open = new Set<OpenStream>();
  #goingAway = false;

  /**
   * Track `stream` until the returned function is called. Once the server is going away, a stream that
   * still opens (a request already past the door) is told at once rather than left to be cut later.
   */
  readonly track = (stream: OpenStream): Untrack => {
    if (this.#goingAway) {
      stream.goAway();
      return noop;
    }
    this.#open.add(stream);
    return () => void this.#open.delete(stream);
  };

  /** Open streams now. */
  get size(): number {
    return this.#open.size;
  }

  /** Tell every open stream, and every later one, that the server is going away; counts by transport. */
  goAwayAll(): { sse: number; grpc: number } {
    this.#goingAway = true;
    const told = { sse: 0, grpc: 0 };
    const all = [...this.#open];
    this.#open.clear();
    for (const s of all) {
      told[s.transport]++;
      s.goAway();
    }
    return told;
  }
}
