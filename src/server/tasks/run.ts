/**
 * One task as this process runs it. Every field is private: the task manager and its helpers move a
 * run through the named transitions below, and these rules hold between any two of them:
 *
 * 1. **Content** — the task moves only along the state machine (state.ts); once it is terminal, or
 *    once the run is lost to another instance, nothing changes it (late updates are dropped).
 * 2. **Events** — every change is one event with a number that grows across all runs of the task,
 *    handed in order to the hooks (store, bus, push), then the listeners, then the calls following it.
 * 3. **Calls** — executor calls on one task never overlap (`calls.claim` refuses a second);
 *    a call follows the task until it stops, which may be long after the agent returned.
 * 4. **Saves** — one save in flight at a time; a change made meanwhile is saved after it; each save
 *    carries the version last read or written, and a lost race re-applies our change on the stored
 *    task ({@link TaskRun.rebase}), where another writer's terminal state wins.
 * 5. **Lease** — a run that can no longer prove it holds its task ends visibly
 *    ({@link TaskRun.lose}): whoever follows it here gets the stored state or an error, never silence.
 */
import {
  A2AError,
  isTerminal,
  type JsonObject,
  type Message,
  type StreamResponse,
  type Task,
  type TaskState,
} from '../../protocol/index.js';
import { newId } from '../util/ids.js';
import type { ArtifactInit } from '../agent/executor.js';
import type { TaskLimits } from './limits.js';
import type { Scope, VersionedTask } from '../store/task-store.js';
import { RunCalls } from './run-calls.js';
import { RunContent } from './run-content.js';
import { RunEvents, type RunEnd, type RunListener } from './run-events.js';
import { RunSaves } from './run-saves.js';

export type { RunListener, RunEnd } from './run-events.js';
export type { RunWatcher } from './run-calls.js';

/** What a run reports to its owner (the task manager). */
export interface RunHooks {
  /** Called for every event, after the task object was updated (persist, publish, push, …). */
  onEvent(run: TaskRun, event: StreamResponse, seq: number): void;
  /** The task changed without an event of its own (it was created, or a follow-up joined its history). */
  onChange(run: TaskRun): void;
  /**
   * The next event number. Numbers must never repeat for a task, also across runs of it (a follow-up
   * after the run was released, a restart): clients resume with Last-Event-ID and drop ids they saw.
   * Without it a run numbers its events 1, 2, 3…
   */
  nextSeq?(): number;
  /** Bounds on the task's content; none when absent. */
  readonly limits?: Readonly<Required<TaskLimits>>;
}

/** The live side of one task: its content, events, executor calls, saves and lease (see the module comment). */
export class TaskRun {
  readonly #content: RunContent;
  readonly #events: RunEvents;
  #onCreated: ((run: TaskRun) => void) | undefined;
  #lost: A2AError | undefined;
  /** The executor calls: the one running, the ones following the task, the abort signal. */
  readonly calls: RunCalls;
  /** Persistence bookkeeping: a change not yet saved, the save in flight, the version, the last error. */
  readonly saves: RunSaves<TaskRun | undefined>;

  /**
   * @param existing the stored task a run continues, with the version it was read at (undefined when
   * the store keeps none); without it the run is of a new task, whose first save is an insert.
   */
  constructor(
    readonly scope: Scope,
    readonly taskId: string,
    readonly contextId: string,
    readonly hooks: RunHooks,
    existing?: Task,
    version?: number,
  ) {
    this.#content = new RunContent(taskId, contextId, existing);
    this.#events = new RunEvents(hooks);
    this.calls = new RunCalls(taskId);
    this.saves = new RunSaves<TaskRun | undefined>(existing ? version : 0);
  }

  /** The task as it is now (undefined before the agent created it); read it, never change it. */
  get task(): Task | undefined {
    return this.#content.task;
  }

  get state(): TaskState | undefined {
    return this.#content.task?.status.state;
  }

  /** A direct Message reply (then there is no task). */
  get reply(): Message | undefined {
    return this.#content.reply;
  }

  /** Set when the executor failed before it created a task or replied. */
  get error(): A2AError | undefined {
    return this.#content.error;
  }

  /** The number of the latest event. */
  get seq(): number {
    return this.#events.seq;
  }

  /** Whether a stream ever listened (then the run is kept a while for resumes). */
  get hadStreams(): boolean {
    return this.#events.hadStreams;
  }

  /** Whether anyone (a stream, a subscription) is listening. */
  get listening(): boolean {
    return this.#events.listening;
  }

  /** True while an executor call on this task has not returned. */
  get active(): boolean {
    return this.calls.active;
  }

  /** Settles when the current executor call returns (what a draining server waits for). */
  get settled(): Promise<void> {
    return this.calls.settled;
  }

  /** Whether a call is running or following: the task is in this instance's hands. */
  get busy(): boolean {
    return this.calls.active || this.calls.followed;
  }

  /** With a bus: this instance no longer holds the task (see {@link lose}); the store is the truth. */
  get lost(): boolean {
    return this.#lost !== undefined;
  }

