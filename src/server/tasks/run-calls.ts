/**
 * The executor calls on one task run: at most one running (the agent has not returned), any number
 * following the task until it stops, the signal that aborts the agent, and when the last event
 * happened (for the idle limit). Owned by one {@link TaskRun}; nothing else writes its state.
 */
import type { A2AError, StreamResponse } from '../../protocol/index.js';
import { RESOLVED } from '../util/settled.js';

/** A call following the task (an Execution); an interface so the run does not depend on it. */
export interface RunWatcher {
  saw(event: StreamResponse): void;
  /** The run ended without a final event (lost to another instance): the call ends with `err`. */
  abandon(err: A2AError): void;
}

/** The calls of one run. */
export class RunCalls {
  #calling = false;
  #settled: Promise<void> = RESOLVED;
  // Almost every run has exactly one follower (its call): kept in a field, the rare others in a list.
  #watcher: RunWatcher | undefined;
  #others: RunWatcher[] | undefined;
  // Created on first use: most runs finish without anyone reading their signal.
  #abort: AbortController | undefined;
  #aborted = false;
  #abortReason: unknown;
  /** When the last event happened (ms since epoch), kept only while the idle limit watches the run. */
  #lastEventAt = 0;
  #idleWatched = false;

  constructor(private readonly taskId: string) {}

  /** True while an executor call has not returned. */
  get active(): boolean {
    return this.#calling;
  }

  /** Settles when the current executor call returns. */
  get settled(): Promise<void> {
    return this.#settled;
  }

  /** Whether a call (a waiting SendMessage, a message stream) still follows the task. */
  get followed(): boolean {
    return this.#watcher !== undefined;
  }

  /** When the last event happened (ms since epoch), once {@link watchIdle} was called. */
  get lastEventAt(): number {
    return this.#lastEventAt;
  }

  /** An executor call starts, followed by `watcher` until the task stops. Calls never overlap. */
  claim(watcher: RunWatcher): void {
    if (this.#calling)
      throw new Error(`task ${this.taskId} already has an executor call in progress`);
    this.#calling = true;
    if (this.#watcher === undefined) this.#watcher = watcher;
    else (this.#others ??= []).push(watcher);
  }

  /** The call's promise, for whoever waits for it to return (a follow-up must not overlap it). */
  calling(settled: Promise<void>): void {
    this.#settled = settled;
  }

  /** The executor call returned (or threw). */
  returned(): void {
    this.#calling = false;
  }

  /** A call stopped following the task. */
  unwatch(watcher: RunWatcher): void {
    const others = this.#others;
    if (this.#watcher === watcher) this.#watcher = others?.shift();
    else if (others) {
      const i = others.indexOf(watcher);
      if (i >= 0) others.splice(i, 1);
    }
  }

  /** From now on, remember when the last event happened (the idle limit watches the run). */
  watchIdle(): void {
    this.#idleWatched = true;
    this.#lastEventAt = Date.now();
  }

  /** Tell every following call of an event (a call that stops here unwatches itself). */
  saw(event: StreamResponse): void {
    if (this.#idleWatched) this.#lastEventAt = Date.now();
    const first = this.#watcher;
    if (first === undefined) return;
    // Copied first: a call that stops here unwatches itself while the others are told.
    const others = this.#others?.length ? this.#others.slice() : undefined;
    first.saw(event);
    if (others) for (const w of others) w.saw(event);
  }

  /** End every following call with `err`. */
  abandon(err: A2AError): void {
    const all = this.#watcher ? [this.#watcher, ...(this.#others ?? [])] : [];
    for (const w of all) w.abandon(err);
  }

  /** Aborted when the task is canceled, lost, or the server stops. */
  get signal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController();
      if (this.#aborted) this.#abort.abort(this.#abortReason);
    }
    return this.#abort.signal;
  }

  /** Abort the agent working on the run (a signal read later is already aborted). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#abort?.abort(reason);
  }
}
