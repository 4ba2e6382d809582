/**
 * One executor call on a task, as its caller waits on it: `first` settles with the first answer (the
 * task exists, or the agent replied), `done` when the task stops (terminal, interrupted, a reply) or the
 * agent returns. Promises are made only for whoever waits before that happens: a unary call to a
 * synchronous agent finds both already settled and allocates nothing.
 */
import { isInterrupted, isTerminal, type StreamResponse } from '../protocol/index.js';
import type { TaskRun } from './task-run.js';

const RESOLVED = Promise.resolve();

class Gate {
  opened = false;
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.#resolve?.();
  }

  wait(): Promise<void> {
    if (this.opened) return RESOLVED;
    return (this.#promise ??= new Promise<void>((r) => (this.#resolve = r)));
  }
}

export class Execution {
  readonly #first = new Gate();
  readonly #done = new Gate();

  constructor(readonly run: TaskRun) {
    // A follow-up's task already exists: returnImmediately must not wait for the agent's first update.
    if (run.task) this.#first.open();
  }

  get first(): Promise<void> {
    return this.#first.wait();
  }

  get done(): Promise<void> {
    return this.#done.wait();
  }

  /** Every event of the run while this call is in progress. */
  saw(event: StreamResponse): void {
    this.#first.open();
    if (stops(event)) this.#done.open();
  }

  /** The agent returned (or threw). */
  end(): void {
    this.#first.open();
    this.#done.open();
  }
}

/** Whether an event ends a wait: a direct message, or a terminal or interrupted status. */
export function stops(event: StreamResponse): boolean {
  if ('message' in event) return true;
  if ('statusUpdate' in event) {
    const s = event.statusUpdate.status.state;
    return isTerminal(s) || isInterrupted(s);
  }
  return false;
}
