/**
 * A message for a task that exists (§3.3.3, §3.4.3). The rules, in the order they are applied:
 *
 * 1. An unknown task is TaskNotFound; a terminal one accepts nothing (§3.1.1); a `contextId` that
 *    contradicts the task's is invalid.
 * 2. With a bus, the instance that receives the message runs it, once it holds the task's lease; an
 *    interrupted task's lease gets a moment to come free, a running one elsewhere is refused saying so.
 * 3. Executor calls on one task never overlap: while the agent is still in a call on the task, the
 *    message waits (`followUpWaitMs`, 5 s) for it to return, and is refused saying so after.
 * 4. A task still SUBMITTED or WORKING (its agent returned and finishes it later, or the previous call
 *    just returned) takes the message in a new executor call — unless the executor declares
 *    `workingFollowUps = 'refuse'`; an interrupted task always takes it.
 * 5. The message joins the history (within the task's limits) before the agent is called.
 */
import {
  A2AError,
  isInterrupted,
  type SendMessageRequest,
  type Task,
  type TaskState,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { Scope } from '../store/task-store.js';
import { execute, type CallHost } from './calls.js';
import { leaseFollowUp } from './cluster.js';
import type { Execution } from './execution.js';
import type { TaskLimits } from './limits.js';
import { ownMessage, refuseTerminal } from './messages.js';
import { readVersioned } from './reapply.js';
import type { RunListener, TaskRun } from './run.js';

/** How long a follow-up waits for the agent's previous call on the task to return, by default (ms). */
export const FOLLOW_UP_WAIT_MS = 5000;

/** What a follow-up needs from the task manager. */
export interface FollowUpHost extends CallHost {
  readonly limits: Readonly<Required<TaskLimits>>;
  liveRun(scope: Scope, id: string): TaskRun | undefined;
  attach(scope: Scope, task: Task, version?: number): TaskRun;
}

/** Hand a follow-up to the agent (see the rules above); `listener` (a stream) starts with the task. */
export async function continueTask(
  host: FollowUpHost,
  taskId: string,
  req: SendMessageRequest,
  scope: Scope,
  cc: CallContext,
  listener?: RunListener,
  onCreated?: (run: TaskRun) => void,
): Promise<Execution> {
  const incoming = req.message;
  // The live run is ahead of the store (saves are queued), e.g. right after a cancel.
  const live = host.liveRun(scope, taskId);
  const read = live ? undefined : await readVersioned(host.options.store, scope, taskId);
  const existing = live?.task ?? read?.task;
  if (!existing) throw A2AError.taskNotFound(taskId);
  refuseTerminal(existing);
  if (incoming.contextId && incoming.contextId !== existing.contextId) {
    throw A2AError.invalidParams([
      {
        field: 'message.contextId',
        description: `does not match the context of task ${existing.id}`,
      },
    ]);
  }
  refuseWhileWorking(host, existing.id, existing.status.state);
  const bus = host.options.bus;
  if (bus && !(await leaseFollowUp(bus, scope, existing))) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${existing.id} is ${existing.status.state} on another instance of this agent, which holds it until it stops or asks for input; send the message again later`,
    );
  }
  const run = host.attach(scope, live?.task ?? existing, read?.version);
  try {
    await previousCall(run, host.options.followUpWaitMs ?? FOLLOW_UP_WAIT_MS);
    // Nothing below waits: no other follow-up can claim the run between these checks and the call.
    const task = run.task ?? existing;
    refuseTerminal(task);
    refuseWhileWorking(host, task.id, task.status.state);
    const message = ownMessage(incoming, run);
    run.accept(message, host.limits);
    if (onCreated) run.whenCreated(onCreated);
    // A stream of a follow-up starts with the task as it is now, before the agent changes it (§3.1.2).
    listener?.({ task: run.task! }, run.seq);
    return execute(host, run, message, req, cc, listener);
  } catch (err) {
    // A refused message leaves the lease as it was: held only while a call is on the task here.
    if (bus && !run.busy) bus.release(scope, existing.id);
    throw err;
  }
}

/** Wait (bounded) until no executor call runs on the task; refuse when one still does. */
async function previousCall(run: TaskRun, waitMs: number): Promise<void> {
  if (!run.active) return;
  const deadline = Date.now() + waitMs;
  // Each turn ends when a call returns; another follow-up may then have claimed the run first.
  for (let i = 0; run.active && i < 1000; i++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      run.calls.settled,
      new Promise<void>((r) => (timer = setTimeout(r, left).unref())),
    ]);
    clearTimeout(timer);
  }
  if (run.active) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${run.taskId}: the agent is still handling an earlier message (its call has not returned within ${waitMs / 1000} s); send this one again later`,
    );
  }
}

/** Rule 4: an executor that takes messages only when it asks for them. */
function refuseWhileWorking(host: FollowUpHost, id: string, state: TaskState): void {
  if (isInterrupted(state) || host.options.executor.workingFollowUps !== 'refuse') return;
  throw new A2AError(
    'UnsupportedOperation',
    `Task ${id} is ${state}; this agent takes a message for a task only when it asks for input. Wait for TASK_STATE_INPUT_REQUIRED, or start a new task`,
  );
}
