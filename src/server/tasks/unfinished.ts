/**
 * The warning for a task nobody finishes: an executor that returns with its task still SUBMITTED or
 * WORKING and never completes it leaves every caller waiting until its own timeout, with no trace on
 * the server. Agents may legitimately finish later (a queue, a timer), so this only warns, once per
 * return, after a delay the server's `unfinishedTaskWarningMs` sets.
 */
import { isTerminalOrInterrupted } from '../../protocol/index.js';
import type { TaskManagerOptions } from './options.js';
import type { TaskRun } from './run.js';

/** After `unfinishedWarningMs`, warns when the run's task is still neither terminal nor interrupted. */
export function warnIfLeftUnfinished(
  run: TaskRun,
  options: Pick<TaskManagerOptions, 'logger' | 'unfinishedWarningMs'>,
): void {
  const ms = options.unfinishedWarningMs;
  if (!ms) return;
  const timer = setTimeout(() => {
    const state = run.task?.status.state;
    // Running again (a follow-up), adopted by another instance, or finished: nothing to say.
    if (!state || isTerminalOrInterrupted(state) || run.active || run.lost) return;
    options.logger.warn(
      { taskId: run.taskId, state },
      `task still ${state} ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`} after its executor returned: callers wait until ` +
        'their own timeout unless something finishes it (complete(), fail()); if the agent finishes it ' +
        'later on purpose, raise or turn off unfinishedTaskWarningMs',
    );
  }, ms);
  // A warning is no reason to keep the process alive.
  (timer as { unref?: () => void }).unref?.();
}
