/**
 * Runs executors and owns the live runs: starts a task for a new message, resumes an interrupted
 * one, cancels, and persists every event in order. Bindings never see it; the service calls it.
 */
import { newId } from '../util/ids.js';
import {
  A2AError,
  isInterrupted,
  isTerminal,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import { Execution, stopsAt } from './execution.js';
import { RESOLVED } from '../util/settled.js';
import { RunContext, RunUpdater } from './updater.js';
import {
  DEFAULT_TASK_LIMITS,
  contentSize,
  refuseFollowUp,
  sizeOfMessage,
  type TaskLimits,
} from './limits.js';
import { failWithNote, ownMessage, refuseTerminal } from './messages.js';
import { taskKey, type Scope } from '../store/task-store.js';
import { TaskRun, type RunListener } from './run.js';
import { readVersioned } from './reapply.js';
import { saveRun, throwIfUnsaved, saveFailure } from './save.js';
import { adoptLostTask, leaseFollowUp, recoverUnfinished, unleaseWhenStored } from './cluster.js';
import type { TaskEventObserver, TaskManagerOptions } from './options.js';
import { warnIfLeftUnfinished } from './unfinished.js';

export type { StoreErrorHook, TaskEventObserver, TaskManagerOptions } from './options.js';

export class TaskManager {
  readonly #runs = new Map<string, TaskRun>();
  /** Finished runs kept for Last-Event-ID resumes, oldest first. */
  readonly #retained = new Map<string, { run: TaskRun; until: number }>();
  readonly #observers: TaskEventObserver[] = [];
  /**
   * Event numbers shared by every run, so a task's SSE ids keep growing across its runs. Starting from
   * the clock (µs) keeps them growing across restarts too, unless a process sustained 1000 events per ms.
   */
  #seq = Date.now() * 1000;

  readonly limits: Readonly<Required<TaskLimits>>;

  constructor(readonly options: TaskManagerOptions) {
    this.limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
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
      // Another instance owns the task now: stop the executor here, and answer from the store.
      leaseLost: (scope, id) => {
        const run = this.liveRun(scope, id);
        if (!run) return;
        run.lost = true;
        run.abortRun(new A2AError('Unavailable', 'This instance lost the task to another one'));
      },
    });
    return 0;
  }

  observe(observer: TaskEventObserver): void {
    this.#observers.push(observer);
  }

  /** The live run of a task, if one is in memory. */
  liveRun(scope: Scope, id: string): TaskRun | undefined {
    const r = this.#runs.get(taskKey(scope, id));
    if (!r || r.scope.owner !== scope.owner || r.scope.tenant !== scope.tenant) return undefined;
    // With other instances, a run kept here that is neither executing nor saving may be behind the
    // store (a follow-up ran elsewhere): the store is the truth then.
    if (this.options.bus && (r.lost || (!r.active && !r.execution && !r.saving && !r.dirty)))
      return undefined;
    return r;
  }

  /** The run of a stored task, tracked so that later events reach its listeners. */
  attach(scope: Scope, task: Task): TaskRun {
    return (
      this.liveRun(scope, task.id) ??
      this.#track(new TaskRun(scope, task.id, task.contextId, this, task))
    );
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
      return this.#continue(incoming.taskId, req, scope, cc, listener, onCreated);
    const run = this.#track(new TaskRun(scope, newId(), incoming.contextId || newId(), this));
    run.version = 0; // a new task: its first save is an insert, with no read before it
    if (onCreated) run.onCreated = onCreated;
    return this.#execute(run, ownMessage(incoming, run), req, cc, listener);
  }

  async #continue(
    taskId: string,
    req: SendMessageRequest,
    scope: Scope,
    cc: CallContext,
    listener?: RunListener,
    onCreated?: (run: TaskRun) => void,
  ): Promise<Execution> {
    const incoming = req.message;
    // The live run is ahead of the store (saves are queued), e.g. right after a cancel.
    const read =
      this.liveRun(scope, taskId) ?? (await readVersioned(this.options.store, scope, taskId));
    const existing = read?.task;
    if (!existing) throw A2AError.taskNotFound(taskId);
    refuseTerminal(existing);
    if (incoming.contextId && incoming.contextId !== existing.contextId) {
      throw A2AError.invalidParams([
        {
          field: 'message.contextId',
          description: `does not match the context of task ${existing.id}`,
        },
      ]);
    }
    const run =
      this.liveRun(scope, existing.id) ??
      this.#track(new TaskRun(scope, existing.id, existing.contextId, this, existing));
    if (run !== read) run.version ??= read!.version;
    if (run.active || run.execution) {
      // An interrupted task may still be finishing its previous executor call: give it a moment.
      if (isInterrupted(existing.status.state)) await Promise.race([run.settled, delay(5000)]);
      if (run.active || run.execution)
        throw new A2AError(
          'UnsupportedOperation',
          `Task ${existing.id} is still processing a message`,
        );
      // That call may have ended the task while we waited.
      refuseTerminal(run.task ?? existing);
    }
    // Whichever instance receives the follow-up runs it, unless another one is still processing the task.
    if (this.options.bus && !(await leaseFollowUp(this.options.bus, scope, existing))) {
      throw new A2AError(
        'UnsupportedOperation',
        `Task ${existing.id} is still processing a message on another instance`,
      );
    }
    if (onCreated) {
      if (run.task) onCreated(run);
      else run.onCreated = onCreated;
    }
    const task = run.task ?? existing;
    if (run.bytes === 0) run.bytes = contentSize(task);
    refuseFollowUp(
      task.id,
      task.history?.length ?? 0,
      run.bytes + sizeOfMessage(incoming),
      this.limits,
    );
    const message = ownMessage(incoming, run);
    run.bytes += sizeOfMessage(message);
    (task.history ??= []).push(message);
    this.#persist(run);
    // A stream of a follow-up starts with the task as it is now, before the agent changes it (§3.1.2).
    listener?.({ task }, run.seq);
    return this.#execute(run, message, req, cc, listener);
  }

  #execute(
    run: TaskRun,
    message: Message,
    req: SendMessageRequest,
    cc: CallContext,
    listener?: RunListener,
  ): Execution {
    const exec = new Execution(run, this);
    if (listener) exec.unlisten = run.listen(listener, true);
    run.execution = exec;
    run.active = true;
    const bus = this.options.bus;
    if (bus && !run.task) {
      // A new task: its id is fresh, so nobody else can hold its lease; taken without waiting.
      bus
        .acquire(run.scope, run.taskId)
        .catch((err: unknown) =>
          this.options.logger.warn({ err, taskId: run.taskId }, 'taking the task lease failed'),
        );
    }
    const end = (err?: unknown, threw = false): void => {
      run.active = false;
      if (threw) this.#failed(run, err);
      else if (!run.task && !run.reply) {
        this.#failed(
          run,
          new A2AError(
            'InvalidAgentResponse',
            'The agent finished without replying or creating a task',
          ),
        );
      }
      exec.returned();
      if (exec.finished) {
        unleaseWhenStored(this, run);
        this.#release(run);
      } else {
        this.#watchIdle(run);
        warnIfLeftUnfinished(run, this.options);
      }
    };
    // Called directly, not from an async wrapper: a synchronous agent is done before this returns.
    let result: void | Promise<void>;
    try {
      result = this.options.executor(
        new RunContext(run, message, req, cc),
        new RunUpdater(run, message),
      );
    } catch (err) {
      end(err, true);
      return exec;
    }
    if (result && typeof (result as Promise<void>).then === 'function') {
      run.settled = Promise.resolve(result).then(
        () => end(),
        (err: unknown) => end(err, true),
      );
    } else {
      end();
    }
    return exec;
  }

  /**
   * With `idleTimeoutMs`, a task whose agent returned without finishing it fails after that long
   * without an event, with a status message that says so: a forgotten `complete()` shows up as a
   * FAILED task instead of a client-side timeout.
   */
  /**
   * A call stopped (its task reached a terminal or interrupted state, or there is nothing to follow),
   * which may be long after the agent returned: drop its listener and, once the agent is done, the run.
   */
  finished(exec: Execution): void {
    const run = exec.run;
    exec.unlisten?.();
    if (run.execution === exec) run.execution = undefined;
    if (!run.active) {
      unleaseWhenStored(this, run);
      this.#release(run);
    }
  }

  #watchIdle(run: TaskRun): void {
    const ms = this.options.idleTimeoutMs;
    if (!ms) return;
    run.watchIdle = true;
    run.lastEventAt = Date.now();
    const check = (): void => {
      const task = run.task;
      if (!task || run.active || !run.execution || stopsAt(task.status.state)) return;
      const idle = Date.now() - run.lastEventAt;
      if (idle < ms) {
        setTimeout(check, ms - idle).unref();
        return;
      }
      failWithNote(
        run,
        `The agent stopped updating this task: no event for ${Math.round(ms / 1000)} s after it returned without finishing it`,
      );
      run.abortRun(new Error('idle limit reached'));
    };
    setTimeout(check, ms).unref();
  }

  #failed(run: TaskRun, err: unknown): void {
    const a2a = err instanceof A2AError ? err : undefined;
    if (!a2a) this.options.logger.error({ err, taskId: run.taskId }, 'agent executor failed');
    if (run.task && !isTerminal(run.task.status.state)) {
      const text = a2a ? a2a.message : 'The agent failed while processing the task';
      failWithNote(run, text);
    } else if (!run.task && !run.reply) {
      run.error = a2a ?? new A2AError('Internal', 'The agent failed while processing the message');
    }
  }

  /**
   * Cancel a task (§3.1.5): TaskNotFound, TaskNotCancelable when already terminal, else CANCELED now.
   * With a bus, a task running on another instance is canceled there (its executor's signal aborts)
   * and the answer is that instance's outcome; `local` is such a request arriving here.
   */
  async cancel(scope: Scope, id: string, local = false): Promise<Task> {
    const bus = this.options.bus;
    if (bus && !local) {
      const live = this.liveRun(scope, id);
      if (!live?.active && !live?.execution) {
        bus.check(); // a task running here can still be canceled while the bus is down
        const remote = await bus.cancelRemote(scope, id);
        if (remote) return remote;
      }
    }
    const read = this.liveRun(scope, id) ?? (await readVersioned(this.options.store, scope, id));
    const task = read?.task;
    if (!task) throw A2AError.taskNotFound(id);
    if (isTerminal(task.status.state)) {
      throw new A2AError(
        'TaskNotCancelable',
        `Task ${id} is already ${task.status.state} and cannot be canceled`,
      );
    }
    const run =
      this.liveRun(scope, id) ?? this.#track(new TaskRun(scope, id, task.contextId, this, task));
    if (run !== read) run.version ??= read!.version;
    run.setStatus('TASK_STATE_CANCELED');
    run.abortRun(new A2AError('TaskNotCancelable', 'canceled'));
    this.#release(run);
    await this.flush(run);
    return run.task!;
  }

  /**
   * Resolves when every change so far of this run has reached the store; rejects when the latest save
   * failed, so that a call never answers success for a task that was not stored.
   */
  flush(run: TaskRun): Promise<void> {
    if (run.saving) return run.saving.then(throwIfUnsaved);
    return run.saveError ? Promise.reject(saveFailure(run)) : RESOLVED;
  }

  // RunHooks
  nextSeq(): number {
    // With a bus, a task's events may come from several instances over its life (follow-ups elsewhere):
    // keeping every instance's numbers near the clock keeps them unique per task.
    if (this.options.bus) return (this.#seq = Math.max(this.#seq + 1, Date.now() * 1000));
    return ++this.#seq;
  }

  onCreate(run: TaskRun): void {
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
    if (!run.task) return;
    run.dirty = true;
    run.saving ??= this.#save(run);
  }

  /** Resolves with the run when its latest save failed, else with nothing (see flush). */
  #save(run: TaskRun): Promise<TaskRun | undefined> {
    return saveRun(run, this.options);
  }

  #track(run: TaskRun): TaskRun {
    this.#runs.set(taskKey(run.scope, run.taskId), run);
    return run;
  }

  /** Forget a run once nothing needs it in memory; keep it a while for stream resumes. */
  #release(run: TaskRun): void {
    if (run.active || run.listening) return;
    if (run.task && !isTerminal(run.task.status.state) && !isInterrupted(run.task.status.state))
      return;
    const key = taskKey(run.scope, run.taskId);
    if (!run.hadStreams) {
      if (this.#runs.get(key) === run) this.#runs.delete(key);
      return;
    }
    this.#retained.delete(key); // re-inserted last: the map stays in expiry order
    this.#retained.set(key, {
      run,
      until: Date.now() + (this.options.replayRetentionMs ?? 60_000),
    });
    this.#sweep();
  }

  /** Drop retained runs that expired or exceed the cap, oldest first (bounded memory under heavy streaming). */
  #sweep(): void {
    const now = Date.now();
    const cap = this.options.maxRetainedRuns ?? 1000;
    for (const [key, r] of this.#retained) {
      if (this.#retained.size <= cap && r.until > now) break;
      this.#retained.delete(key);
      if (this.#runs.get(key) === r.run && !r.run.active && !r.run.listening)
        this.#runs.delete(key);
    }
  }

  /** Stop tracking listeners for a run (used by streams when the client leaves). */
  detached(run: TaskRun): void {
    this.#release(run);
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
    return [...this.#runs.values()].filter((r) => r.active);
  }

  /** Settles once every save in flight has (a draining server waits for it before closing the store). */
  async saved(): Promise<void> {
    await Promise.allSettled([...this.#runs.values()].map((r) => r.saving));
  }

  /** Another instance's lease on this task expired (that instance died): see {@link adoptLostTask}. */
  adopt(scope: Scope, id: string): Promise<void> {
    return adoptLostTask(this, scope, id);
  }

  /** Whether a task nobody finished is run again (instead of failed). */
  get resumable(): boolean {
    return this.options.recovery === 'resume' || this.options.executor.resumable === true;
  }

  /** Run the executor again on a task nobody finished, as its own caller would have. */
  rerun(run: TaskRun, last: Message): void {
    const cc: CallContext = { requestedExtensions: [], activatedExtensions: new Set() };
    if (run.scope.owner) cc.caller = { id: run.scope.owner };
    this.#execute(
      run,
      last,
      { message: last, ...(run.scope.tenant ? { tenant: run.scope.tenant } : {}) },
      cc,
    );
  }

  /** Abort every running executor (server shutdown). */
  abortAll(reason: string): void {
    for (const run of this.#runs.values()) if (run.active) run.abortRun(new Error(reason));
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
