/** What the task manager is built with: the store, the executor, bounds, hooks and the bus. */
import type { StreamResponse, Task } from '../../protocol/index.js';
import type { AgentExecutor } from '../agent/executor.js';
import type { TaskEventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { Scope, TaskStore } from '../store/task-store.js';
import type { TaskLimits } from './limits.js';

/** Something that wants every event of every task (push delivery, metrics…). */
export type TaskEventObserver = (
  scope: Scope,
  task: Task | undefined,
  event: StreamResponse,
) => void;

export interface TaskManagerOptions {
  store: TaskStore;
  executor: AgentExecutor;
  logger: Logger;
  /** How long a finished run that had streams stays around for Last-Event-ID resumes (ms). Default 60 s. */
  replayRetentionMs?: number;
  /** At most this many finished runs are kept for resumes; the oldest go first. Default 1000. */
  maxRetainedRuns?: number;
  /**
   * Fail a task after this long (ms) without an event once its agent returned without finishing it.
   * Default: no limit.
   */
  idleTimeoutMs?: number;
  /** Warn once when a task is still SUBMITTED or WORKING this long (ms) after its executor returned; 0: never. */
  unfinishedWarningMs?: number;
  /**
   * What `recover()` does with tasks a previous process left running: `'fail'` them (the default), or
   * `'resume'` them by calling the executor again with the task's last user message (for agents whose
   * work can safely start over).
   */
  recovery?: 'fail' | 'resume';
  /** Bounds on each task's history and content. */
  limits?: TaskLimits;
  /** Told of every failed store write (besides the log), e.g. to alert an operator. */
  onStoreError?: StoreErrorHook;
  /**
   * How long a follow-up waits for the agent's call still running on its task to return before it is
   * refused (calls on one task never overlap). Default 5 000 ms.
   */
  followUpWaitMs?: number;
  /** The bus to other instances (see events/bus.ts); without it events stay in this process. */
  bus?: TaskEventBus;
}

/** Receives store failures: what was being done, on which task. */
export type StoreErrorHook = (
  err: unknown,
  info: { operation: string; taskId: string; tenant: string },
) => void;
