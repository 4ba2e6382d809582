/**
 * Tasks nobody is running any more, and what the task manager does differently with a bus to other
 * instances (see events/bus.ts): settle what a previous process left running, take a task's lease for
 * a follow-up, give it up once the task is stored, and settle a task whose instance was lost.
 */
import {
  isInterrupted,
  isTerminalOrInterrupted,
  type Message,
  type Task,
} from '../../protocol/index.js';
import type { TaskEventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { Scope, TaskStore } from '../store/task-store.js';
import { lastUserMessage } from './messages.js';
import { readVersioned } from './reapply.js';
import type { TaskRun } from './run.js';

/** The parts of the task manager these functions use. */
export interface ClusterHost {
  readonly options: {
    readonly store: TaskStore;
    readonly bus?: TaskEventBus;
    readonly logger: Logger;
  };
  readonly resumable: boolean;
  liveRun(scope: Scope, id: string): TaskRun | undefined;
  keptRun(scope: Scope, id: string): TaskRun | undefined;
  attach(scope: Scope, task: Task, version?: number): TaskRun;
  rerun(run: TaskRun, last: Message): void;
  detached(run: TaskRun): void;
  flush(run: TaskRun): Promise<void>;
}

/** The status message of a task whose instance was lost. */
export const LOST_INSTANCE_TEXT =
  'The agent instance working on this task was lost (it stopped renewing its lease) before finishing it';

/**
 * Take a task's lease for a follow-up. An interrupted task's executor may still be returning on the
 * instance that ran it: as on one instance, it gets a moment (5 s) to finish.
 */
export async function leaseFollowUp(bus: TaskEventBus, scope: Scope, task: Task): Promise<boolean> {
  const deadline = Date.now() + (isInterrupted(task.status.state) ? 5000 : 0);
  for (let i = 0; i < 200; i++) {
    if (await bus.acquire(scope, task.id)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise<void>((r) => setTimeout(r, 25).unref());
  }
  return false;
}

/**
 * Give up the lease once the task's latest state is stored: whoever takes it next (a follow-up
 * elsewhere) reads the store. Kept when another call started on the task here meanwhile.
 */
export function unleaseWhenStored(host: ClusterHost, run: TaskRun): void {
  const bus = host.options.bus;
  if (!bus) return;
  const release = (): void => {
    if (!run.busy) bus.release(run.scope, run.taskId);
  };
  host.flush(run).then(release, release);
}

/**
 * Another instance's lease on this task expired (that instance died), or no instance holds it any more:
 * take the lease, then fail the task with a status message that says so — or, for a resumable
 * executor, run it again here with its last user message. Resolves true when this instance settled it;
 * false when someone else holds the lease (its owner came back, or another survivor was first) or the
 * task had already stopped.
 */
export async function adoptLostTask(host: ClusterHost, scope: Scope, id: string): Promise<boolean> {
  if (host.liveRun(scope, id)?.busy) return false;
  const bus = host.options.bus;
  if (bus && !(await bus.acquire(scope, id))) return false;
  let keep = false;
  try {
    const read = await readVersioned(host.options.store, scope, id);
    if (!read || isTerminalOrInterrupted(read.task.status.state)) return false;
    // With a bus, a run this instance kept from an earlier turn is not live: this is a run of the stored task.
    const run = host.attach(scope, read.task, read.version);
    if (run.busy) return false; // a call started here meanwhile: it holds the lease now
    const last = host.resumable ? lastUserMessage(read.task) : undefined;
    if (last) {
      keep = true; // the new call holds the lease until the task stops
      host.rerun(run, last);
      return true;
    }
    run.failWith(LOST_INSTANCE_TEXT);
    host.detached(run);
    await host.flush(run);
    return true;
  } finally {
    if (bus && !keep && !host.keptRun(scope, id)?.busy) bus.release(scope, id);
  }
}

/**
 * After a restart or a crash, tasks the previous process left SUBMITTED or WORKING have nobody working
 * on them. Each is failed with a status message that says so — or, when the executor is resumable
 * (`recovery: 'resume'`, `agent.resumable`), handed to it again with its last user message. Returns how
 * many tasks were recovered. A shared store's unfinished tasks may be running elsewhere: left alone.
 */
export async function recoverUnfinished(host: ClusterHost): Promise<number> {
  const store = host.options.store;
  await store.ready?.();
  if (store.shared) return 0;
  const found = (await store.unfinishedTasks?.()) ?? [];
  const runs: TaskRun[] = [];
  for (const { scope, task, version } of found) {
    if (host.liveRun(scope, task.id)) continue;
    const run = host.attach(scope, task, version);
    runs.push(run);
    const last = host.resumable ? lastUserMessage(task) : undefined;
    if (last) {
      host.rerun(run, last);
      continue;
    }
    run.failWith(
      'The agent process working on this task stopped (restart or crash) before finishing it',
    );
    host.detached(run);
  }
  await Promise.allSettled(runs.map((r) => host.flush(r)));
  return runs.length;
}
