/**
 * When the bus can no longer prove who runs a task: Redis restarted empty (or was flushed), or this
 * instance was cut off for longer than a lease. The rule is that such a task ends in a state a client
 * can see — resumed, or settled — and every stream of it ends; it never stays WORKING with nobody on it.
 *
 * - {@link leaseRetaken}: this instance's lease was gone and it took the lease again. If nobody changed
 *   the task meanwhile (the stored version is the one this run last wrote), the run goes on. Otherwise
 *   another instance settled it or moved it on: the run takes the stored state, its executor stops, and
 *   whoever follows the task here sees that state, then an end.
 * - {@link leaseLost}: another instance holds the lease now: the executor stops, and whoever follows the
 *   task here ends with `Unavailable` saying so (a client subscribes again and follows it there).
 * - {@link recoverUnleased}: the bus lost every lease; tasks still SUBMITTED or WORKING in the store that
 *   no live owner took back within a lease TTL are adopted like a dead instance's (failed, or run again).
 */
import { A2AError, isTerminal } from '../../protocol/index.js';
import type { Scope } from '../store/task-store.js';
import { adoptLostTask, type ClusterHost } from './cluster.js';
import { readVersioned } from './reapply.js';
import type { TaskRun } from './run.js';

/** Most unfinished tasks one sweep looks at: each costs a lease round trip and a read. */
const MAX_SWEEP = 10_000;

/** Another instance holds the lease of a task this one runs. */
export function leaseLost(host: ClusterHost, scope: Scope, id: string): void {
  const run = host.keptRun(scope, id);
  if (!run || run.lost) return;
  run.lose(
    new A2AError(
      'Unavailable',
      `Task ${id} is now run by another instance of this agent (this one lost its lease); subscribe to the task again to follow it`,
    ),
  );
  host.detached(run);
}

/** This instance took a task's lease again after the bus had lost it: go on, or give the task up. */
export async function leaseRetaken(host: ClusterHost, scope: Scope, id: string): Promise<void> {
  const { bus, store, logger } = host.options;
  const run = host.keptRun(scope, id);
  if (!run?.busy || run.lost) {
    bus?.release(scope, id); // nothing runs it here any more
    return;
  }
  // Our own saves first: the version compared below must include them.
  await host.flush(run).catch(() => undefined);
  let read: Awaited<ReturnType<typeof readVersioned>>;
  try {
    read = await readVersioned(store, scope, id);
  } catch (err) {
    // The store cannot tell now; this instance holds the lease, and a conflicting write later is re-applied.
    logger.warn({ err, taskId: id }, 'could not re-read a task after taking its lease again');
    return;
  }
  const changed = changedElsewhere(run, read);
  if (!changed) {
    logger.warn(
      { taskId: id },
      'the event bus had lost this task lease; taken again, the task goes on',
    );
    return;
  }
  run.lose(
    new A2AError(
      'Unavailable',
      `Task ${id} was changed elsewhere while this instance could not prove it was running it; read the task again`,
    ),
    read?.task,
  );
  host.detached(run);
  bus?.release(scope, id);
}

/** Whether someone else wrote the task since this run's last save (or removed it). */
function changedElsewhere(run: TaskRun, read: Awaited<ReturnType<typeof readVersioned>>): boolean {
  if (!read) return true;
  const ours = run.saves.version;
  if (read.version !== undefined && ours !== undefined) return read.version !== ours;
  // A store without versions: only a terminal state written by someone else shows.
  return isTerminal(read.task.status.state) && !(run.task && isTerminal(run.task.status.state));
}

/** The bus lost its leases: adopt the unfinished tasks nobody took back (see the module comment). */
export async function recoverUnleased(host: ClusterHost): Promise<void> {
  const { store, logger } = host.options;
  const found = (await store.unfinishedTasks?.()) ?? [];
  let adopted = 0;
  for (const { scope, task } of found.slice(0, MAX_SWEEP)) {
    if (host.keptRun(scope, task.id)?.busy) continue; // running here: its lease was taken again
    const done = await adoptLostTask(host, scope, task.id).catch((err: unknown) => {
      logger.error({ err, taskId: task.id }, 'adopting a task the event bus lost failed');
      return false;
    });
    if (done) adopted++;
  }
  if (adopted > 0)
    logger.warn(
      { adopted, unfinished: found.length },
      'the event bus had lost its leases: tasks nobody held any more were settled here',
    );
}