  /** Subscribe; returns the unsubscribe function. `end` is told when the run ends without a final event. */
  listen(listener: RunListener, stream = false, end?: RunEnd): () => void {
    return this.#events.listen(listener, stream, end);
  }

  /** Events after `seq`, or undefined when the replay buffer no longer reaches back that far. */
  eventsAfter(seq: number): Array<{ seq: number; event: StreamResponse }> | undefined {
    return this.#events.eventsAfter(seq);
  }

  #emit(event: StreamResponse): void {
    const seq = this.#events.number(event);
    // A lost run's events are for its own followers only: the store and the bus belong to another instance.
    if (this.#lost === undefined) this.hooks.onEvent(this, event, seq);
    this.#events.deliver(event, seq);
    this.calls.saw(event);
  }

  // ---- content (the state machine itself is in run-content.ts)

  /** Call `fn` once the task exists (now, if it does): inline push configs are registered there. */
  whenCreated(fn: (run: TaskRun) => void): void {
    if (this.#content.task) fn(this);
    else this.#onCreated = fn;
  }

  /** Create the task object (SUBMITTED) with the first message in its history. */
  create(first: Message): Task {
    const task = this.#content.create(first);
    if (!task) return this.#content.task!;
    this.hooks.onChange(this);
    const created = this.#onCreated;
    this.#onCreated = undefined;
    created?.(this);
    this.#emit({ task });
    return task;
  }

  /** Move the task to `state`; false when dropped (the task is terminal, or the run was lost). */
  setStatus(state: TaskState, message?: Message, metadata?: JsonObject): boolean {
    if (this.#lost) return false; // a late update after another instance took the task
    const event = this.#content.status(state, message, metadata);
    if (event) this.#emit(event);
    return event !== undefined;
  }

  /** Fail the task with a status message from the agent saying why (failed, stalled, instance lost). */
  failWith(text: string): void {
    this.setStatus('TASK_STATE_FAILED', {
      messageId: newId(),
      role: 'ROLE_AGENT',
      taskId: this.taskId,
      contextId: this.contextId,
      parts: [{ text }],
    });
  }

  /** Add an artifact (or a chunk of one); returns its id. Dropped when terminal or lost. */
  addArtifact(
    init: ArtifactInit,
    opts: { append?: boolean; lastChunk?: boolean; metadata?: JsonObject },
  ): string {
    if (this.#lost) return init.artifactId ?? '';
    const update = this.#content.artifact(init, opts, this.hooks.limits?.taskBytes);
    if (!update) return init.artifactId ?? '';
    this.#emit({ artifactUpdate: update });
    return update.artifact.artifactId;
  }

  /** The agent answers with one Message and no task. */
  answer(message: Message): void {
    this.#content.answer(message);
    this.#emit({ message });
  }

  /** The executor failed before it created a task or replied: the call answers with `err`. */
  failBeforeTask(err: A2AError): void {
    this.#content.failBeforeTask(err);
  }

  /**
   * Take a client's follow-up (already a copy with this task's ids) into the history. The limits are
   * checked first: a refused message leaves no trace.
   */
  accept(message: Message, limits: Readonly<Required<TaskLimits>>): void {
    this.#content.accept(message, limits);
    this.hooks.onChange(this);
  }

  // ---- saves, races and the lease

  /**
   * A save lost a race: `read` is the task as stored now. Returns true when our change, laid over it,
   * must be saved; false when the stored state stands — another writer finished the task, so its
   * outcome wins, our executor stops and whoever follows the task here learns the outcome.
   */
  rebase(read: VersionedTask | { task: Task; version: undefined }): boolean {
    const ours = this.#content.task!.status;
    const stored = read.task;
    this.saves.rebased(read.version);
    const finished = isTerminal(stored.status.state);
    this.#content.rebase(stored, finished);
    if (!finished) return true;
    this.calls.abort(
      new A2AError(
        'TaskNotCancelable',
        `Task ${this.taskId} was finished elsewhere (${stored.status.state})`,
      ),
    );
    // Listeners here (a stream, a waiting call) learn the real outcome; storing it again is harmless.
    if (!isTerminal(ours.state)) this.#emitStatus(stored);
    return false;
  }

  /**
   * This instance can no longer prove it runs the task: the executor is aborted and later updates are
   * dropped. With `stored` (the task as stored now, changed by someone else) followers here first see
   * its state; whoever still follows the task here then ends with `err`.
   */
  lose(err: A2AError, stored?: Task): void {
    if (this.#lost) return;
    this.#lost = err;
    this.calls.abort(err);
    const ours = this.#content.task?.status;
    if (stored && ours) {
      this.#content.rebase(stored, true);
      if (ours.state !== stored.status.state) this.#emitStatus(stored);
    }
    this.#events.end(err);
    this.calls.abandon(err);
  }

  #emitStatus(stored: Task): void {
    this.#emit({
      statusUpdate: { taskId: this.taskId, contextId: this.contextId, status: stored.status },
    });
  }
}
