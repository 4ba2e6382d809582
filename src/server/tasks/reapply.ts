/**
 * What the task manager does when a conditional save lost a race (another instance or writer changed the
 * task since this run read it): re-apply this run's change on top of the stored task instead of
 * overwriting it. Messages are merged by id and artifacts by id (merge.ts); a task another writer
 * already finished stays finished (its state wins, this run's executor is stopped: TaskRun.rebase).
 */
import { A2AError, type Task } from '../../protocol/index.js';
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
  return run.rebase(read);
}
