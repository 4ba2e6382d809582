/**
 * Follow one task's lifecycle by whatever the agent's card allows: a stream when it streams,
 * otherwise push notifications to the planner's webhook with GetTask polling (with backoff)
 * as the fallback. Returns the task once it is terminal or waiting for input.
 */
import { randomUUID } from 'node:crypto';
import {
  isInterrupted,
  isTerminal,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  textOf as messageText,
} from 'a2a-kit';
import type { AgentFacts } from './discovery.js';
import type { StateSource } from './events.js';
import { artifactSummary, type Transcript } from './transcript.js';
import type { PlannerWebhook } from './webhook.js';

export interface FollowOptions {
  webhook: PlannerWebhook | undefined;
  timeoutMs: number;
  /** Continue this task (a follow-up message). */
  taskId?: string;
  contextId?: string;
  /** Aborts the wait (Ctrl-C); the caller decides what happens to the task. */
  signal?: AbortSignal;
  /** Told the task's id as soon as it is known, so an interrupted wait knows what to cancel. */
  onTask?: (taskId: string) => void;
}

/** The time limit of one wait, and the caller's own signal (Ctrl-C) when it has one. */
function waitSignal(opts: FollowOptions): AbortSignal {
  // Not AbortSignal.timeout under AbortSignal.any: Node 20 lets the collector take that timer, and the
  // wait would never end. The timer below holds its controller until it fires.
  const limit = new AbortController();
  const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  setTimeout(() => limit.abort(timeout), opts.timeoutMs).unref();
  return opts.signal ? AbortSignal.any([limit.signal, opts.signal]) : limit.signal;
}

export function userMessage(
  parts: Part[],
  opts: { taskId?: string; contextId?: string } = {},
): Message {
  return { messageId: randomUUID(), role: 'ROLE_USER', parts, ...opts };
}

const stopped = (t: Task): boolean => isTerminal(t.status.state) || isInterrupted(t.status.state);

/** Send `parts` to the agent and follow the task until it stops; prints every event. Errors name the agent. */
export async function sendAndFollow(
  agent: AgentFacts,
  parts: Part[],
  t: Transcript,
  opts: FollowOptions,
): Promise<Task> {
  try {
    return await follow(agent, parts, t, opts);
  } catch (err) {
    const msg = (err as Error).message;
    if (msg.startsWith(`${agent.card.name} `) || msg.startsWith(`${agent.card.name}:`)) throw err;
    throw new Error(`${agent.card.name}: ${msg}`, { cause: err });
  }
}

async function follow(
  agent: AgentFacts,
  parts: Part[],
  t: Transcript,
  opts: FollowOptions,
): Promise<Task> {
  const message = userMessage(parts, {
    ...(opts.taskId ? { taskId: opts.taskId } : {}),
    ...(opts.contextId ? { contextId: opts.contextId } : {}),
  });
  const signal = waitSignal(opts);
  if (opts.taskId) opts.onTask?.(opts.taskId);
  if (agent.streams) {
    t.note(`${agent.card.name} streams → SendStreamingMessage`);
    let taskId = opts.taskId;
    for await (const ev of agent.client.sendStreamingMessage({ message }, { signal })) {
      print(ev, t);
      if ('task' in ev && taskId !== ev.task.id) {
        taskId = ev.task.id;
        opts.onTask?.(taskId);
      }
      if ('message' in ev) throw new Error(`${agent.card.name} answered: ${textOf(ev.message)}`);
    }
    if (!taskId) throw new Error(`${agent.card.name} closed the stream without a task`);
    return agent.client.getTask(taskId);
  }
  const webhook = agent.push ? opts.webhook : undefined;
  if (!opts.taskId) {
    t.note(
      webhook
        ? `${agent.card.name} does not stream → SendMessage (returnImmediately) + push notifications to the webhook; polling as fallback`
        : `${agent.card.name} does not stream and takes no push → SendMessage (returnImmediately) + polling GetTask`,
    );
  }
  const res = await agent.client.sendMessage(
    {
      message,
      configuration: {
        returnImmediately: true,
        ...(webhook && !opts.taskId
          ? { taskPushNotificationConfig: { url: webhook.url, token: webhook.token } }
          : {}),
      },
    },
    { signal },
  );
  if ('message' in res) throw new Error(`${agent.card.name} answered: ${textOf(res.message)}`);
  opts.onTask?.(res.task.id);
  t.item(`SendMessage → task ${res.task.id.slice(0, 8)} ${t.state(res.task.status.state)}`, {
    kind: 'state',
    taskId: res.task.id,
    state: res.task.status.state,
    via: 'SendMessage',
  });
  return waitForStop(agent, res.task, webhook, t, signal);
}

/**
 * Wait until the task stops. Push notifications are printed as they come; GetTask polling (with
 * backoff) runs beside them so a lost notification never hangs the pipeline. Once the task is known
 * to have stopped, the notification saying so is given a moment to arrive, so the transcript shows it.
 */
