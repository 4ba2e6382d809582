/**
 * Where tasks live ({@link TaskStore}) and where push-notification configs live ({@link PushConfigStore}).
 * Every read and write is scoped by tenant and owner, so a task of one tenant or caller is invisible
 * (not found) from another (§13.1). The built-in stores implement both interfaces.
 */
import type { Task, TaskPushNotificationConfig, TaskState } from '../../protocol/index.js';

/** The visibility scope of a call: tenant (may be '') and owning caller id ('' when anonymous). */
export interface Scope {
  tenant: string;
  owner: string;
}

/** What `ListTasks` asks a store for: filters and one page (§3.1.4). */
export interface TaskQuery {
  contextId?: string;
  status?: TaskState;
  /** Inclusive lower bound on `status.timestamp` (ms since epoch). */
  statusTimestampAfter?: number;
  pageSize: number;
  /** Opaque cursor from a previous page. */
  pageToken?: string;
}

/** One page of `ListTasks`: the tasks, the cursor of the next page (empty on the last) and the total. */
export interface TaskPage {
  tasks: Task[];
  nextPageToken: string;
  totalSize: number;
}

/**
 * Where tasks live. Implementations may keep the object they are given (the in-memory store
 * does); callers never mutate a task they read.
 */
export interface TaskStore {
  /** True when data outlives the process (then caches are filled from it lazily). */
  readonly persistent?: boolean;
  /**
   * True when several instances use the store at once: a task unfinished at start may be running on
   * another instance, so the task manager does not fail or re-run it at start (ownership leases decide).
   */
  readonly shared?: boolean;
  /** Connect and prepare (e.g. migrate); awaited at server start, so a store out of reach fails the start. */
  ready?(): Promise<void>;
  /** The task with this id in this scope, or undefined when there is none (or it is another caller's). */
  getTask(scope: Scope, id: string): Promise<Task | undefined>;
  /**
   * Like `getTask`, with the version a later conditional `saveTask` must carry. Stores that
   * implement it get optimistic concurrency from the task manager; others get plain replaces.
   */
  readTask?(scope: Scope, id: string): Promise<VersionedTask | undefined>;
  /**
   * Insert or replace. With `expected` the write is conditional (optimistic concurrency): `0` creates
   * the task and fails if it exists, `n` replaces it only if its stored version is still `n`. A lost race
   * throws {@link TaskVersionConflict}; a task of another scope throws TaskNotFound. Resolves with the
   * new version (stores without versions resolve with nothing). Without `expected`: an unconditional replace.
   */
  saveTask(scope: Scope, task: Task, expected?: number): Promise<number | void>;
  /** Newest status timestamp first, cursor-paginated. */
  listTasks(scope: Scope, query: TaskQuery): Promise<TaskPage>;
  /**
   * Every task, in any scope, that is SUBMITTED or WORKING: after a restart, the ones a previous process
   * was running. Persistent stores implement it so those tasks can be recovered at start.
   */
  unfinishedTasks?(): Promise<Array<{ scope: Scope; task: Task; version?: number }>>;
  /**
   * Resolves when the store can answer now; rejects (or never settles, which the readiness check
   * times out) when it cannot: the server's readiness endpoint reports the store through it. A store
   * without `ping` counts as always ready.
   */
  ping?(): Promise<void>;
  /** Release connections and files; called once when the server closes. */
  close?(): Promise<void>;
}

/** A task with the version it was read at (1 after its first save, +1 per save). */
export interface VersionedTask {
  task: Task;
  version: number;
}

/**
 * A conditional `saveTask` lost a race: the task changed (or was created) since the version the writer
 * read. The writer re-reads and re-applies its change, or reports the conflict; it never overwrites.
 */
export class TaskVersionConflict extends Error {
  override readonly name = 'TaskVersionConflict';
  constructor(
    readonly taskId: string,
    readonly expected: number,
  ) {
    super(`Task ${taskId} changed since version ${expected} was read`);
  }
}

/** A push config as stored: its id and task id are always set. */
export type StoredPushConfig = TaskPushNotificationConfig & { id: string; taskId: string };

/**
 * Where the push-notification configs of tasks live (§3.1.7–§3.1.10), apart from the tasks
 * themselves so that a deployment can keep them elsewhere. Same scoping rules as {@link TaskStore}.
 */
export interface PushConfigStore {
  /** True when configs outlive the process (then they are loaded per task on its first event). */
  readonly persistent?: boolean;
  /** Insert or replace the config with this task id and id. */
  savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void>;
  /** One config of the task by its id, or undefined. */
  getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<TaskPushNotificationConfig | undefined>;
  /** Every config of the task, ordered by id. */
  listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]>;
  /** Idempotent. */
  deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void>;
  /** As {@link TaskStore.ping}: resolves when the store can answer now. */
  ping?(): Promise<void>;
  /** Release connections and files; called once when the server closes. */
  close?(): Promise<void>;
}

/** Whether a task store also keeps push configs (the built-in ones do). */
export function isPushConfigStore(store: object): store is PushConfigStore {
  const s = store as Partial<PushConfigStore>;
  return (
    typeof s.savePushConfig === 'function' &&
    typeof s.getPushConfig === 'function' &&
    typeof s.listPushConfigs === 'function' &&
    typeof s.deletePushConfig === 'function'
  );
}

/**
 * A map key for a task within its tenant. A client-sent id may hold NUL and so equal another tenant's
 * key: whoever looks a task up by this key must also compare the tenant (§13.1).
 */
export function taskKey(scope: Scope, id: string): string {
  return scope.tenant ? `${scope.tenant}\u0000${id}` : id;
}

/** Sort key of a task in listings: status timestamp (ms), then id for a total order. */
export function statusTime(task: Task): number {
  const t = task.status.timestamp;
  if (!t) return 0;
  // Tasks saved in the same millisecond share one timestamp string (see nowIso): parse it once.
  if (t !== lastText) {
    lastText = t;
    lastTime = Date.parse(t);
  }
  return lastTime;
}

let lastText = '';
let lastTime = 0;

/** Cursor = position of the last task of the previous page in the (time desc, id asc) order. */
export function encodeCursor(task: Task): string {
  return Buffer.from(`${statusTime(task)}|${task.id}`).toString('base64url');
}

export function decodeCursor(token: string): { time: number; id: string } | undefined {
  const raw = Buffer.from(token, 'base64url').toString();
  const bar = raw.indexOf('|');
  if (bar < 1) return undefined;
  const time = Number(raw.slice(0, bar));
  return Number.isFinite(time) ? { time, id: raw.slice(bar + 1) } : undefined;
}

/** True when `a` comes before `b` in listing order. */
export function listsBefore(
  a: { time: number; id: string },
  b: { time: number; id: string },
): boolean {
  return a.time > b.time || (a.time === b.time && a.id < b.id);
}
