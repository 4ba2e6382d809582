/**
 * Watching a task: printing a stream's events as they come (one line each, or NDJSON), or polling
 * GetTask when the agent does not stream, until the task finishes or waits for the caller. Shared
 * by `send` and `subscribe`; what they learn about the task is kept in a {@link TaskTracker}.
 */
import {
  isInterrupted,
  isTerminal,
  type Message,
  type StreamResponse,
  type Task,
  type TaskState,
} from 'a2a-kit';
import { isA2AError, type A2AClient } from 'a2a-kit/client';
import { ArtifactCollector, joinTextChunks } from './artifacts.js';
import type { CommandContext } from './command.js';
import { eventLine, stateName, statusLine, textLine } from './render.js';

/** What has been seen of one task. */
export class TaskTracker {
  /** The task's id, once known. */
  taskId: string | undefined;
  /** Its context. */
  contextId: string | undefined;
  /** The last state seen. */
  state: TaskState | undefined;
  /** The message of the last status (an INPUT_REQUIRED question, a failure reason). */
  status: Message | undefined;
  /** A direct reply, when the agent answered with a message instead of a task. */
  reply: Message | undefined;
  /** The artifacts, chunks joined. */
  readonly artifacts = new ArtifactCollector();
  /** The id of the last stream event, for `--last-event-id`. */
  lastEventId: string | undefined;
  #announced = false;

  /** Learns from one event; returns the line announcing the task when this event is the first to name it. */
  apply(ev: StreamResponse): string | undefined {
    let id: string | undefined;
    if ('task' in ev) {
      this.#snapshot(ev.task);
      this.#announced = true;
    } else if ('statusUpdate' in ev) {
      ({ taskId: id, contextId: this.contextId } = ev.statusUpdate);
      this.state = ev.statusUpdate.status.state;
      this.status = ev.statusUpdate.status.message;
    } else if ('artifactUpdate' in ev) {
      ({ taskId: id, contextId: this.contextId } = ev.artifactUpdate);
      this.artifacts.addEvent(ev.artifactUpdate);
    } else this.reply = ev.message;
    if (id !== undefined) this.taskId = id;
    if (id === undefined || this.#announced) return undefined;
    this.#announced = true;
    return `task ${id} (context ${this.contextId})`;
  }

  #snapshot(task: Task): void {
    this.taskId = task.id;
    this.contextId = task.contextId;
    this.state = task.status.state;
    this.status = task.status.message;
    this.artifacts.addTask(task);
  }

  /** True once the task is final or waits for the caller (nothing more will come without action). */
  get settled(): boolean {
    return (
      this.reply !== undefined ||
      (this.state !== undefined && (isTerminal(this.state) || isInterrupted(this.state)))
    );
  }
}

/** Prints one event as a line (or an NDJSON line with `--json`) and feeds the tracker. */
export function show(ctx: CommandContext, tracker: TaskTracker, ev: StreamResponse): void {
  const again = 'task' in ev && tracker.taskId === ev.task.id;
  const unchanged =
    again &&
    ev.task.status.state === tracker.state &&
    textLine(ev.task.status.message?.parts) === textLine(tracker.status?.parts);
  const announce = tracker.apply(ev);
  if (ctx.json) return ctx.term.ndjson(ev);
  const p = ctx.term.out;
  if (announce) ctx.term.line(p.dim(announce));
  // A task already introduced (a follow-up turn) needs only its state, and only if that says something new.
  if (unchanged) return;
  ctx.term.line(
    again && 'task' in ev
      ? statusLine(p, ev.task.status.state, ev.task.status.message)
      : eventLine(p, ev),
  );
}

/** The spinner's label while waiting for the next event. */
function waitingLabel(agent: string, tracker: TaskTracker): string {
  return tracker.state ? `${agent} · ${stateName(tracker.state)}` : `waiting for ${agent}`;
}

