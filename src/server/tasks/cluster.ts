/**
 * What the task manager does differently with a bus to other instances (see events/bus.ts): take a
 * task's lease for a follow-up, give it up once the task is stored, and settle a task whose
 * instance was lost. Kept apart so that a single instance reads none of it.
 */
import { isInterrupted, type Message, type Task } from '../../protocol/index.js';
import type { TaskEventBus } from '../events/bus.js';
import type { Scope, TaskStore } from '../store/task-store.js';
import { stopsAt } from './execution.js';
import { failWithNote, lastUserMessage } from './messages.js';
import type { TaskRun } from './run.js';

/** The parts of the task manager these functions use. */
export interface ClusterHost {
  readonly options: { readonly store: TaskStore; readonly bus?: TaskEventBus };
  readonly resumable: boolean;
  liveRun(scope: Scope, id: string): TaskRun | undefined;
  attach(scope: Scope, task: Task): TaskRun;
  rerun(run: TaskRun, last: Message): void;
  detached(run: TaskRun): void;
  flush(run: TaskRun): Promise<void>;
}

/** The status message of a task whose instance was lost. */
export const LOST_INSTANCE_TEXT = 'The agent instance working on this task was lost (it stopped renewing its lease) before finishing it';

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
    if (!run.active && !run.execution) bus.release(run.scope, run.taskId);
  };
  host.flush(run).then(release, release);
}

/**
 * Another instance's lease on this task expired (that instance died): fail the task with a status
 * message that says so, or, for a resumable executor, run it again here with its last user message.
 */
export async function adoptLostTask(host: ClusterHost, scope: Scope, id: string): Promise<void> {
  const live = host.liveRun(scope, id);
  if (live?.active || live?.execution) return;
  const task = await host.options.store.getTask(scope, id);
  if (!task || stopsAt(task.status.state)) return;
  // With a bus, a run this instance kept from an earlier turn is not live: this is a run of the stored task.
  const run = host.attach(scope, task);
  const last = host.resumable ? lastUserMessage(task) : undefined;
  if (last && (await host.options.bus?.acquire(scope, id)) !== false) {
    host.rerun(run, last);
    return;
  }
  failWithNote(run, LOST_INSTANCE_TEXT);
  host.detached(run);
  await host.flush(run);
}
