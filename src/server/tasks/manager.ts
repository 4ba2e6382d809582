/**
 * Runs executors and owns the live runs: starts a task for a new message, resumes an interrupted
 * one, cancels, and persists every event in order. Bindings never see it; the service calls it.
 */
import { newId } from '../util/ids.js';
import { plainCopy } from '../util/plain-copy.js';
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
import type { AgentExecutor } from '../agent/executor.js';
import { Execution } from './execution.js';
import { RESOLVED } from '../util/settled.js';
import { RunContext, RunUpdater } from './updater.js';
import type { Logger } from '../logger.js';
import { taskKey, type Scope, type TaskStore } from '../store/task-store.js';
import { TaskRun, type RunListener } from './run.js';

/** Something that wants every event of every task (push delivery, metrics…). */
export type TaskEventObserver = (scope: Scope, task: Task | undefined, event: StreamResponse) => void;

export interface TaskManagerOptions {
  store: TaskStore;
  executor: AgentExecutor;
  logger: Logger;
  /** How long a finished run that had streams stays around for Last-Event-ID resumes (ms). Default 60 s. */
  replayRetentionMs?: number;
  /** At most this many finished runs are kept for resumes; the oldest go first. Default 1000. */
  maxRetainedRuns?: number;
}

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

  constructor(readonly options: TaskManagerOptions) {}

  observe(observer: TaskEventObserver): void {
    this.#observers.push(observer);
  }

  /** The live run of a task, if one is in memory. */
  liveRun(scope: Scope, id: string): TaskRun | undefined {
    const r = this.#runs.get(taskKey(scope, id));
    return r && r.scope.owner === scope.owner && r.scope.tenant === scope.tenant ? r : undefined;
  }

  /** The run of a stored task, tracked so that later events reach its listeners. */
  attach(scope: Scope, task: Task): TaskRun {
    return this.liveRun(scope, task.id) ?? this.#track(new TaskRun(scope, task.id, task.contextId, this, task));
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
    const incoming = req.message;
    if (incoming.taskId) return this.#continue(incoming.taskId, req, scope, cc, listener, onCreated);
    const run = this.#track(new TaskRun(scope, newId(), incoming.contextId || newId(), this));
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
    const existing = this.liveRun(scope, taskId)?.task ?? (await this.options.store.getTask(scope, taskId));
    if (!existing) throw A2AError.taskNotFound(taskId);
    refuseTerminal(existing);
    if (incoming.contextId && incoming.contextId !== existing.contextId) {
      throw A2AError.invalidParams([{ field: 'message.contextId', description: `does not match the context of task ${existing.id}` }]);
    }
    const run = this.liveRun(scope, existing.id) ?? this.#track(new TaskRun(scope, existing.id, existing.contextId, this, existing));
    if (run.active) {
      // An interrupted task may still be finishing its previous executor call: give it a moment.
      if (isInterrupted(existing.status.state)) await Promise.race([run.settled, delay(5000)]);
      if (run.active) throw new A2AError('UnsupportedOperation', `Task ${existing.id} is still processing a message`);
      // That call may have ended the task while we waited.
      refuseTerminal(run.task ?? existing);
    }
    if (onCreated) {
      if (run.task) onCreated(run);
      else run.onCreated = onCreated;
    }
    const message = ownMessage(incoming, run);
    const task = run.task ?? existing;
    (task.history ??= []).push(message);
    this.#persist(run);
    // A stream of a follow-up starts with the task as it is now, before the agent changes it (§3.1.2).
    listener?.({ task }, run.seq);
    return this.#execute(run, message, req, cc, listener);
  }

  #execute(run: TaskRun, message: Message, req: SendMessageRequest, cc: CallContext, listener?: RunListener): Execution {
    const exec = new Execution(run);
    const unlisten = listener ? run.listen(listener, true) : undefined;
    run.execution = exec;
    run.active = true;
    const end = (err?: unknown, threw = false): void => {
      if (threw) this.#failed(run, err);
      else if (!run.task && !run.reply) {
        this.#failed(run, new A2AError('InvalidAgentResponse', 'The agent finished without replying or creating a task'));
      }
      run.active = false;
      unlisten?.();
      if (run.execution === exec) run.execution = undefined;
      exec.end();
      this.#release(run);
    };
    // Called directly, not from an async wrapper: a synchronous agent is done before this returns.
    let result: void | Promise<void>;
    try {
      result = this.options.executor(new RunContext(run, message, req, cc), new RunUpdater(run, message));
    } catch (err) {
      end(err, true);
      return exec;
    }
    if (result && typeof (result as Promise<void>).then === 'function') {
      run.settled = Promise.resolve(result).then(() => end(), (err: unknown) => end(err, true));
    } else {
      end();
    }
    return exec;
  }

  #failed(run: TaskRun, err: unknown): void {
    const a2a = err instanceof A2AError ? err : undefined;
    if (!a2a) this.options.logger.error({ err, taskId: run.taskId }, 'agent executor failed');
    if (run.task && !isTerminal(run.task.status.state)) {
      const text = a2a ? a2a.message : 'The agent failed while processing the task';
      run.setStatus('TASK_STATE_FAILED', {
        messageId: newId(),
        role: 'ROLE_AGENT',
        taskId: run.taskId,
        contextId: run.contextId,
        parts: [{ text }],
      });
    } else if (!run.task && !run.reply) {
      run.error = a2a ?? new A2AError('Internal', 'The agent failed while processing the message');
    }
  }

  /** Cancel a task (§3.1.5): TaskNotFound, TaskNotCancelable when already terminal, else CANCELED now. */
  async cancel(scope: Scope, id: string): Promise<Task> {
    const task = this.liveRun(scope, id)?.task ?? (await this.options.store.getTask(scope, id));
    if (!task) throw A2AError.taskNotFound(id);
    if (isTerminal(task.status.state)) {
      throw new A2AError('TaskNotCancelable', `Task ${id} is already ${task.status.state} and cannot be canceled`);
    }
    const run = this.liveRun(scope, id) ?? this.#track(new TaskRun(scope, id, task.contextId, this, task));
    run.setStatus('TASK_STATE_CANCELED');
    run.abortRun(new A2AError('TaskNotCancelable', 'canceled'));
    this.#release(run);
    await this.flush(run);
    return run.task!;
  }

  /** Resolves when every event so far of this run has reached the store. */
  flush(run: TaskRun): Promise<void> {
    return run.saving ?? RESOLVED;
  }

  // RunHooks
  nextSeq(): number {
    return ++this.#seq;
  }

  onCreate(run: TaskRun): void {
    this.#persist(run);
  }

  onEvent(run: TaskRun, event: StreamResponse): void {
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

  async #save(run: TaskRun): Promise<void> {
    await undefined;
    while (run.dirty) {
      run.dirty = false;
      try {
        await this.options.store.saveTask(run.scope, run.task!);
      } catch (err) {
        this.options.logger.error({ err, taskId: run.taskId }, 'saving the task failed');
      }
    }
    run.saving = undefined;
  }

  #track(run: TaskRun): TaskRun {
    this.#runs.set(taskKey(run.scope, run.taskId), run);
    return run;
  }

  /** Forget a run once nothing needs it in memory; keep it a while for stream resumes. */
  #release(run: TaskRun): void {
    if (run.active || run.listening) return;
    if (run.task && !isTerminal(run.task.status.state) && !isInterrupted(run.task.status.state)) return;
    const key = taskKey(run.scope, run.taskId);
    if (!run.hadStreams) {
      if (this.#runs.get(key) === run) this.#runs.delete(key);
      return;
    }
    this.#retained.delete(key); // re-inserted last: the map stays in expiry order
    this.#retained.set(key, { run, until: Date.now() + (this.options.replayRetentionMs ?? 60_000) });
    this.#sweep();
  }

  /** Drop retained runs that expired or exceed the cap, oldest first (bounded memory under heavy streaming). */
  #sweep(): void {
    const now = Date.now();
    const cap = this.options.maxRetainedRuns ?? 1000;
    for (const [key, r] of this.#retained) {
      if (this.#retained.size <= cap && r.until > now) break;
      this.#retained.delete(key);
      if (this.#runs.get(key) === r.run && !r.run.active && !r.run.listening) this.#runs.delete(key);
    }
  }

  /** Stop tracking listeners for a run (used by streams when the client leaves). */
  detached(run: TaskRun): void {
    this.#release(run);
  }

  /** Abort every running executor (server shutdown). */
  abortAll(reason: string): void {
    for (const run of this.#runs.values()) if (run.active) run.abortRun(new Error(reason));
  }
}

/** The incoming message as this task keeps it: a copy, with the task's ids. */
function ownMessage(incoming: Message, run: TaskRun): Message {
  const m = plainCopy(incoming);
  m.taskId = run.taskId;
  m.contextId = run.contextId;
  return m;
}

/** §3.1.1: a terminal task accepts no more messages. */
function refuseTerminal(task: Task): void {
  if (isTerminal(task.status.state)) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${task.id} is ${task.status.state}; a terminal task accepts no more messages. Start a new task in the same context.`,
    );
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
