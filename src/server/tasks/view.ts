/** Shape a stored task for a response without copying it deeply (§3.2.4 historyLength, ListTasks artifacts). */
import type { StreamResponse, Task } from '../../protocol/index.js';

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
  return 'task' in event ? { task: snapshotTask(event.task) } : event;
}
