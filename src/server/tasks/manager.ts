/**
 * Runs executors and owns the live runs: starts a task for a new message, hands a follow-up to the
 * agent, cancels, and persists every event in order. Bindings never see it; the service calls it.
 * The run's own rules are in run.ts; executor calls in calls.ts; follow-ups in follow-ups.ts; what
 * changes with other instances in cluster.ts and lease-loss.ts.
 */
import { newId } from '../util/ids.js';
import {
  A2AError,
  isTerminal,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { Execution } from './execution.js';
import { DEFAULT_TASK_LIMITS, type TaskLimits } from './limits.js';
import { ownMessage } from './messages.js';
import type { Scope } from '../store/task-store.js';
import { TaskRun, type RunHooks, type RunListener } from './run.js';
import { readVersioned } from './reapply.js';
import { flushRun, saveRun } from './save.js';
import {
  adoptLostTask,
  recoverUnfinished,
  unleaseWhenStored,
  type ClusterHost,
} from './cluster.js';
import { leaseLost, leaseRetaken, recoverUnleased } from './lease-loss.js';
import { execute, type CallHost } from './calls.js';
import { continueTask, type FollowUpHost } from './follow-ups.js';
import { RunRegistry } from './registry.js';
import type { TaskEventObserver, TaskManagerOptions } from './options.js';

export type { StoreErrorHook, TaskEventObserver, TaskManagerOptions } from './options.js';

/** The task lifecycle of one agent: its runs, their executor calls, saves and events. */
export class TaskManager implements RunHooks, CallHost, FollowUpHost, ClusterHost {
  readonly #runs: RunRegistry;
  readonly #observers: TaskEventObserver[] = [];
  /**
   * Event numbers shared by every run, so a task's SSE ids keep growing across its runs. Starting from
   * the clock (µs) keeps them growing across restarts too, unless a process sustained 1000 events per ms.
   */
  #seq = Date.now() * 1000;

  readonly limits: Readonly<Required<TaskLimits>>;

  constructor(readonly options: TaskManagerOptions) {
    this.limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
    this.#runs = new RunRegistry(options);
  }

  /**
   * Connect the bus (if any), then settle tasks a previous process left running. With a bus the
   * leases do that instead: a task another live instance is running must not be failed by this one.
   */
  async start(): Promise<number> {
    const bus = this.options.bus;
    if (!bus) return this.recover();
    await bus.start({
      cancelLocal: (scope, id) => this.cancel(scope, id, true),
      orphaned: (scope, id) => this.adopt(scope, id),
      leaseLost: (scope, id) => leaseLost(this, scope, id),
      leaseRetaken: (scope, id) => leaseRetaken(this, scope, id),
      unleased: () => recoverUnleased(this),
    });
    return 0;
  }

  observe(observer: TaskEventObserver): void {
    this.#observers.push(observer);
  }

  /** The live run of a task, if one is in memory (with a bus: one that may be ahead of the store). */
  liveRun(scope: Scope, id: string): TaskRun | undefined {
    return this.#runs.live(scope, id);
  }

  /** The run kept here for a task, live or not. */
  keptRun(scope: Scope, id: string): TaskRun | undefined {
    return this.#runs.get(scope, id);
  }

  /** The run of a stored task (read at `version`), tracked so that later events reach its listeners. */
  attach(scope: Scope, task: Task, version?: number): TaskRun {
    const live = this.liveRun(scope, task.id);
    if (live) {
      live.saves.know(version);
      return live;
    }
    return this.#runs.track(new TaskRun(scope, task.id, task.contextId, this, task, version));
  }

  /**
   * Start (or continue) a task for an incoming message; `listener` sees every event from the first.
   * A new task starts synchronously (no promise to wait on); a follow-up may have to read the store.
   */
  send(
    req: SendMessageRequest,
    scope: Scope,
    cc: CallContext,
    listener?: RunListener,
    onCreated?: (run: TaskRun) => void,
  ): Execution | Promise<Execution> {
    this.options.bus?.check();
    const incoming = req.message;
    if (incoming.taskId)
      return continueTask(this, incoming.taskId, req, scope, cc, listener, onCreated);
    const run = this.#runs.track(new TaskRun(scope, newId(), incoming.contextId || newId(), this));
    if (onCreated) run.whenCreated(onCreated);
    return execute(this, run, ownMessage(incoming, run), req, cc, listener);
  }

  /**
   * A call stopped (its task reached a terminal or interrupted state, or there is nothing to follow),
   * which may be long after the agent returned: drop its listener and, once the agent is done, the run.
   */
  finished(exec: Execution): void {
    const run = exec.run;
    exec.unlisten?.();
    run.calls.unwatch(exec);
    if (!run.active) this.settle(run);
  }

  /** The agent returned and its call stopped: the lease goes once the task is stored, the run once unused. */
  settle(run: TaskRun): void {
    unleaseWhenStored(this, run);
    this.#runs.release(run);
  }

  /**
   * Cancel a task (§3.1.5): TaskNotFound, TaskNotCancelable when already terminal, else CANCELED now.
   * With a bus, a task running on another instance is canceled there (its executor's signal aborts)
   * and the answer is that instance's outcome; `local` is such a request arriving here.
   */
  async cancel(scope: Scope, id: string, local = false): Promise<Task> {
    const bus = this.options.bus;
    if (bus && !local && !this.liveRun(scope, id)?.busy) {
      bus.check(); // a task running here can still be canceled while the bus is down
      const remote = await bus.cancelRemote(scope, id);
      if (remote) return remote;
    }
    const live = this.liveRun(scope, id);
    const read = live ? undefined : await readVersioned(this.options.store, scope, id);
    const task = live?.task ?? read?.task;
    if (!task) throw A2AError.taskNotFound(id);
    if (isTerminal(task.status.state)) {
      throw new A2AError(
        'TaskNotCancelable',
        `Task ${id} is already ${task.status.state} and cannot be canceled`,
      );
    }
    const run = this.attach(scope, task, read?.version);
    run.setStatus('TASK_STATE_CANCELED');
    run.calls.abort(new A2AError('TaskNotCancelable', 'canceled'));
    this.#runs.release(run);
    await this.flush(run);
    return run.task!;
  }

  /**
   * Resolves when every change so far of this run has reached the store; rejects when the latest save
   * failed, so that a call never answers success for a task that was not stored.
   */
  flush(run: TaskRun): Promise<void> {
    return flushRun(run);
  }

  // RunHooks
  nextSeq(): number {
    // With a bus, a task's events may come from several instances over its life (follow-ups elsewhere):
    // keeping every instance's numbers near the clock keeps them unique per task.
    if (this.options.bus) return (this.#seq = Math.max(this.#seq + 1, Date.now() * 1000));
    return ++this.#seq;
  }

  onChange(run: TaskRun): void {
    this.#persist(run);
  }

  onEvent(run: TaskRun, event: StreamResponse, seq: number): void {
    // Published first: the bus sends from a microtask queued now, before the store write queued next.
    if (this.options.bus && run.task)
      this.options.bus.publish(run.scope, run.taskId, event, String(seq));
    if (!('task' in event)) this.#persist(run);
    for (const o of this.#observers) o(run.scope, run.task, event);
  }

  /**
   * Save the task after a change. Saves of one task never overlap; changes made before a save starts or
   * while one is in flight are coalesced into a single save of the latest state. The first save waits
   * one microtask, so an agent that works through its task synchronously is stored once, finished.
   */
  #persist(run: TaskRun): void {
    if (run.task && run.saves.changed()) run.saves.started(saveRun(run, this.options));
  }

  /** Stop tracking listeners for a run (used by streams when the client leaves). */
  detached(run: TaskRun): void {
    this.#runs.release(run);
  }

  /**
   * After a restart or a crash, tasks the previous process left SUBMITTED or WORKING have nobody working
   * on them. Each is failed with a status message that says so — or, with `recovery: 'resume'`, handed
   * to the executor again with its last user message. Returns how many tasks were recovered.
   */
  recover(): Promise<number> {
    return recoverUnfinished(this);
  }

  /** The runs whose executor is working now: what a draining server waits for. */
  running(): TaskRun[] {
    return [...this.#runs.all()].filter((r) => r.active);
  }

  /** Settles once every save in flight has (a draining server waits for it before closing the store). */
  async saved(): Promise<void> {
    await Promise.allSettled([...this.#runs.all()].flatMap((r) => r.saves.pending ?? []));
  }

  /** Another instance's lease on this task expired (that instance died): see {@link adoptLostTask}. */
  async adopt(scope: Scope, id: string): Promise<void> {
    await adoptLostTask(this, scope, id);
  }

  /** Whether a task nobody finished is run again (instead of failed). */
  get resumable(): boolean {
    return this.options.recovery === 'resume' || this.options.executor.resumable === true;
  }

  /** Run the executor again on a task nobody finished, as its own caller would have. */
  rerun(run: TaskRun, last: Message): void {
    const cc: CallContext = { requestedExtensions: [], activatedExtensions: new Set() };
    if (run.scope.owner) cc.caller = { id: run.scope.owner };
    const req = { message: last, ...(run.scope.tenant ? { tenant: run.scope.tenant } : {}) };
    execute(this, run, last, req, cc);
  }

  /** Abort every running executor (server shutdown). */
  abortAll(reason: string): void {
    for (const run of this.#runs.all()) if (run.active) run.calls.abort(new Error(reason));
  }
}
