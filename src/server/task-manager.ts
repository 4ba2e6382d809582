/**
 * Runs executors and owns the live runs: starts a task for a new message, resumes an interrupted
 * one, cancels, and persists every event in order. Bindings never see it; the service calls it.
 */
import { randomUUID } from 'node:crypto';
import {
  A2AError,
  isInterrupted,
  isTerminal,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from '../protocol/index.js';
import type { CallContext } from './caller.js';
import { textOf, type AgentExecutor, type RequestContext } from './executor.js';
import type { Logger } from './logger.js';
import type { Scope, TaskStore } from './store/task-store.js';
import { TaskRun, type RunListener } from './task-run.js';

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

/** One started execution. `first` settles with the first answer, `done` when the task stops or the agent returns. */
export interface Execution {
  run: TaskRun;
  first: Promise<void>;
  done: Promise<void>;
}

interface Persisting {
  dirty: boolean;
  done: Promise<void>;
}

const runKey = (scope: Scope, id: string): string => `${scope.tenant}\u0000${id}`;

export class TaskManager {
  readonly #runs = new Map<string, TaskRun>();
  /** Finished runs kept for Last-Event-ID resumes, oldest first. */
  readonly #retained = new Map<string, { run: TaskRun; until: number }>();
  readonly #observers: TaskEventObserver[] = [];
  readonly #persisting = new Map<TaskRun, Persisting>();
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
    const r = this.#runs.get(runKey(scope, id));
    return r && r.scope.owner === scope.owner ? r : undefined;
  }

  /** The run of a stored task, tracked so that later events reach its listeners. */
  attach(scope: Scope, task: Task): TaskRun {
    return this.liveRun(scope, task.id) ?? this.#track(new TaskRun(scope, task.id, task.contextId, this, task));
  }

  /** Start (or continue) a task for an incoming message; `listener` sees every event from the first. */
  async send(
    req: SendMessageRequest,
    scope: Scope,
    cc: CallContext,
    listener?: RunListener,
    onCreated?: (run: TaskRun) => void,
  ): Promise<Execution> {
    const incoming = req.message;
    let run: TaskRun;
    let existing: Task | undefined;
    if (incoming.taskId) {
      // The live run is ahead of the store (saves are queued), e.g. right after a cancel.
      existing = this.liveRun(scope, incoming.taskId)?.task ?? (await this.options.store.getTask(scope, incoming.taskId));
      if (!existing) throw A2AError.taskNotFound(incoming.taskId);
      refuseTerminal(existing);
      if (incoming.contextId && incoming.contextId !== existing.contextId) {
        throw A2AError.invalidParams([
          { field: 'message.contextId', description: `does not match the context of task ${existing.id}` },
        ]);
      }
      run = this.liveRun(scope, existing.id) ?? this.#track(new TaskRun(scope, existing.id, existing.contextId, this, existing));
      if (run.active) {
        // An interrupted task may still be finishing its previous executor call: give it a moment.
        if (isInterrupted(existing.status.state)) await Promise.race([run.settled, delay(5000)]);
        if (run.active) throw new A2AError('UnsupportedOperation', `Task ${existing.id} is still processing a message`);
        // That call may have ended the task while we waited.
        refuseTerminal(run.task ?? existing);
      }
    } else {
      run = this.#track(new TaskRun(scope, randomUUID(), incoming.contextId || randomUUID(), this));
    }
    if (onCreated) {
      if (run.task) onCreated(run);
      else run.onCreated = onCreated;
    }
    const message: Message = { ...incoming, taskId: run.taskId, contextId: run.contextId };
    if (existing) {
      const task = run.task ?? existing;
      (task.history ??= []).push(message);
      this.#persist(run);
      // A stream of a follow-up starts with the task as it is now, before the agent changes it (§3.1.2).
      listener?.({ task }, run.seq);
    }
    return this.#execute(run, message, req, cc, listener);
  }

  #execute(run: TaskRun, message: Message, req: SendMessageRequest, cc: CallContext, listener?: RunListener): Execution {
    let unlisten: (() => void) | undefined;
    let resolveFirst!: () => void;
    let resolveDone!: () => void;
    const first = new Promise<void>((r) => (resolveFirst = r));
    const done = new Promise<void>((r) => (resolveDone = r));
    const watcher: RunListener = (event, seq) => {
      listener?.(event, seq);
      resolveFirst();
      if (stops(event)) resolveDone();
    };
    unlisten = run.listen(watcher, listener !== undefined);
    // A follow-up's task already exists: returnImmediately must not wait for the agent's first update.
    if (run.task) resolveFirst();
    const ctx: RequestContext = {
      message,
      text: textOf(message),
      ...(run.task ? { task: structuredClone(run.task) } : {}),
      taskId: run.taskId,
      contextId: run.contextId,
      tenant: run.scope.tenant,
      ...(cc.caller ? { caller: cc.caller } : {}),
      ...(req.configuration ? { configuration: req.configuration } : {}),
      ...(req.metadata ? { metadata: req.metadata } : {}),
      requestedExtensions: cc.requestedExtensions,
      activateExtension: (uri) => void cc.activatedExtensions.add(uri),
      get signal() {
        return run.signal;
      },
    };
    run.active = true;
    const finished = (async () => {
      try {
        await this.options.executor(ctx, run.updater(message));
        if (!run.task && !run.reply) {
          throw new A2AError('InvalidAgentResponse', 'The agent finished without replying or creating a task');
        }
      } catch (err) {
        this.#failed(run, err);
      } finally {
        run.active = false;
        unlisten?.();
        unlisten = undefined;
        resolveFirst();
        resolveDone();
        this.#release(run);
      }
    })();
    run.settled = finished;
    return { run, first, done };
  }

  #failed(run: TaskRun, err: unknown): void {
    const a2a = err instanceof A2AError ? err : undefined;
    if (!a2a) this.options.logger.error({ err, taskId: run.taskId }, 'agent executor failed');
    if (run.task && !isTerminal(run.task.status.state)) {
      const text = a2a ? a2a.message : 'The agent failed while processing the task';
      run.setStatus('TASK_STATE_FAILED', {
        messageId: randomUUID(),
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
    return this.#persisting.get(run)?.done ?? Promise.resolve();
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
   * Save the task after a change. Saves of one task never overlap, and changes made while one is in
   * flight are coalesced into a single save of the latest state afterwards.
   */
  #persist(run: TaskRun): void {
    if (!run.task) return;
    const pending = this.#persisting.get(run);
    if (pending) {
      pending.dirty = true;
      return;
    }
    const entry: Persisting = { dirty: true, done: Promise.resolve() };
    this.#persisting.set(run, entry);
    entry.done = (async () => {
      while (entry.dirty) {
        entry.dirty = false;
        try {
          await this.options.store.saveTask(run.scope, run.task!);
        } catch (err) {
          this.options.logger.error({ err, taskId: run.taskId }, 'saving the task failed');
        }
      }
      this.#persisting.delete(run);
    })();
  }

  #track(run: TaskRun): TaskRun {
    this.#runs.set(runKey(run.scope, run.taskId), run);
    return run;
  }

  /** Forget a run once nothing needs it in memory; keep it a while for stream resumes. */
  #release(run: TaskRun): void {
    if (run.active || run.listeners.size > 0) return;
    if (run.task && !isTerminal(run.task.status.state) && !isInterrupted(run.task.status.state)) return;
    const key = runKey(run.scope, run.taskId);
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
      if (this.#runs.get(key) === r.run && !r.run.active && r.run.listeners.size === 0) this.#runs.delete(key);
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

/** §3.1.1: a terminal task accepts no more messages. */
function refuseTerminal(task: Task): void {
  if (isTerminal(task.status.state)) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${task.id} is ${task.status.state}; a terminal task accepts no more messages. Start a new task in the same context.`,
    );
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

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
