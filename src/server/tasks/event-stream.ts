/**
 * Streams of a task's events for SendStreamingMessage and SubscribeToTask (§3.1.2, §3.1.6, §3.5.2):
 * first a Task (or a single Message), then updates in order, closed at a terminal or interrupted
 * state. Each event carries its per-task sequence number, which bindings send as the SSE `id:`.
 */
import {
  A2AError,
  isTerminal,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { Scope } from '../store/task-store.js';
import { snapshotEvent } from './view.js';
import { stops } from './execution.js';
import type { TaskManager } from './manager.js';
import type { TaskRun } from './run.js';
import type { TaskEventBus } from '../events/bus.js';

/** Where a binding writes a stream: events in order, then an end, or an error and then an end. */
export interface StreamSink {
  event(event: StreamResponse, id: string): void;
  /** The stream failed after it started (e.g. the task could not be saved): write an error event. */
  error?(err: A2AError): void;
  /**
   * The stream is about to end because it carried no task event for the server's
   * `streamIdleTimeoutMs`: say why in the transport's way (`end` follows).
   */
  idle?(message: string): void;
  end(): void;
}

/** A stream ready to be written; events that arrive before `open` are buffered. */
export interface EventStream {
  open(sink: StreamSink): void;
  /** The client went away: stop listening. Safe to call more than once. */
  close(): void;
}

class BufferedStream implements EventStream {
  #sink: StreamSink | undefined;
  #buffer: Array<[StreamResponse, string]> = [];
  #ended = false;
  #finishing = false;
  #failure: A2AError | undefined;
  onClose: (() => void) | undefined;

  /**
   * @param endAtStop end the stream at a terminal or interrupted event (a subscription). A message
   * stream instead ends once its execution is done and the task is stored, so a failed save can still
   * end it with an error.
   */
  constructor(private readonly endAtStop = true) {}

  push(event: StreamResponse, id: string): void {
    if (this.#ended) return;
    if (!this.#sink) {
      // The live task keeps changing while buffered: keep the state it had at this event.
      this.#buffer.push([snapshotEvent(event), id]);
      if (this.endAtStop && stops(event)) this.#finishing = true;
      return;
    }
    this.#write(event, id);
  }

  #write(event: StreamResponse, id: string): void {
    try {
      this.#sink!.event(event, id);
    } catch {
      // An event that cannot be written (e.g. nested too deep to serialise) ends this stream with an
      // error; it must never throw into the agent's update call or the other listeners of the task.
      this.fail(
        new A2AError('Internal', 'An event of this task could not be sent; the stream ends here'),
      );
      return;
    }
    if (this.endAtStop && stops(event)) this.finish();
  }

  open(sink: StreamSink): void {
    this.#sink = sink;
    const buffered = this.#buffer;
    this.#buffer = [];
    for (const [e, id] of buffered) {
      if (this.#ended) break;
      this.#write(e, id);
    }
    if (this.#failure) this.fail(this.#failure);
    else if (this.#finishing) this.finish();
  }

  /** End the stream with an error event after what was written so far. */
  fail(err: A2AError): void {
    if (this.#ended) return;
    if (!this.#sink) {
      this.#failure = err;
      this.#finishing = true;
      return;
    }
    try {
      this.#sink.error?.(err);
    } finally {
      this.finish();
    }
  }

  /** End the stream after what was written so far. */
  finish(): void {
    if (this.#ended) return;
    if (!this.#sink) {
      this.#finishing = true;
      return;
    }
    this.#ended = true;
    this.#sink.end();
    this.close();
  }

  close(): void {
    this.#ended = true;
    const c = this.onClose;
    this.onClose = undefined;
    c?.();
  }
}

/**
 * A push config that came with the message (§3.2.2): registered for delivery when the task is created,
 * so its first event is delivered too, and stored right after the task's first save.
 */
export interface InlinePush {
  onCreated(run: TaskRun): void;
  /** Settles once the config is stored; rejects when that failed. */
  stored(): Promise<void>;
}

async function forMessage(
  tasks: TaskManager,
  req: SendMessageRequest,
  scope: Scope,
  cc: CallContext,
  push?: InlinePush,
): Promise<EventStream> {
  const stream = new BufferedStream(false);
  const exec = await tasks.send(
    req,
    scope,
    cc,
    (event, seq) => stream.push(event, String(seq)),
    push?.onCreated,
  );
  await exec.first;
  if (!exec.run.task && !exec.run.reply)
    throw exec.run.error ?? new A2AError('Internal', 'The agent produced no answer');
  // The client learns the task id from the first event: by then the config is a stored one (§3.1.8–3.1.10).
  if (push && exec.run.task) await push.stored();
  // The stream ends when the task stops and its state is stored; a failed save ends it with an error,
  // and so does a run this instance lost to another one.
  void exec.done
    .then(() => (exec.failure ? Promise.reject(exec.failure) : tasks.flush(exec.run)))
    .then(
      () => stream.finish(),
      (err: unknown) =>
        stream.fail(err instanceof A2AError ? err : new A2AError('Internal', 'The stream failed')),
    );
  return stream;
}

/**
 * A subscription: from the run in this process when it runs here (and, for a resume, still holds the
 * events after Last-Event-ID); otherwise, with a bus, from the task's events on the bus.
 */
function forSubscription(
  tasks: TaskManager,
  task: Task,
  scope: Scope,
  lastEventId?: string,
): EventStream | Promise<EventStream> {
  const bus = tasks.options.bus;
  if (bus) {
    const live = tasks.liveRun(scope, task.id);
    const here =
      live?.busy &&
      (lastEventId === undefined ||
        (/^\d+$/.test(lastEventId) && live.eventsAfter(Number(lastEventId)) !== undefined));
    if (!here) return fromBus(tasks, bus, task, scope, lastEventId);
  }
  return fromRun(tasks, task, scope, lastEventId);
}

/**
 * The task's events as another instance published them. A new subscription opens with the stored
 * task, read after the position on the bus was fixed, so it never lacks an event that follows it.
 */
async function fromBus(
  tasks: TaskManager,
  bus: TaskEventBus,
  task: Task,
  scope: Scope,
  lastEventId?: string,
): Promise<EventStream> {
  const sub = await bus.subscribe(scope, task.id, lastEventId);
  const stream = new BufferedStream();
  if (!sub.resumed) {
    const current =
      (await tasks.options.store.getTask(scope, task.id).catch(() => undefined)) ?? task;
    if (isTerminal(current.status.state)) {
      sub.close();
      throw new A2AError(
        'UnsupportedOperation',
        `Task ${task.id} is ${current.status.state}; subscribing needs a task that is not in a terminal state`,
      );
    }
    stream.push({ task: current }, sub.headId || '0');
  }
  stream.onClose = () => sub.close();
  // A task's creation is on the bus too; a subscriber read it as this stream's opening Task (or, when
  // resuming, in its earlier stream), so it never comes again mid-stream.
  sub.start({
    event: (e, id) => 'task' in e || stream.push(e, id),
    error: (err) => stream.fail(err),
  });
  return stream;
}

function fromRun(tasks: TaskManager, task: Task, scope: Scope, lastEventId?: string): EventStream {
  const run = tasks.attach(scope, task);
  const resumeFrom =
    lastEventId !== undefined && /^\d+$/.test(lastEventId) ? Number(lastEventId) : undefined;
  const missed = resumeFrom !== undefined ? run.eventsAfter(resumeFrom) : undefined;
  const current = run.task ?? task;
  if (isTerminal(current.status.state) && !missed) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${task.id} is ${current.status.state}; subscribing needs a task that is not in a terminal state`,
    );
  }
  const stream = new BufferedStream();
  // A resume continues the earlier stream (which began with the Task); a new subscription starts with it.
  if (missed) {
    for (const { seq, event } of missed) stream.push(event, String(seq));
  } else {
    stream.push({ task: current }, String(run.seq));
  }
  if (isTerminal(current.status.state)) {
    stream.finish();
    return stream;
  }
  const unlisten = run.listen(
    (event, seq) => stream.push(event, String(seq)),
    true,
    (err) => stream.fail(err),
  );
  stream.onClose = () => {
    unlisten();
    tasks.detached(run);
  };
  return stream;
}

export const openRunStream = { forMessage, forSubscription };
