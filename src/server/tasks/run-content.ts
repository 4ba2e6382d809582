/**
 * The content side of a task run: the task object (or the agent's direct reply), moved only along the
 * state machine, with the size of what it holds counted against its limits. Each transition returns
 * the event it makes (the run numbers and delivers it) or undefined when it changed nothing. Owned by
 * one {@link TaskRun}; nothing else writes its state.
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
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskState,
} from '../../protocol/index.js';
import type { ArtifactInit } from '../agent/executor.js';
import { canTransition, IllegalTransitionError } from './state.js';
import {
  contentSize,
  refuseFollowUp,
  sizeOfArtifact,
  sizeOfMessage,
  tooBig,
  type TaskLimits,
} from './limits.js';
import { merged } from './merge.js';

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

/** A run's task (or reply) and the bookkeeping of its size. */
export class RunContent {
  #task: Task | undefined;
  #reply: Message | undefined;
  #error: A2AError | undefined;
  /** Approximate size of the task's content (see TaskLimits.taskBytes); 0 until first counted. */
  #bytes = 0;

  constructor(
    private readonly taskId: string,
    private readonly contextId: string,
    existing: Task | undefined,
  ) {
    this.#task = existing;
  }

  get task(): Task | undefined {
    return this.#task;
  }

  get reply(): Message | undefined {
    return this.#reply;
  }

  get error(): A2AError | undefined {
    return this.#error;
  }

  /** The task object (SUBMITTED) with the first message in its history; undefined when it exists. */
  create(first: Message): Task | undefined {
    if (this.#task) return undefined;
    if (this.#reply)
      throw new Error('the agent already replied with a message; it cannot also create a task');
    this.#task = {
      id: this.taskId,
      contextId: this.contextId,
      status: { state: 'TASK_STATE_SUBMITTED', timestamp: nowIso() },
      history: [first],
    };
    this.#bytes = sizeOfMessage(first);
    return this.#task;
  }

  /** A status change; undefined when the task is terminal (a late update after a cancel is dropped). */
  status(state: TaskState, message?: Message, metadata?: JsonObject): StreamResponse | undefined {
    const task = this.#task!;
    const from = task.status.state;
    if (isTerminal(from)) return undefined;
    if (!canTransition(from, state)) throw new IllegalTransitionError(from, state);
    task.status = message
      ? { state, message, timestamp: nowIso() }
      : { state, timestamp: nowIso() };
    if (message) {
      (task.history ??= []).push(message);
      this.#bytes += sizeOfMessage(message);
    }
    return {
      statusUpdate: metadata
        ? { taskId: task.id, contextId: task.contextId, status: task.status, metadata }
        : { taskId: task.id, contextId: task.contextId, status: task.status },
    };
  }

  /** An artifact or a chunk of one; undefined when the task is terminal. */
  artifact(
    init: ArtifactInit,
    opts: { append?: boolean; lastChunk?: boolean; metadata?: JsonObject },
    limit: number | undefined,
  ): TaskArtifactUpdateEvent | undefined {
    const task = this.#task!;
    if (isTerminal(task.status.state)) return undefined;
    const size = sizeOfArtifact(init);
    if (limit !== undefined && this.#bytes + size > limit) throw tooBig(this.taskId, limit);
    this.#bytes += size;
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
    return update;
  }

  /** The agent's one direct Message (then there is no task). */
  answer(message: Message): void {
    if (this.#task)
      throw new A2AError(
        'InvalidAgentResponse',
        'the agent replied with a message after creating a task',
      );
    if (this.#reply) throw new A2AError('InvalidAgentResponse', 'the agent replied twice');
    this.#reply = message;
  }

  /** The executor failed before it created a task or replied. */
  failBeforeTask(err: A2AError): void {
    if (!this.#task && !this.#reply) this.#error = err;
  }

  /** A client's follow-up joins the history; refused (leaving no trace) past the task's limits. */
  accept(message: Message, limits: Readonly<Required<TaskLimits>>): void {
    const task = this.#task!;
    if (this.#bytes === 0) this.#bytes = contentSize(task);
    const size = sizeOfMessage(message);
    refuseFollowUp(task.id, task.history?.length ?? 0, this.#bytes + size, limits);
    this.#bytes += size;
    (task.history ??= []).push(message);
  }

  /**
   * Lay our task over the stored one (after a lost race, or after losing the lease): history and
   * artifacts merged by id; the status is ours unless `theirs` says the stored status stands.
   */
  rebase(stored: Task, theirs: boolean): void {
    const ours = this.#task!;
    this.#task = theirs ? { ...merged(ours, stored), status: stored.status } : merged(ours, stored);
  }
}
