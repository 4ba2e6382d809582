/**
 * The JSON form of the 0.3 proto, which the 0.3 HTTP+JSON binding carries in practice: every 0.3 SDK
 * (the JavaScript ones 0.3.x and 1.3's compatibility layer, Python, Go) reads and writes REST bodies
 * through the proto, not through the JSON-RPC schema. So a message's parts are `content`, a part is
 * `{text}` / `{file: {fileWithUri | fileWithBytes, mimeType}}` / `{data: {data}}`, roles and states are
 * `ROLE_USER` / `TASK_STATE_CANCELLED` (two Ls), and a push config is named `tasks/{id}/pushNotificationConfigs/{id}`.
 *
 * Translation goes through the 0.3 JSON-RPC model (types.ts) in both directions, so the meaning lives
 * in one place. Reading is lenient: a body already in the JSON-RPC form (it has `kind`) passes through.
 */
import type {
  Artifact03,
  Event03,
  Json03Object,
  Message03,
  Part03,
  PushNotificationConfig03,
  Task03,
  TaskPushNotificationConfig03,
  TaskState03,
  TaskStatus03,
} from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const STATE_TO_PROTO: Readonly<Record<TaskState03, string>> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELLED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  unknown: 'TASK_STATE_UNSPECIFIED',
};
const PROTO_TO_STATE = new Map<unknown, TaskState03>(
  Object.entries(STATE_TO_PROTO).map(([k, v]) => [v, k as TaskState03]),
);
// The enum's numbers, which proto JSON readers must also accept; and 1.0's one-L spelling.
[1, 2, 3, 4, 5, 6, 7, 8].forEach((n, i) =>
  PROTO_TO_STATE.set(
    n,
    (
      [
        'submitted',
        'working',
        'completed',
        'failed',
        'canceled',
        'input-required',
        'rejected',
        'auth-required',
      ] as const
    )[i]!,
  ),
);
PROTO_TO_STATE.set('TASK_STATE_CANCELED', 'canceled');

const ROLE_FROM_PROTO = new Map<unknown, string>([
  ['ROLE_USER', 'user'],
  ['ROLE_AGENT', 'agent'],
  [1, 'user'],
  [2, 'agent'],
]);

const defined = (o: Obj): Obj => {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
};

// ---- proto JSON → the 0.3 JSON-RPC model (values that fail are passed on for the reader to report) ----

export function partFromProto(v: unknown): unknown {
  if (!isObj(v) || v.kind !== undefined) return v;
  const metadata = v.metadata;
  if (v.text !== undefined) return defined({ kind: 'text', text: v.text, metadata });
  if (isObj(v.file)) {
    const f = v.file;
    const file = defined({
      uri: f.fileWithUri ?? f.file_with_uri,
      bytes: f.fileWithBytes ?? f.file_with_bytes,
      mimeType: f.mimeType ?? f.mime_type,
      name: f.name,
    });
    return defined({ kind: 'file', file, metadata });
  }
  if (v.data !== undefined)
    return defined({
      kind: 'data',
      data: isObj(v.data) && 'data' in v.data ? v.data.data : v.data,
      metadata,
    });
  return v;
}

export function messageFromProto(v: unknown): unknown {
  if (!isObj(v) || v.kind !== undefined || (v.content === undefined && v.parts !== undefined))
    return v;
  return defined({
    kind: 'message',
    messageId: v.messageId ?? v.message_id,
    contextId: (v.contextId ?? v.context_id) || undefined,
    taskId: (v.taskId ?? v.task_id) || undefined,
    role: ROLE_FROM_PROTO.get(v.role) ?? v.role,
    parts: Array.isArray(v.content) ? v.content.map(partFromProto) : v.content,
    metadata: v.metadata,
    extensions: v.extensions,
    referenceTaskIds: v.referenceTaskIds,
  });
}

function statusFromProto(v: unknown): unknown {
  if (!isObj(v)) return v;
  const message = v.message ?? v.update;
  return defined({
    state: PROTO_TO_STATE.get(v.state) ?? v.state,
    message: message === undefined ? undefined : messageFromProto(message),
    timestamp: v.timestamp,
  });
}

