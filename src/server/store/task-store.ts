/**
 * Where tasks and push configs live. Every read and write is scoped by tenant and owner, so a task
 * of one tenant or caller is invisible (not found) from another (§13.1).
 */
import type { Task, TaskPushNotificationConfig, TaskState } from '../../protocol/index.js';

/** The visibility scope of a call: tenant (may be '') and owning caller id ('' when anonymous). */
export interface Scope {
  tenant: string;
  owner: string;
}

export interface TaskQuery {
  contextId?: string;
  status?: TaskState;
  /** Inclusive lower bound on `status.timestamp` (ms since epoch). */
  statusTimestampAfter?: number;
  pageSize: number;
  /** Opaque cursor from a previous page. */
  pageToken?: string;
}

export interface TaskPage {
  tasks: Task[];
  nextPageToken: string;
  totalSize: number;
}

/**
 * Async store interface. Implementations may keep the object they are given (the in-memory store
 * does); callers never mutate a task they read.
 */
export interface TaskStore {
  /** True when data outlives the process (then caches are filled from it lazily). */
  readonly persistent?: boolean;
  getTask(scope: Scope, id: string): Promise<Task | undefined>;
  /** Insert or replace. */
  saveTask(scope: Scope, task: Task): Promise<void>;
  /** Newest status timestamp first, cursor-paginated. */
  listTasks(scope: Scope, query: TaskQuery): Promise<TaskPage>;

  savePushConfig(scope: Scope, config: TaskPushNotificationConfig & { id: string; taskId: string }): Promise<void>;
  getPushConfig(scope: Scope, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined>;
  listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]>;
  /** Idempotent. */
  deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void>;

  close?(): Promise<void>;
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
export function listsBefore(a: { time: number; id: string }, b: { time: number; id: string }): boolean {
  return a.time > b.time || (a.time === b.time && a.id < b.id);
}
