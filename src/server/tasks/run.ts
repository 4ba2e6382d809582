/**
 * The live side of one task: applies the agent's updates to the task (state machine, history,
 * artifact chunks), numbers every event, fans it out to listeners in order, and keeps a short
 * replay buffer so a stream that reconnects with Last-Event-ID gets what it missed.
 */
import { newId } from '../util/ids.js';
import { plainCopy } from '../util/plain-copy.js';
import {
  A2AError,
  isTerminal,
  type Artifact,
  type JsonObject,
  type Message,
  type StreamResponse,
  type TaskArtifactUpdateEvent,
  type Task,
  type TaskPushNotificationConfig,
  type TaskState,
} from '../../protocol/index.js';
import { canTransition, IllegalTransitionError } from './state.js';
import type { ArtifactInit } from '../agent/executor.js';
import { sizeOfArtifact, sizeOfMessage, tooBig, type TaskLimits } from './limits.js';
import { RESOLVED } from '../util/settled.js';
import type { Scope } from '../store/task-store.js';

let isoMs = 0;
let isoText = '';
/** The current time as ISO 8601 UTC; bursts of updates in one millisecond share one string. */
function nowIso(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** Receives every event of a run, numbered from 1, in order. */
export type RunListener = (event: StreamResponse, seq: number) => void;

export interface RunHooks {
  /** Called for every event, after the task object was updated (persist, push, …). */
  onEvent(run: TaskRun, event: StreamResponse, seq: number): void;
  /** Called when the task object is first created. */
  onCreate(run: TaskRun): void;
  /**
   * The next event number. Numbers must never repeat for a task, also across runs of it (a follow-up
   * after the run was released, a restart): clients resume with Last-Event-ID and drop ids they saw.
   * Without it a run numbers its events 1, 2, 3…
   */
  nextSeq?(): number;
  /** Bounds on the task's content; none when absent. */
  readonly limits?: Readonly<Required<TaskLimits>>;
}

const REPLAY_CAPACITY = 256;

/** Whoever waits on a run's events (an Execution); kept as an interface so the run does not depend on it. */
export interface RunWatcher {
  saw(event: StreamResponse): void;
}

export class TaskRun {
  task: Task | undefined;
  /** A direct Message reply (then there is no task). */
  reply: Message | undefined;
  /** Set when the executor failed before it created a task or replied. */
  error: A2AError | undefined;
  /** Whether a stream ever listened (then the run is kept a while for resumes). */
  hadStreams = false;
  /** Called once when the task object is created, before its first event (inline push configs). */
  onCreated: ((run: TaskRun) => void) | undefined;
  /** The push config that came with the message that created the task. */
  pushConfig: TaskPushNotificationConfig | undefined;
  seq = 0;
  /** Approximate size of the task's content so far (see TaskLimits.taskBytes); 0 until first counted. */
  bytes = 0;
  /** When the last event happened (ms since epoch), kept only while the idle limit watches this run. */
  lastEventAt = 0;
  watchIdle = false;
  // Created on first use: most runs finish without anyone reading their signal.
  #abort: AbortController | undefined;
  #aborted = false;
  #abortReason: unknown;
  // Made on first listen: most runs (unary calls) never have a listener.
  #listeners: Set<RunListener> | undefined;
  /** True while an executor is handling a message for this task. */
  active = false;
  /** With a bus: another instance adopted this task (this one was taken for lost); the store is the truth. */
  lost = false;
  /** Settles when the current executor call ends. */
  settled: Promise<void> = RESOLVED;
  /** The executor call in progress (until the task stops, not until the agent returns), told of every event. */
  execution: RunWatcher | undefined;
  /** Persistence bookkeeping of the task manager: a change not yet saved, and the save in flight. */
  dirty = false;
  saving: Promise<TaskRun | undefined> | undefined;
  /**
   * The store version of the task this run last read or wrote (0: not stored yet); a save carries it so a
   * concurrent change is detected. Undefined when unknown (then the first save re-reads and merges).
   */
  version: number | undefined;
  /** Why the latest save failed; cleared by the next successful one. */
  saveError: unknown;
  /** Once a stream has listened, events are kept for Last-Event-ID replay. */
  #replay: Array<{ seq: number; event: StreamResponse }> | undefined;
  /** The event number just before the oldest buffered event (a client that saw it gets the whole buffer). */
  #replayFrom = 0;

  constructor(
    readonly scope: Scope,
    readonly taskId: string,
    readonly contextId: string,
    readonly hooks: RunHooks,
    existing?: Task,
  ) {
    this.task = existing;
    // The state the run starts from gets a number of its own: a Task snapshot sent before any event carries it.
    this.seq = hooks.nextSeq?.() ?? 0;
  }

  /** Subscribe; returns the unsubscribe function. A stream asks for a replay buffer for resumes. */
  listen(listener: RunListener, stream = false): () => void {
    if (stream) {
      this.hadStreams = true;
      if (!this.#replay) {
        this.#replay = [];
        this.#replayFrom = this.seq;
      }
    }
    const set = (this.#listeners ??= new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Whether anyone (a stream, a subscription) is listening. */
  get listening(): boolean {
    return this.#listeners !== undefined && this.#listeners.size > 0;
  }

  /** Events after `seq`, or undefined when the buffer no longer reaches back that far. */
  eventsAfter(seq: number): Array<{ seq: number; event: StreamResponse }> | undefined {
    if (seq === this.seq) return [];
    const buf = this.#replay;
    if (!buf) return undefined;
    if (seq === this.#replayFrom) return buf.slice();
    // Numbers are not consecutive (they are shared by all runs), so only an id we sent can be resumed from.
    const i = buf.findIndex((e) => e.seq === seq);
    return i < 0 ? undefined : buf.slice(i + 1);
  }

  get state(): TaskState | undefined {
    return this.task?.status.state;
  }

  emit(event: StreamResponse): void {
    if (this.watchIdle) this.lastEventAt = Date.now();
    const seq = (this.seq = this.hooks.nextSeq?.() ?? this.seq + 1);
    if (this.#replay) {
      this.#replay.push({ seq, event });
      if (this.#replay.length > REPLAY_CAPACITY) this.#replayFrom = this.#replay.shift()!.seq;
    }
    this.hooks.onEvent(this, event, seq);
    if (this.#listeners) for (const l of this.#listeners) l(event, seq);
    this.execution?.saw(event);
  }

  /** Create the task object (SUBMITTED) with the first message in its history. */
  create(first: Message): Task {
    if (this.task) return this.task;
    if (this.reply)
      throw new Error('the agent already replied with a message; it cannot also create a task');
    this.task = {
      id: this.taskId,
      contextId: this.contextId,
      status: { state: 'TASK_STATE_SUBMITTED', timestamp: nowIso() },
      history: [first],
    };
    this.bytes = sizeOfMessage(first);
    this.hooks.onCreate(this);
    this.onCreated?.(this);
    this.emit({ task: this.task });
    return this.task;
  }

  setStatus(state: TaskState, message?: Message, metadata?: JsonObject): boolean {
    const task = this.task!;
    const from = task.status.state;
    if (isTerminal(from) || this.lost) return false; // late update after cancel (or after another instance adopted the task): dropped
    if (!canTransition(from, state)) throw new IllegalTransitionError(from, state);
    task.status = message
      ? { state, message, timestamp: nowIso() }
      : { state, timestamp: nowIso() };
    if (message) {
      (task.history ??= []).push(message);
      this.bytes += sizeOfMessage(message);
    }
    const ev: StreamResponse = {
      statusUpdate: metadata
        ? { taskId: task.id, contextId: task.contextId, status: task.status, metadata }
        : { taskId: task.id, contextId: task.contextId, status: task.status },
    };
    this.emit(ev);
    return true;
  }

  addArtifact(
    init: ArtifactInit,
    opts: { append?: boolean; lastChunk?: boolean; metadata?: JsonObject },
  ): string {
    const task = this.task!;
    if (isTerminal(task.status.state) || this.lost) return init.artifactId ?? '';
    const size = sizeOfArtifact(init);
    const limit = this.hooks.limits?.taskBytes;
    if (limit !== undefined && this.bytes + size > limit) throw tooBig(this.taskId, limit);
    this.bytes += size;
    // A copy: the event is buffered (replay, streams not yet open, push queues) and agents often reuse one
    // object for successive chunks. Artifacts in the task are replaced, never mutated, so the event and
    // the task can share this copy.
    const artifact = plainCopy(init) as Artifact;
    artifact.artifactId = init.artifactId || newId();
    artifact.parts = init.parts.slice();
    const list = (task.artifacts ??= []);
    let i = list.length - 1;
    while (i >= 0 && list[i]!.artifactId !== artifact.artifactId) i--;
    if (i < 0) list.push(artifact);
    else if (opts.append) list[i] = { ...list[i]!, parts: [...list[i]!.parts, ...artifact.parts] };
    else list[i] = artifact;
    const update: TaskArtifactUpdateEvent = {
      taskId: task.id,
      contextId: task.contextId,
      artifact,
    };
    if (opts.append) update.append = true;
    if (opts.lastChunk) update.lastChunk = true;
    if (opts.metadata) update.metadata = opts.metadata;
    this.emit({ artifactUpdate: update });
    return artifact.artifactId;
  }

  /** Aborted when the task is canceled or the server stops. */
  get signal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController();
      if (this.#aborted) this.#abort.abort(this.#abortReason);
    }
    return this.#abort.signal;
  }

  /** Abort the agent working on this run (a signal read later is already aborted). */
  abortRun(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#abort?.abort(reason);
  }
}