async function waitForStop(
  agent: AgentFacts,
  initial: Task,
  webhook: PlannerWebhook | undefined,
  t: Transcript,
  signal: AbortSignal,
): Promise<Task> {
  // Stop notifications only wake the poller up; GetTask decides. A late one from before a follow-up
  // (say INPUT_REQUIRED, replayed from the webhook's mailbox) must cost one GetTask, not a busy loop.
  const announced = new Set<string>();
  let stops = 0;
  let wake: (() => void) | undefined;
  const off = webhook?.on(initial.id, (ev) => {
    print(ev, t, 'push');
    if (
      'statusUpdate' in ev &&
      (isTerminal(ev.statusUpdate.status.state) || isInterrupted(ev.statusUpdate.status.state))
    ) {
      announced.add(ev.statusUpdate.status.state);
      stops++;
      wake?.();
    }
  });
  try {
    let task = initial;
    let delay = webhook ? 1000 : 250;
    let handled = 0;
    for (let i = 0; i < 10_000 && !stopped(task); i++) {
      const tick =
        stops > handled
          ? ('push' as const)
          : await Promise.race([
              new Promise<'push'>((r) => (wake = () => r('push'))),
              sleep(delay, signal).then(() => 'poll' as const),
            ]);
      wake = undefined;
      handled = stops;
      task = await agent.client.getTask(initial.id, { signal });
      if (tick === 'poll')
        t.note(`(GetTask) ${task.status.state.replace('TASK_STATE_', '')}`, {
          kind: 'state',
          taskId: task.id,
          state: task.status.state,
          via: 'poll',
        });
      delay = Math.min(delay * 2, 2000);
    }
    if (!stopped(task)) throw new Error(`gave up waiting for task ${initial.id}`);
    const final = task.status.state;
    if (webhook && !announced.has(final)) {
      // Only for the transcript: give the notification of the final state a moment to arrive.
      const heard = new Promise<void>((r) => (wake = () => announced.has(final) && r()));
      await Promise.race([heard, sleep(1500, signal)]).catch(() => undefined);
    }
    return task;
  } finally {
    wake = undefined;
    off?.();
  }
}

/**
 * Cancel a task and show the outcome. With a webhook, the notification of the cancel is waited for
 * (briefly) so the agent is not left pushing to a webhook the planner has already closed.
 */
export async function cancelAndFollow(
  agent: AgentFacts,
  task: Task,
  t: Transcript,
  opts: FollowOptions,
): Promise<Task> {
  const webhook = agent.push ? opts.webhook : undefined;
  let wake: (() => void) | undefined;
  let heard = false;
  const off = webhook?.on(task.id, (ev) => {
    print(ev, t, 'push');
    if ('statusUpdate' in ev && ev.statusUpdate.status.state === 'TASK_STATE_CANCELED') {
      heard = true;
      wake?.();
    }
  });
  try {
    const signal = waitSignal(opts);
    const canceled = await agent.client.cancelTask(task.id, { signal }).catch((err: unknown) => {
      throw new Error(`${agent.card.name}: CancelTask failed: ${(err as Error).message}`, {
        cause: err,
      });
    });
    t.item(`CancelTask → task ${canceled.id.slice(0, 8)} ${t.state(canceled.status.state)}`, {
      kind: 'state',
      taskId: canceled.id,
      state: canceled.status.state,
      via: 'CancelTask',
    });
    if (webhook && !heard)
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(1500, signal)]).catch(
        () => undefined,
      );
    return canceled;
  } finally {
    wake = undefined;
    off?.();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A message's text on one transcript line ('' for no message). */
export function textOf(m: Message | undefined): string {
  return m ? messageText(m).replace(/\n/g, ' ') : '';
}

/**
 * One event on one line. An artifact is shown with its first text line; a status text already shown for
 * the task (the same words as its artifact, or a notification repeating a polled state) is left out.
 */
function print(
  ev: StreamResponse,
  t: Transcript,
  via: Extract<StateSource, 'stream' | 'push'> = 'stream',
): void {
  const tag = via === 'push' ? t.style(`[${via}] `, 'dim') : '';
  if ('task' in ev) {
    const { id, status } = ev.task;
    t.item(`${tag}task ${id.slice(0, 8)} ${t.state(status.state)}`, {
      kind: 'state',
      taskId: id,
      state: status.state,
      via,
    });
  } else if ('statusUpdate' in ev) {
    const { taskId, status: s } = ev.statusUpdate;
    const text = textOf(s.message);
    const fresh = text !== '' && t.once(`${taskId}/text/${text}`);
    t.item(`${tag}${t.state(s.state)}${fresh ? `  ${text}` : ''}`, {
      kind: 'state',
      taskId,
      state: s.state,
      via,
      ...(fresh ? { text } : {}),
    });
  } else if ('artifactUpdate' in ev) {
    const { artifact: a, taskId, append, lastChunk } = ev.artifactUpdate;
    const name = a.name ?? a.artifactId;
    if (append || lastChunk === false) {
      t.item(`${tag}artifact ${name} (chunk)`, {
        kind: 'artifact',
        taskId,
        name,
        via,
        chunk: true,
      });
      return;
    }
    const summary = artifactSummary(a);
    t.once(`${taskId}/artifact/${a.artifactId}`);
    t.once(`${taskId}/text/${summary}`);
    t.item(`${tag}artifact ${name}: ${summary}`, {
      kind: 'artifact',
      taskId,
      name,
      via,
      text: summary,
    });
  } else t.item(`${tag}message: ${textOf(ev.message)}`);
}