function artifactFromProto(v: unknown): unknown {
  if (!isObj(v)) return v;
  return { ...v, parts: Array.isArray(v.parts) ? v.parts.map(partFromProto) : v.parts };
}

export function taskFromProto(v: unknown): unknown {
  if (!isObj(v) || v.kind !== undefined) return v;
  return defined({
    kind: 'task',
    id: v.id,
    contextId: v.contextId ?? v.context_id,
    status: statusFromProto(v.status),
    artifacts: Array.isArray(v.artifacts) ? v.artifacts.map(artifactFromProto) : v.artifacts,
    history: Array.isArray(v.history) ? v.history.map(messageFromProto) : v.history,
    metadata: v.metadata,
  });
}

/** A proto StreamResponse / SendMessageResponse (`{task}`, `{message}`, `{statusUpdate}`, …) as a 0.3 event. */
export function eventFromProto(v: unknown): unknown {
  if (!isObj(v) || v.kind !== undefined) return v;
  if (v.task !== undefined) return taskFromProto(v.task);
  const msg = v.message ?? v.msg;
  if (msg !== undefined) return messageFromProto(msg);
  const su = v.statusUpdate ?? v.status_update;
  if (isObj(su))
    return defined({
      kind: 'status-update',
      taskId: su.taskId,
      contextId: su.contextId,
      status: statusFromProto(su.status),
      final: su.final === true,
      metadata: su.metadata,
    });
  const au = v.artifactUpdate ?? v.artifact_update;
  if (isObj(au))
    return defined({
      kind: 'artifact-update',
      taskId: au.taskId,
      contextId: au.contextId,
      artifact: artifactFromProto(au.artifact),
      append: au.append,
      lastChunk: au.lastChunk,
      metadata: au.metadata,
    });
  return v;
}

/** A proto SendMessageRequest (`{message, configuration: {pushNotification, blocking…}}`) as 0.3 MessageSendParams. */
export function sendParamsFromProto(v: unknown): unknown {
  if (!isObj(v)) return v;
  const cfg = isObj(v.configuration) ? v.configuration : undefined;
  const push = cfg?.pushNotification ?? cfg?.push_notification ?? cfg?.pushNotificationConfig;
  return defined({
    message: messageFromProto(v.message ?? v.request),
    configuration:
      cfg &&
      defined({
        acceptedOutputModes: cfg.acceptedOutputModes ?? cfg.accepted_output_modes,
        // A proto bool: absent is false, so a configuration without `blocking` asks not to wait (only a
        // request without any configuration waits, as 0.3's JSON-RPC default has it).
        blocking: cfg.blocking ?? false,
        // Proto JSON writes 0 for "unset"; a 0 from a 0.3 proto writer means "not given".
        historyLength: (cfg.historyLength ?? cfg.history_length) || undefined,
        pushNotificationConfig: push,
      }),
    metadata: v.metadata,
  });
}

/** The task id and config id in a proto config name (`tasks/{taskId}/pushNotificationConfigs/{id}`). */
export function parseConfigName(name: unknown): { taskId?: string; id?: string } {
  if (typeof name !== 'string') return {};
  const m = /^tasks\/([^/]+)(?:\/pushNotificationConfigs\/([^/]*))?$/.exec(name);
  return m ? { taskId: m[1]!, ...(m[2] ? { id: m[2] } : {}) } : {};
}

/** A proto TaskPushNotificationConfig (`{name, pushNotificationConfig}`, or `{config: …}` around it) as a 0.3 one. */
export function taskPushConfigFromProto(v: unknown): {
  taskId?: string;
  pushNotificationConfig?: unknown;
} {
  if (!isObj(v)) return {};
  const inner = isObj(v.config) ? v.config : v; // CreateTaskPushNotificationConfigRequest wraps it in `config`
  const config = inner.pushNotificationConfig ?? inner.push_notification_config;
  const named = parseConfigName(inner.name);
  const taskId = typeof inner.taskId === 'string' ? inner.taskId : named.taskId;
  const pushNotificationConfig =
    isObj(config) && named.id && config.id === undefined ? { ...config, id: named.id } : config;
  return defined({ taskId, pushNotificationConfig });
}

