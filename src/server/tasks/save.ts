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

/** Save the run's task until nothing is left dirty; resolves with the run when its latest save failed. */
export async function saveRun(
  run: TaskRun,
  options: Pick<TaskManagerOptions, 'store' | 'logger' | 'onStoreError'>,
): Promise<TaskRun | undefined> {
  await undefined;
  const store = options.store;
  let conflicts = 0;
  // A run whose version is unknown (attached to a task read elsewhere) merges onto the stored task first.
  let stale = run.version === undefined && store.readTask !== undefined;
  while (run.dirty || stale) {
    run.dirty = false;
    try {
      if (stale) {
        stale = false;
        if (!(await reapply(store, run))) {
          run.saveError = undefined; // the stored state stands: nothing of ours is left to save
          continue;
        }
      }
      const version = await store.saveTask(run.scope, run.task!, run.version);
      if (typeof version === 'number') run.version = version;
      run.saveError = undefined; // the latest state is stored: an earlier failure no longer matters
    } catch (err) {
      if (err instanceof TaskVersionConflict && conflicts++ < MAX_CONFLICT_RETRIES) {
        // Lost a race with another writer: re-read, re-apply our change, save again.
        options.logger.warn(
          { taskId: run.taskId, expected: err.expected },
          'task changed concurrently; re-applying',
        );
        stale = true;
        run.dirty = true;
        continue;
      }
      run.saveError = err;
      options.logger.error({ err, taskId: run.taskId }, 'saving the task failed');
      options.onStoreError?.(err, {
        operation: 'saveTask',
        taskId: run.taskId,
        tenant: run.scope.tenant,
      });
    }
  }
  run.saving = undefined;
  return run.saveError === undefined ? undefined : run;
}

/** The error a call answers with when its task could not be saved. */
export function saveFailure(run: TaskRun): A2AError {
  const err = run.saveError;
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
