/**
 * What the task manager does when a conditional save lost a race (another instance or writer changed the
 * task since this run read it): re-apply this run's change on top of the stored task instead of
 * overwriting it. Messages are merged by id and artifacts by id; a task another writer already finished
 * stays finished (its state wins, this run's executor is stopped).
 */
import { A2AError, isTerminal, type Task } from '../../protocol/index.js';
import type { TaskStore, VersionedTask } from '../store/task-store.js';
import type { TaskRun } from './run.js';

/** Conflicts resolved in a row for one save before the manager gives up and reports the save as failed. */
export const MAX_CONFLICT_RETRIES = 5;

/** The task and version, from `readTask` when the store has it. */
export async function readVersioned(
  store: TaskStore,
  scope: TaskRun['scope'],
  id: string,
): Promise<VersionedTask | { task: Task; version: undefined } | undefined> {
  if (store.readTask) return store.readTask(scope, id);
  const task = await store.getTask(scope, id);
  return task && { task, version: undefined };
}

/** This run's task laid over the stored one: the stored history and artifacts kept, ours added or replacing by id. */
export function merged(ours: Task, stored: Task): Task {
  const seen = new Set((stored.history ?? []).map((m) => m.messageId));
  const history = [
    ...(stored.history ?? []),
    ...(ours.history ?? []).filter((m) => !seen.has(m.messageId)),
  ];
  const artifacts = [...(stored.artifacts ?? [])];
  for (const a of ours.artifacts ?? []) {
    const i = artifacts.findIndex((b) => b.artifactId === a.artifactId);
    if (i >= 0) artifacts[i] = a;
    else artifacts.push(a);
  }
  const task: Task = { ...stored, status: ours.status, history, artifacts };
  if (ours.metadata || stored.metadata) task.metadata = { ...stored.metadata, ...ours.metadata };
  return task;
}

/**
 * Re-read the task after a lost race and make the run's state the one to save next. Resolves with true
 * when the run must save again, false when the stored state stands as it is; rejects when the task is gone.
 */
export async function reapply(store: TaskStore, run: TaskRun): Promise<boolean> {
  const read = await readVersioned(store, run.scope, run.taskId);
  if (!read)
    throw new A2AError(
      'Internal',
      `Task ${run.taskId} was removed while this instance was updating it`,
    );
  const ours = run.task!;
  run.version = read.version;
  if (isTerminal(read.task.status.state)) {
    // Finished elsewhere (canceled through another instance…): that outcome stands, our executor stops.
    run.task = { ...merged(ours, read.task), status: read.task.status };
    run.abortRun(
      new A2AError(
        'TaskNotCancelable',
        `Task ${run.taskId} was finished elsewhere (${read.task.status.state})`,
      ),
    );
    // Listeners here (a stream, a waiting call) learn the real outcome; storing it again is harmless.
    if (!isTerminal(ours.status.state))
      run.emit({
        statusUpdate: { taskId: run.taskId, contextId: run.contextId, status: read.task.status },
      });
    return false;
  }
  run.task = merged(ours, read.task);
  return true;
}