/** Prints a stream until it ends; the task's state is then in the tracker. */
export async function consume(
  ctx: CommandContext,
  agent: string,
  tracker: TaskTracker,
  events: AsyncIterable<StreamResponse>,
): Promise<void> {
  ctx.term.waiting(waitingLabel(agent, tracker));
  ctx.idle.touch();
  try {
    for await (const ev of events) {
      ctx.idle.touch();
      show(ctx, tracker, ev);
      ctx.term.waiting(waitingLabel(agent, tracker));
    }
  } finally {
    ctx.idle.stop();
    ctx.term.done();
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** What a poll shows: the state, the status text and the artifacts (a change in any is worth a line). */
const fingerprint = (t: Task) =>
  JSON.stringify([
    t.status.state,
    textLine(t.status.message?.parts),
    (t.artifacts ?? []).map((a) => [a.artifactId, a.parts.length]),
  ]);

/**
 * Polls GetTask (every 250 ms, slowing to every 2 s) until the task settles, printing each change as a
 * task snapshot event. Ends with the signal: Ctrl-C, --timeout, or --idle-timeout when nothing changes.
 */
export async function poll(
  ctx: CommandContext,
  client: A2AClient,
  agent: string,
  tracker: TaskTracker,
  seen?: Task,
): Promise<void> {
  let last = seen ? fingerprint(seen) : '';
  let delay = 250;
  ctx.term.waiting(waitingLabel(agent, tracker));
  ctx.idle.touch();
  try {
    while (!tracker.settled) {
      await sleep(delay, ctx.signal);
      delay = Math.min(2000, Math.round(delay * 1.5));
      const task = await client.getTask({ id: tracker.taskId! }, { signal: ctx.signal });
      const now = fingerprint(task);
      if (now !== last) {
        ctx.idle.touch();
        last = now;
        const ev = { task };
        if (ctx.json) {
          tracker.apply(ev);
          ctx.term.ndjson(ev);
        } else showChange(ctx, tracker, task);
      }
      ctx.term.waiting(waitingLabel(agent, tracker));
    }
  } finally {
    ctx.idle.stop();
    ctx.term.done();
  }
}

/** A polled snapshot as the lines a stream would have given: each artifact not seen before, and the status. */
function showChange(ctx: CommandContext, tracker: TaskTracker, task: Task): void {
  const before = new Map(tracker.artifacts.all.map((a) => [a.artifactId, a.parts.length]));
  const p = ctx.term.out;
  const changed =
    task.status.state !== tracker.state ||
    textLine(task.status.message?.parts) !== textLine(tracker.status?.parts);
  tracker.apply({ task });
  // Artifacts first: a stream delivers them before the final status, and the transcript should read the same.
  for (const a of task.artifacts ?? []) {
    if (before.get(a.artifactId) !== joinTextChunks(a.parts).length)
      ctx.term.line(
        eventLine(p, {
          artifactUpdate: { taskId: task.id, contextId: task.contextId, artifact: a },
        }),
      );
  }
  if (changed)
    ctx.term.line(
      eventLine(p, {
        statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status },
      }),
    );
}

/**
 * Follows a task that is not settled yet: through SubscribeToTask when the agent streams, else by
 * polling. `seen` is the snapshot already shown.
 */
export async function follow(
  ctx: CommandContext,
  client: A2AClient,
  agent: string,
  tracker: TaskTracker,
  seen?: Task,
): Promise<void> {
  if (tracker.settled || tracker.taskId === undefined) return;
  if (!client.capabilities.streaming) return poll(ctx, client, agent, tracker, seen);
  return subscribe(ctx, client, agent, tracker, {}, seen);
}

/**
 * SubscribeToTask, printed. The agent refuses to subscribe to a task that has finished (§3.1.6) — it
 * may have finished a moment ago — and then the finished task, fetched with GetTask, is what is shown.
 */
export async function subscribe(
  ctx: CommandContext,
  client: A2AClient,
  agent: string,
  tracker: TaskTracker,
  options: { lastEventId?: string; onEventId?: (id: string) => void },
  seen?: Task,
): Promise<void> {
  const id = tracker.taskId!;
  let events = 0;
  const onEventId = (eid: string) => {
    events++;
    tracker.lastEventId = eid;
    options.onEventId?.(eid);
  };
  const stream = client.subscribeToTask(
    { id },
    {
      signal: ctx.signal,
      onEventId,
      ...(options.lastEventId ? { lastEventId: options.lastEventId } : {}),
    },
  );
  try {
    await consume(ctx, agent, tracker, skipFirstSnapshot(stream, seen));
  } catch (err) {
    if (!isA2AError(err) || err.kind !== 'UnsupportedOperation' || events > 0) throw err;
    const task = await client.getTask({ id }, { signal: ctx.signal }).catch(() => undefined);
    if (!task || !isTerminal(task.status.state)) throw err;
    if (ctx.json) {
      tracker.apply({ task });
      ctx.term.ndjson({ task });
    } else showChange(ctx, tracker, task);
  }
}

/** A subscription starts with the task as it is now; when that is what was just shown, it is not shown again. */
async function* skipFirstSnapshot(
  events: AsyncIterable<StreamResponse>,
  seen: Task | undefined,
): AsyncGenerator<StreamResponse> {
  let first = true;
  for await (const ev of events) {
    const repeat = first && seen && 'task' in ev && fingerprint(ev.task) === fingerprint(seen);
    first = false;
    if (!repeat) yield ev;
  }
}
