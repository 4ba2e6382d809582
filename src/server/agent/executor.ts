/**
 * What an agent author writes: an {@link AgentExecutor} receives the request context and a
 * {@link TaskUpdater}, and either replies with one Message or drives a task through its lifecycle.
 *
 * @example
 * const echo: AgentExecutor = async (ctx, task) => {
 *   task.working('echoing');
 *   task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
 *   task.complete();
 * };
 */
import type {
  Artifact,
  JsonObject,
  Message,
  Part,
  SendMessageConfiguration,
  Task,
  TaskState,
} from '../../protocol/index.js';
import type { Caller } from '../dispatch/call-context.js';

/** What the agent knows about the call it is handling. */
export interface RequestContext {
  /** The incoming message, with `taskId` and `contextId` filled in. */
  readonly message: Message;
  /** All text parts of the message, joined by newlines. */
  readonly text: string;
  /** The task this message continues (a snapshot), when it is a follow-up. */
  readonly task?: Task;
  readonly taskId: string;
  readonly contextId: string;
  readonly tenant: string;
  readonly caller?: Caller;
  readonly configuration?: SendMessageConfiguration;
  readonly metadata?: JsonObject;
  /** Extension URIs the client asked for (`A2A-Extensions`). */
  readonly requestedExtensions: readonly string[];
  /** Mark an extension as used: it is echoed back in the response's `A2A-Extensions` header. */
  activateExtension(uri: string): void;
  /** Aborted when the task is canceled (or the server shuts down). */
  readonly signal: AbortSignal;
}

/** A message the agent sends: plain text, or parts with optional metadata. */
export type AgentMessageInit =
  string | { parts: Part[]; metadata?: JsonObject; extensions?: string[] };

/** An artifact (or a chunk of one) the agent produces; `artifactId` is generated when absent. */
export type ArtifactInit = Omit<Artifact, 'artifactId'> & { artifactId?: string };

/** How the agent drives its task. Calls are synchronous; events reach stores, streams and webhooks in order. */
export interface TaskUpdater {
  readonly taskId: string;
  readonly contextId: string;
  /** Aborted when the task is canceled. */
  readonly signal: AbortSignal;
  /** Create the task now, in TASK_STATE_SUBMITTED (otherwise the first update creates it). */
  submit(): void;
  /** Move to TASK_STATE_WORKING; the message (e.g. progress) goes out as the status message. */
  working(message?: AgentMessageInit): void;
  /** Ask the caller for more input (TASK_STATE_INPUT_REQUIRED); the next message continues the task. */
  inputRequired(message?: AgentMessageInit): void;
  /** Wait for the caller to authenticate (TASK_STATE_AUTH_REQUIRED). */
  authRequired(message?: AgentMessageInit): void;
  /** Finish the task successfully (TASK_STATE_COMPLETED, terminal). */
  complete(message?: AgentMessageInit): void;
  /** Finish the task as failed (TASK_STATE_FAILED, terminal); the message says why. */
  fail(message?: AgentMessageInit): void;
  /** Decline the task (TASK_STATE_REJECTED, terminal). */
  reject(message?: AgentMessageInit): void;
  /** End the task as canceled by the agent itself (TASK_STATE_CANCELED, terminal). */
  cancel(message?: AgentMessageInit): void;
  /** Any state change, with an optional status message and event metadata. */
  setStatus(state: TaskState, message?: AgentMessageInit, metadata?: JsonObject): void;
  /** Add an artifact, or with `append` add parts to an existing one (chunked output). Returns its id. */
  addArtifact(
    artifact: ArtifactInit,
    options?: { append?: boolean; lastChunk?: boolean; metadata?: JsonObject },
  ): string;
  /** Answer with a single Message and no task. Only possible before any task update. */
  reply(message: AgentMessageInit): void;
}

/** An agent: handle one incoming message. Throwing fails the task (or the call, if no task exists yet). */
export interface AgentExecutor {
  (ctx: RequestContext, task: TaskUpdater): void | Promise<void>;
  /**
   * Set to true when the work can safely start over: a task whose instance was lost (several
   * instances with an event bus) or that a crash left running is then run again, with its last user
   * message, instead of being failed.
   *
   * @example
   * const agent: AgentExecutor = async (ctx, task) => { … };
   * agent.resumable = true;
   */
  resumable?: boolean;
  /**
   * What happens to a message for a task that is SUBMITTED or WORKING (not waiting for input):
   * `'accept'` (the default) calls the executor again with it (`ctx.task` holds the history, the new
   * message last) once any call still running on that task has returned; calls on one task never
   * overlap. `'refuse'` answers `UnsupportedOperation`, saying the task takes messages only when it
   * asks for input. Tasks in INPUT_REQUIRED or AUTH_REQUIRED always take the next message.
   *
   * @example
   * agent.workingFollowUps = 'refuse'; // one message per turn: answer only when asked
   */
  workingFollowUps?: 'accept' | 'refuse';
}

/** Build an agent Message from text or parts. */
export function agentMessage(
  init: AgentMessageInit,
  taskId: string | undefined,
  contextId: string,
  id: string,
): Message {
  const body = typeof init === 'string' ? { parts: [{ text: init }] as Part[] } : init;
  const m: Message = { messageId: id, role: 'ROLE_AGENT', parts: body.parts, contextId };
  if (taskId) m.taskId = taskId;
  if (typeof init !== 'string') {
    if (init.metadata) m.metadata = init.metadata;
    if (init.extensions) m.extensions = init.extensions;
  }
  return m;
}

export { textOf } from '../../protocol/index.js';
