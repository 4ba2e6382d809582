/** Shape a stored task for a response without copying it deeply (§3.2.4 historyLength, ListTasks artifacts). */
import type { StreamResponse, Task } from '../../protocol/index.js';
import { seal } from '../kernel/encode-cache.js';

export interface ViewOptions {
  /** undefined: all history; 0: none; N: the N most recent messages. */
  historyLength?: number;
  /** false: no `artifacts` member at all. Default true. */
  includeArtifacts?: boolean;
}

export function viewTask(task: Task, opts: ViewOptions): Task {
  const { historyLength, includeArtifacts = true } = opts;
  const trimHistory =
    historyLength !== undefined &&
    task.history !== undefined &&
    task.history.length > historyLength;
  const dropArtifacts = !includeArtifacts && task.artifacts !== undefined;
  if (!trimHistory && !dropArtifacts && !(historyLength === 0 && task.history)) return task;
  const view: Task = { ...task };
  if (historyLength === 0) delete view.history;
  else if (trimHistory) view.history = task.history!.slice(-historyLength);
  if (dropArtifacts) delete view.artifacts;
  return view;
}

/**
 * A copy of a live task that its later updates cannot change: statuses and artifacts are replaced,
 * never mutated, so copying the two lists is enough.
 */
export function snapshotTask(task: Task): Task {
  const t: Task = { ...task };
  if (task.history) t.history = task.history.slice();
  if (task.artifacts) t.artifacts = task.artifacts.slice();
  return t;
}

/** The event, with a Task payload snapshotted (other payloads are never mutated after emission). */
export function snapshotEvent(event: StreamResponse): StreamResponse {
  return 'task' in event ? { task: sharedSnapshot(event.task) } : event;
}

/** The last snapshot made of each task, shared by every reader until the task changes. */
const snapshots = new WeakMap<Task, Task>();

/**
 * A snapshot of `task` as it is now, the same object for every reader until the task changes, and
 * sealed (`kernel/encode-cache.ts`): its large encodings are made once for all of them (many
 * subscribers or GetTask callers of one large task). Whether the last snapshot still shows the task is
 * decided by what changes a task — its members are replaced, its history and artifacts lists grow or
 * have an element replaced — so a member-by-member identity check is exact; a change is never missed.
 */
export function sharedSnapshot(task: Task): Task {
  const last = snapshots.get(task);
  if (last && sameTask(last, task)) return last;
  const snap = seal(snapshotTask(task));
  snapshots.set(task, snap);
  return snap;
}

function sameTask(snap: Task, task: Task): boolean {
  let n = 0;
  for (const key in task) {
    n++;
    const a = task[key as keyof Task];
    const b = snap[key as keyof Task];
    if (a === b) continue;
    if ((key === 'history' || key === 'artifacts') && sameItems(a as unknown[], b as unknown[]))
      continue;
    return false;
  }
  for (const _ in snap) n--;
  return n === 0;
}

function sameItems(a: unknown[] | undefined, b: unknown[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
