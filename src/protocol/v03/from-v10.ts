/**
 * The 1.0 model → A2A 0.3 objects, as a 0.3 peer expects them: `kind` on every message, part, task
 * and event, kebab-case states, lower-case roles, files nested under `file`, `final` on the last
 * status update of a stream. What 0.3 cannot carry (a text part's media type, a file name on a text
 * part) is left out.
 */
import type { TaskPushNotificationConfig } from '../push.js';
import {
  isTerminalOrInterrupted,
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  type TaskStatus,
} from '../task.js';
import { DATA_PART_COMPAT_FLAG, ROLE_TO_V03, STATE_TO_V03 } from './enums.js';
import type {
  Artifact03,
  Event03,
  Json03Object,
  Message03,
  Part03,
  PushNotificationConfig03,
  Task03,
  TaskPushNotificationConfig03,
  TaskStatus03,
} from './types.js';

const isPlainObject = (v: unknown): v is Json03Object =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A 1.0 part as a 0.3 part. */
export function partToV03(p: Part): Part03 {
  const metadata = p.metadata as Json03Object | undefined;
  const meta = metadata ? { metadata } : {};
  if (p.text !== undefined) return { kind: 'text', text: p.text, ...meta };
  if (p.data !== undefined) {
    if (isPlainObject(p.data)) return { kind: 'data', data: p.data, ...meta };
    return {
      kind: 'data',
      data: { value: p.data },
      metadata: { ...metadata, [DATA_PART_COMPAT_FLAG]: true },
    };
  }
  const fileMeta = {
    ...(p.mediaType ? { mimeType: p.mediaType } : {}),
    ...(p.filename ? { name: p.filename } : {}),
  };
  if (p.url !== undefined) return { kind: 'file', file: { uri: p.url, ...fileMeta }, ...meta };
  return { kind: 'file', file: { bytes: p.raw ?? '', ...fileMeta }, ...meta };
}

/** A 1.0 message as a 0.3 message. */
export function messageToV03(m: Message): Message03 {
  return {
    kind: 'message',
    messageId: m.messageId,
    role: ROLE_TO_V03[m.role] ?? 'agent',
    parts: m.parts.map(partToV03),
    ...(m.contextId ? { contextId: m.contextId } : {}),
    ...(m.taskId ? { taskId: m.taskId } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.extensions?.length ? { extensions: m.extensions } : {}),
    ...(m.referenceTaskIds?.length ? { referenceTaskIds: m.referenceTaskIds } : {}),
  };
}

export function statusToV03(s: TaskStatus): TaskStatus03 {
  return {
    state: STATE_TO_V03[s.state] ?? 'unknown',
    ...(s.message ? { message: messageToV03(s.message) } : {}),
    ...(s.timestamp ? { timestamp: s.timestamp } : {}),
  };
}

export function artifactToV03(a: Artifact): Artifact03 {
  return {
    artifactId: a.artifactId,
    parts: a.parts.map(partToV03),
    ...(a.name ? { name: a.name } : {}),
    ...(a.description ? { description: a.description } : {}),
    ...(a.metadata ? { metadata: a.metadata } : {}),
    ...(a.extensions?.length ? { extensions: a.extensions } : {}),
  };
}

/** A 1.0 task as a 0.3 task. */
export function taskToV03(t: Task): Task03 {
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: statusToV03(t.status),
    ...(t.artifacts?.length ? { artifacts: t.artifacts.map(artifactToV03) } : {}),
    ...(t.history ? { history: t.history.map(messageToV03) } : {}),
    ...(t.metadata ? { metadata: t.metadata } : {}),
  };
}

/** A 1.0 StreamResponse (or SendMessageResponse) as the 0.3 object of its `kind`. */
export function eventToV03(e: StreamResponse): Event03 {
  if ('task' in e) return taskToV03(e.task);
  if ('message' in e) return messageToV03(e.message);
  if ('statusUpdate' in e) {
    const u = e.statusUpdate;
    return {
      kind: 'status-update',
      taskId: u.taskId,
      contextId: u.contextId,
      status: statusToV03(u.status),
      final: isTerminalOrInterrupted(u.status.state), // a 0.3 stream ends there
      ...(u.metadata ? { metadata: u.metadata } : {}),
    };
  }
  const u = e.artifactUpdate;
  return {
    kind: 'artifact-update',
    taskId: u.taskId,
    contextId: u.contextId,
    artifact: artifactToV03(u.artifact),
    ...(u.append !== undefined ? { append: u.append } : {}),
    ...(u.lastChunk !== undefined ? { lastChunk: u.lastChunk } : {}),
    ...(u.metadata ? { metadata: u.metadata } : {}),
  };
}

/** The webhook part of a 1.0 config, 0.3-shaped (`authentication.schemes` is a list there). */
export function pushConfigToV03(c: TaskPushNotificationConfig): PushNotificationConfig03 {
  return {
    url: c.url,
    ...(c.id ? { id: c.id } : {}),
    ...(c.token ? { token: c.token } : {}),
    ...(c.authentication
      ? {
          authentication: {
            schemes: [c.authentication.scheme],
            ...(c.authentication.credentials ? { credentials: c.authentication.credentials } : {}),
          },
        }
      : {}),
  };
}

/** A 1.0 config as a 0.3 TaskPushNotificationConfig (the webhook nested under its task id). */
export function taskPushConfigToV03(c: TaskPushNotificationConfig): TaskPushNotificationConfig03 {
  return { taskId: c.taskId ?? '', pushNotificationConfig: pushConfigToV03(c) };
}
