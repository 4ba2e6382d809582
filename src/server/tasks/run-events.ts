/**
 * The event side of a task run: numbers every event, hands it to the run's listeners in order, and,
 * once a stream has listened, keeps a short replay buffer so a stream that reconnects with
 * Last-Event-ID gets what it missed. Owned by one {@link TaskRun}; nothing else writes its state.
 */
import type { A2AError, StreamResponse } from '../../protocol/index.js';

/** Receives every event of a run, numbered, in order. */
export type RunListener = (event: StreamResponse, seq: number) => void;

/** Told when a run ends without a final event (its lease was lost): the listener's stream ends with `err`. */
export type RunEnd = (err: A2AError) => void;

const REPLAY_CAPACITY = 256;

/** A run's event numbering, listeners and replay buffer. */
export class RunEvents {
  #seq: number;
  // Made on first listen: most runs (unary calls) never have a listener.
  #listeners: Map<RunListener, RunEnd | undefined> | undefined;
  #hadStreams = false;
  /** Once a stream has listened, events are kept for Last-Event-ID replay. */
  #replay: Array<{ seq: number; event: StreamResponse }> | undefined;
  /** The event number just before the oldest buffered event (a client that saw it gets the whole buffer). */
  #replayFrom = 0;

  /**
   * @param numbers gives the next event number; numbers must never repeat for a task, also across its
   * runs (see RunHooks.nextSeq). Without it a run numbers its events 1, 2, 3…
   */
  constructor(private readonly numbers: { nextSeq?(): number }) {
    // The state the run starts from gets a number of its own: a Task snapshot sent before any event carries it.
    this.#seq = numbers.nextSeq?.() ?? 0;
  }

  /** The number of the latest event (or of the starting state). */
  get seq(): number {
    return this.#seq;
  }

  /** Whether a stream ever listened (then the run is kept a while for resumes). */
  get hadStreams(): boolean {
    return this.#hadStreams;
  }

  /** Whether anyone (a stream, a subscription) is listening. */
  get listening(): boolean {
    return this.#listeners !== undefined && this.#listeners.size > 0;
  }

  /** Subscribe; returns the unsubscribe function. A stream asks for a replay buffer for resumes. */
  listen(listener: RunListener, stream: boolean, end?: RunEnd): () => void {
    if (stream) {
      this.#hadStreams = true;
      if (!this.#replay) {
        this.#replay = [];
        this.#replayFrom = this.#seq;
      }
    }
    const map = (this.#listeners ??= new Map());
    map.set(listener, end);
    return () => void map.delete(listener);
  }

  /** Events after `seq`, or undefined when the buffer no longer reaches back that far. */
  eventsAfter(seq: number): Array<{ seq: number; event: StreamResponse }> | undefined {
    if (seq === this.#seq) return [];
    const buf = this.#replay;
    if (!buf) return undefined;
    if (seq === this.#replayFrom) return buf.slice();
    // Numbers are not consecutive (they are shared by all runs), so only an id we sent can be resumed from.
    const i = buf.findIndex((e) => e.seq === seq);
    return i < 0 ? undefined : buf.slice(i + 1);
  }

  /** Give the event its number and keep it for resumes; returns the number. */
  number(event: StreamResponse): number {
    const seq = (this.#seq = this.numbers.nextSeq?.() ?? this.#seq + 1);
    if (this.#replay) {
      this.#replay.push({ seq, event });
      if (this.#replay.length > REPLAY_CAPACITY) this.#replayFrom = this.#replay.shift()!.seq;
    }
    return seq;
  }

  /** Hand a numbered event to every listener. */
  deliver(event: StreamResponse, seq: number): void {
    if (this.#listeners) for (const l of this.#listeners.keys()) l(event, seq);
  }

  /** End every listener that asked to be told, with `err`; they hear nothing more from this run. */
  end(err: A2AError): void {
    const map = this.#listeners;
    if (!map) return;
    for (const [listener, end] of [...map]) {
      if (!end) continue;
      map.delete(listener);
      end(err);
    }
  }
}
