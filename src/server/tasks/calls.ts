/**
 * One executor call on a task: claimed on the run, the agent called directly (a synchronous agent is
 * done before `execute` returns), and what happens when it returns or throws. The call keeps following
 * its task after the agent returned (an agent may finish it later from a queue); with `idleTimeoutMs`
 * such a task fails once it has had no event for that long.
 */
import {
  A2AError,
  isTerminal,
  isTerminalOrInterrupted,
  type Message,
  type SendMessageRequest,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import { Execution, type ExecutionOwner } from './execution.js';
import type { TaskManagerOptions } from './options.js';
import type { RunListener, TaskRun } from './run.js';
import { RunContext, RunUpdater } from './updater.js';
import { warnIfLeftUnfinished } from './unfinished.js';

/** What a call needs from the task manager. */
export interface CallHost extends ExecutionOwner {
  readonly options: TaskManagerOptions;
  /** The agent returned and the task stopped: give the run (and its lease) up once nothing needs it. */
  settle(run: TaskRun): void;
}

/** Call the executor with `message` on `run`; `listener` (a stream) sees every event from now on. */
export function execute(
  host: CallHost,
  run: TaskRun,
  message: Message,
  req: SendMessageRequest,
  cc: CallContext,
  listener?: RunListener,
): Execution {
  const exec = new Execution(run, host);
  run.calls.claim(exec);
  if (listener) exec.unlisten = run.listen(listener, true);
  const bus = host.options.bus;
  if (bus && !run.task) {
    // A new task: its id is fresh, so nobody else can hold its lease; taken without waiting.
    bus
      .acquire(run.scope, run.taskId)
      .catch((err: unknown) =>
        host.options.logger.warn({ err, taskId: run.taskId }, 'taking the task lease failed'),
      );
  }
  const end = (err?: unknown, threw = false): void => {
    run.calls.returned();
    if (threw) failed(host, run, err);
    else if (!run.task && !run.reply) {
      failed(
        host,
        run,
        new A2AError(
          'InvalidAgentResponse',
          'The agent finished without replying or creating a task',
        ),
      );
    }
    exec.returned();
    if (exec.finished) host.settle(run);
    else {
      watchIdle(host, run);
      warnIfLeftUnfinished(run, host.options);
    }
  };
  let result: void | Promise<void>;
  try {
    result = host.options.executor(
      new RunContext(run, message, req, cc),
      new RunUpdater(run, message),
    );
  } catch (err) {
    end(err, true);
    return exec;
  }
  if (result && typeof result.then === 'function') {
    run.calls.calling(
      Promise.resolve(result).then(
        () => end(),
        (err: unknown) => end(err, true),
      ),
    );
  } else {
    end();
  }
  return exec;
}

/**
 * With `idleTimeoutMs`, a task whose agent returned without finishing it fails after that long
 * without an event, with a status message that says so: a forgotten `complete()` shows up as a
 * FAILED task instead of a client-side timeout.
 */
function watchIdle(host: CallHost, run: TaskRun): void {
  const ms = host.options.idleTimeoutMs;
  if (!ms) return;
  run.calls.watchIdle();
  const check = (): void => {
    const task = run.task;
    if (!task || run.active || !run.calls.followed || isTerminalOrInterrupted(task.status.state))
      return;
    const idle = Date.now() - run.calls.lastEventAt;
    if (idle < ms) {
      setTimeout(check, ms - idle).unref();
      return;
    }
    run.failWith(
      `The agent stopped updating this task: no event for ${Math.round(ms / 1000)} s after it returned without finishing it`,
    );
    run.calls.abort(new Error('idle limit reached'));
  };
  setTimeout(check, ms).unref();
}

/** The executor threw: the task fails (its text only when the agent threw an A2AError on purpose). */
function failed(host: CallHost, run: TaskRun, err: unknown): void {
  const a2a = err instanceof A2AError ? err : undefined;
  if (!a2a) host.options.logger.error({ err, taskId: run.taskId }, 'agent executor failed');
  if (run.task && !isTerminal(run.task.status.state)) {
    run.failWith(a2a ? a2a.message : 'The agent failed while processing the task');
  } else if (!run.task && !run.reply) {
    run.failBeforeTask(
      a2a ?? new A2AError('Internal', 'The agent failed while processing the message'),
    );
  }
}
