/**
 * The A2A 1.0.1 core objects in their ProtoJSON wire form (spec §4.1, §4.2):
 * lowerCamelCase members, enum value names as strings, a oneof as its member name.
 */

/** Arbitrary JSON object (google.protobuf.Struct). */
export type JsonObject = { [key: string]: JsonValue };
/** Any JSON value (google.protobuf.Value). */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** §4.1.3 TaskState. */
export const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
/** The state a task is in (§4.1.3): one of {@link TASK_STATES}. */
export type TaskState = (typeof TASK_STATES)[number];

/** States after which a task never changes again. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
/** States in which the task waits for the client (a blocking send returns, a stream closes). */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** Whether a task in this state is finished and never changes again (completed, failed, canceled, rejected). */
export const isTerminal = (s: TaskState): boolean => TERMINAL_STATES.has(s);
/** Whether a task in this state waits for the client (input or authentication required). */
export const isInterrupted = (s: TaskState): boolean => INTERRUPTED_STATES.has(s);
/** Whether a task in this state ends a blocking call and a stream (§3.2.2): terminal or interrupted. */
export const isTerminalOrInterrupted = (s: TaskState): boolean =>
  TERMINAL_STATES.has(s) || INTERRUPTED_STATES.has(s);

/** §4.1.5 Role. */
export type Role = 'ROLE_USER' | 'ROLE_AGENT';
/** Both roles, user first. */
export const ROLES: readonly Role[] = ['ROLE_USER', 'ROLE_AGENT'];

interface PartCommon {
  metadata?: JsonObject;
  filename?: string;
  mediaType?: string;
}
/** §4.1.6 Part: exactly one of text, raw (base64), url, data. */
export type Part =
  | (PartCommon & { text: string; raw?: never; url?: never; data?: never })
  | (PartCommon & { raw: string; text?: never; url?: never; data?: never })
  | (PartCommon & { url: string; text?: never; raw?: never; data?: never })
  | (PartCommon & { data: JsonValue; text?: never; raw?: never; url?: never });

/** §4.1.4 Message. */
export interface Message {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: Role;
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

/** §4.1.2 TaskStatus. */
export interface TaskStatus {
  state: TaskState;
  message?: Message;
  /** ISO 8601 UTC with `Z`. */
  timestamp?: string;
}

/** §4.1.7 Artifact. */
export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
}

/** §4.1.1 Task. */
export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: JsonObject;
}

/** §4.2.1 TaskStatusUpdateEvent. */
export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: JsonObject;
}

/** §4.2.2 TaskArtifactUpdateEvent. */
export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

/** §3.2.3 StreamResponse: exactly one member. Also the push-notification payload (§4.3.3). */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

/** The task an event belongs to, wherever the event kind keeps it (a message: the task it names). */
export function taskIdOf(event: StreamResponse): string | undefined {
  if ('task' in event) return event.task.id;
  if ('statusUpdate' in event) return event.statusUpdate.taskId;
  if ('artifactUpdate' in event) return event.artifactUpdate.taskId;
  // A peer's event may be none of the kinds above.
  return (event as { message?: { taskId?: string } }).message?.taskId;
}

/** SendMessageResponse: a task or a direct message. */
export type SendMessageResponse = { task: Task } | { message: Message };

/** The text parts of a message joined by newlines ('' when it has none). */
export function textOf(message: Message): string {
  let out = '';
  for (const p of message.parts)
    if (typeof p.text === 'string') out = out ? `${out}\n${p.text}` : p.text;
  return out;
}
