/**
 * One executor call on a task, as its caller waits on it: `first` settles with the first answer (the
 * task exists, or the agent replied), `done` when the task stops — terminal, interrupted, or a direct
 * reply (§3.2.2, §3.1.2). The agent returning does not end the call: an agent may hand its updater to a
 * queue and finish later. Promises are made only for whoever waits before that happens: a unary call to
 * a synchronous agent finds both already settled and allocates nothing.
 */
import {
  type A2AError,
  isTerminalOrInterrupted,
  type StreamResponse,
} from '../../protocol/index.js';
import { RESOLVED } from '../util/settled.js';
import type { RunWatcher, TaskRun } from './run.js';

/** Who tidies up after a call stops (the task manager): no closure per call. */
export interface ExecutionOwner {
  finished(exec: Execution): void;
}

export class Execution implements RunWatcher {
  // Two one-shot gates, kept as plain fields: a promise is made only for a wait that starts before its gate opens.
  #answered = false;
  #finished = false;
  #first: Promise<void> | undefined;
  #openFirst: (() => void) | undefined;
  #done: Promise<void> | undefined;
  #openDone: (() => void) | undefined;
  #failure: A2AError | undefined;

  constructor(
    readonly run: TaskRun,
    private readonly owner: ExecutionOwner,
  ) {
    // A follow-up's task already exists: returnImmediately must not wait for the agent's first update.
    if (run.task) this.#answered = true;
  }

  /** Whether the first answer exists (so `first` is settled). */
  get answered(): boolean {
    return this.#answered;
  }

  /** Whether the call has stopped (so `done` is settled). */
  get finished(): boolean {
    return this.#finished;
  }

  get first(): Promise<void> {
    if (this.#answered) return RESOLVED;
    return (this.#first ??= new Promise<void>((r) => (this.#openFirst = r)));
  }

  get done(): Promise<void> {
    if (this.#finished) return RESOLVED;
    return (this.#done ??= new Promise<void>((r) => (this.#openDone = r)));
  }

  /** Set when the call ended without the task stopping (the run was lost to another instance). */
  get failure(): A2AError | undefined {
    return this.#failure;
  }

  /** Every event of the run while this call is in progress. */
  saw(event: StreamResponse): void {
    this.#seeFirst();
    if (stops(event)) this.#finish();
  }

  /** The run was lost: the call ends now, with `err` for whoever waits on it. */
  abandon(err: A2AError): void {
    this.#failure ??= err;
    this.#seeFirst();
    this.#finish();
  }

  /** Unsubscribes the stream listener this call added, if any; called when the call stops. */
  unlisten: (() => void) | undefined = undefined;

  /**
   * The agent returned (or threw, after the manager failed the task). The call ends now only if there
   * is nothing left to follow: a reply, no task, or a task that already stopped.
   */
  returned(): void {
    this.#seeFirst();
    const { task, reply } = this.run;
    if (reply || !task || isTerminalOrInterrupted(task.status.state)) this.#finish();
  }

  #seeFirst(): void {
    if (this.#answered) return;
    this.#answered = true;
    this.#openFirst?.();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#openDone?.();
    this.owner.finished(this);
  }
}

/** Whether an event ends a wait: a direct message, or a terminal or interrupted status. */
export function stops(event: StreamResponse): boolean {
  if ('message' in event) return true;
  if ('statusUpdate' in event) return isTerminalOrInterrupted(event.statusUpdate.status.state);
  return false;
}