// ---- the 0.3 JSON-RPC model → proto JSON ----

export function partToProto(p: Part03): Obj {
  const metadata = p.metadata ? { metadata: p.metadata } : {};
  if (p.kind === 'text') return { text: p.text, ...metadata };
  if (p.kind === 'data') return { data: { data: p.data }, ...metadata };
  const f = p.file;
  return {
    file: defined({
      fileWithUri: f.uri,
      fileWithBytes: f.bytes,
      mimeType: f.mimeType,
      name: f.name,
    }),
    ...metadata,
  };
}

export function messageToProto(m: Message03): Obj {
  return defined({
    messageId: m.messageId,
    contextId: m.contextId,
    taskId: m.taskId,
    role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    content: m.parts.map(partToProto),
    metadata: m.metadata,
    extensions: m.extensions,
  });
}

function statusToProto(s: TaskStatus03): Obj {
  return defined({
    state: STATE_TO_PROTO[s.state],
    message: s.message && messageToProto(s.message),
    timestamp: s.timestamp,
  });
}

function artifactToProto(a: Artifact03): Obj {
  return defined({
    artifactId: a.artifactId,
    name: a.name,
    description: a.description,
    parts: a.parts.map(partToProto),
    metadata: a.metadata,
    extensions: a.extensions,
  });
}

export function taskToProto(t: Task03): Obj {
  return defined({
    id: t.id,
    contextId: t.contextId,
    status: statusToProto(t.status),
    artifacts: t.artifacts?.map(artifactToProto),
    history: t.history?.map(messageToProto),
    metadata: t.metadata,
  });
}

/** A 0.3 event as a proto StreamResponse (also the shape of a REST SendMessageResponse). */
export function eventToProto(e: Event03): Obj {
  switch (e.kind) {
    case 'task':
      return { task: taskToProto(e) };
    case 'message':
      return { message: messageToProto(e) };
    case 'status-update':
      return {
        statusUpdate: defined({
          taskId: e.taskId,
          contextId: e.contextId,
          status: statusToProto(e.status),
          final: e.final || undefined,
          metadata: e.metadata,
        }),
      };
    default:
      return {
        artifactUpdate: defined({
          taskId: e.taskId,
          contextId: e.contextId,
          artifact: artifactToProto(e.artifact),
          append: e.append,
          lastChunk: e.lastChunk,
          metadata: e.metadata,
        }),
      };
  }
}

export function pushConfigToProto(c: PushNotificationConfig03): Obj {
  return defined({
    id: c.id,
    url: c.url,
    token: c.token,
    authentication: c.authentication,
  });
}

/** A 0.3 TaskPushNotificationConfig in proto form: `{name: "tasks/{taskId}/pushNotificationConfigs/{id}", pushNotificationConfig}`. */
export function taskPushConfigToProto(c: TaskPushNotificationConfig03): Obj {
  return {
    name: `tasks/${c.taskId}/pushNotificationConfigs/${c.pushNotificationConfig.id ?? ''}`,
    pushNotificationConfig: pushConfigToProto(c.pushNotificationConfig),
  };
}

/** A proto SendMessageRequest from 0.3 MessageSendParams (what 0.3 REST servers parse). */
export function sendParamsToProto(p: {
  message: Message03;
  configuration?: {
    acceptedOutputModes?: string[];
    blocking?: boolean;
    historyLength?: number;
    pushNotificationConfig?: PushNotificationConfig03;
  };
  metadata?: Json03Object;
}): Obj {
  const c = p.configuration;
  return defined({
    message: messageToProto(p.message),
    configuration:
      c &&
      defined({
        acceptedOutputModes: c.acceptedOutputModes,
        blocking: c.blocking,
        historyLength: c.historyLength,
        pushNotification: c.pushNotificationConfig && pushConfigToProto(c.pushNotificationConfig),
      }),
    metadata: p.metadata,
  });
}
