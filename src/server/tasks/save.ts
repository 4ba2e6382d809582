/**
 * Saving a run's task: in order, one save in flight per run, every write carrying the version it read.
 * A save that lost a race is re-applied on the newer task (reapply.ts), at most MAX_CONFLICT_RETRIES
 * times in a row, then reported.
 */
import { A2AError } from '../../protocol/index.js';
import { TaskVersionConflict } from '../store/task-store.js';
import type { TaskManagerOptions } from './options.js';
import { MAX_CONFLICT_RETRIES, reapply } from './reapply.js';
import type { TaskRun } from './run.js';
import { RESOLVED } from '../util/settled.js';

/** What the save loop needs from the task manager. */
export type SaveOptions = Pick<TaskManagerOptions, 'store' | 'logger' | 'onStoreError'>;

/** Save the run's task until nothing is left dirty; resolves with the run when its latest save failed. */
export async function saveRun(run: TaskRun, options: SaveOptions): Promise<TaskRun | undefined> {
  await RESOLVED; // the caller hands this loop to `saves.started` before the loop runs
  const store = options.store;
  const saves = run.saves;
  let conflicts = 0;
  // A run whose version is unknown (attached to a task read elsewhere) merges onto the stored task first.
  let stale = saves.version === undefined && store.readTask !== undefined;
  while (saves.take() || stale) {
    try {
      if (stale) {
        stale = false;
        if (!(await reapply(store, run))) {
          saves.superseded();
          continue;
        }
      }
      // The one place a task is written to the store.
      saves.stored(await store.saveTask(run.scope, run.task!, saves.version));
    } catch (err) {
      if (err instanceof TaskVersionConflict && conflicts++ < MAX_CONFLICT_RETRIES) {
        // Lost a race with another writer: re-read, re-apply our change, save again.
        options.logger.warn(
          { taskId: run.taskId, expected: err.expected },
          'task changed concurrently; re-applying',
        );
        stale = true;
        saves.retry();
        continue;
      }
      saves.failed(err);
      options.logger.error({ err, taskId: run.taskId }, 'saving the task failed');
      options.onStoreError?.(err, {
        operation: 'saveTask',
        taskId: run.taskId,
        tenant: run.scope.tenant,
      });
    }
  }
  return saves.ended() ? run : undefined;
}

/** The error a call answers with when its task could not be saved. */
export function saveFailure(run: TaskRun): A2AError {
  const err = run.saves.error;
  // A database that is down for now says so (retry later); any other failure is the server's.
  if (err instanceof A2AError && err.kind === 'Unavailable')
    return new A2AError(
      'Unavailable',
      `Task ${run.taskId} could not be saved: ${err.message}`,
      [],
      { cause: err },
    );
  if (err instanceof TaskVersionConflict)
    return new A2AError(
      'Internal',
      `Task ${run.taskId} could not be saved: it kept changing concurrently (${MAX_CONFLICT_RETRIES} re-applied updates lost the race)`,
      [],
      { cause: err },
    );
  return new A2AError(
    'Internal',
    `Task ${run.taskId} could not be saved: the agent's task store failed`,
  );
}

/** A module function, not a closure: flush runs on every SendMessage. */
export function throwIfUnsaved(failed: TaskRun | undefined): void {
  if (failed) throw saveFailure(failed);
}

/**
 * Resolves when every change so far of this run has reached the store; rejects when the latest save
 * failed, so that a call never answers success for a task that was not stored.
 */
export function flushRun(run: TaskRun): Promise<void> {
  const pending = run.saves.pending;
  if (pending) return pending.then(throwIfUnsaved);
  return run.saves.error !== undefined ? Promise.reject(saveFailure(run)) : RESOLVED;
}
