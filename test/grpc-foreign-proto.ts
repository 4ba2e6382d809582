/**
 * The A2A messages as protobufjs types, described here by hand from the field names and numbers of the
 * A2A proto (package `lf.a2a.v1`): a foreign encoder and decoder for the gRPC tests, sharing none of
 * our codec's tables. protobufjs writes only the fields a message object holds, so leaving a member
 * out of the object is exactly what every proto3 encoder does with a default value.
 */
import protobuf from 'protobufjs';

const f = (id: number, type: string, rule?: 'repeated') => ({
  id,
  type,
  ...(rule ? { rule } : {}),
});
const s = (id: number) => f(id, 'string');
/** Members of a proto3 `optional` field or a oneof: protobufjs wants a synthetic oneof per optional. */
const optional = (...names: string[]) =>
  Object.fromEntries(names.map((n) => [`_${n}`, { oneof: [n] }]));

/** The messages the tests send and read, with their numbers as the proto gives them. */
const A2A = {
  TaskState: {
    values: {
      TASK_STATE_UNSPECIFIED: 0,
      TASK_STATE_SUBMITTED: 1,
      TASK_STATE_WORKING: 2,
      TASK_STATE_COMPLETED: 3,
      TASK_STATE_FAILED: 4,
      TASK_STATE_CANCELED: 5,
      TASK_STATE_INPUT_REQUIRED: 6,
      TASK_STATE_REJECTED: 7,
      TASK_STATE_AUTH_REQUIRED: 8,
    },
  },
  Role: { values: { ROLE_UNSPECIFIED: 0, ROLE_USER: 1, ROLE_AGENT: 2 } },
  Part: {
    oneofs: { content: { oneof: ['text', 'raw', 'url', 'data'] } },
    fields: {
      text: s(1),
      raw: f(2, 'bytes'),
      url: s(3),
      data: f(4, 'google.protobuf.Value'),
      metadata: f(5, 'google.protobuf.Struct'),
      filename: s(6),
      mediaType: s(7),
    },
  },
  Message: {
    fields: {
      messageId: s(1),
      contextId: s(2),
      taskId: s(3),
      role: f(4, 'Role'),
      parts: f(5, 'Part', 'repeated'),
      metadata: f(6, 'google.protobuf.Struct'),
      extensions: f(7, 'string', 'repeated'),
      referenceTaskIds: f(8, 'string', 'repeated'),
    },
  },
  TaskStatus: {
    fields: {
      state: f(1, 'TaskState'),
      message: f(2, 'Message'),
      timestamp: f(3, 'google.protobuf.Timestamp'),
    },
  },
  Artifact: {
    fields: {
      artifactId: s(1),
      name: s(2),
      description: s(3),
      parts: f(4, 'Part', 'repeated'),
    },
  },
  Task: {
    fields: {
      id: s(1),
      contextId: s(2),
      status: f(3, 'TaskStatus'),
      artifacts: f(4, 'Artifact', 'repeated'),
      history: f(5, 'Message', 'repeated'),
    },
  },
  TaskStatusUpdateEvent: {
    fields: { taskId: s(1), contextId: s(2), status: f(3, 'TaskStatus') },
  },
  TaskArtifactUpdateEvent: {
    fields: {
      taskId: s(1),
      contextId: s(2),
      artifact: f(3, 'Artifact'),
      append: f(4, 'bool'),
      lastChunk: f(5, 'bool'),
    },
  },
  AuthenticationInfo: { fields: { scheme: s(1), credentials: s(2) } },
  TaskPushNotificationConfig: {
    fields: {
      tenant: s(1),
      id: s(2),
      taskId: s(3),
      url: s(4),
      token: s(5),
      authentication: f(6, 'AuthenticationInfo'),
    },
  },
  AgentInterface: {
    fields: { url: s(1), protocolBinding: s(2), tenant: s(3), protocolVersion: s(4) },
  },
  AgentCapabilities: {
    oneofs: optional('streaming', 'pushNotifications', 'extendedAgentCard'),
    fields: {
      streaming: f(1, 'bool'),
      pushNotifications: f(2, 'bool'),
      extendedAgentCard: f(4, 'bool'),
    },
  },
  AgentSkill: {
    fields: {
      id: s(1),
      name: s(2),
      description: s(3),
      tags: f(4, 'string', 'repeated'),
    },
  },
  AgentCard: {
    fields: {
      name: s(1),
      description: s(2),
      supportedInterfaces: f(3, 'AgentInterface', 'repeated'),
      version: s(5),
      capabilities: f(7, 'AgentCapabilities'),
      defaultInputModes: f(10, 'string', 'repeated'),
      defaultOutputModes: f(11, 'string', 'repeated'),
      skills: f(12, 'AgentSkill', 'repeated'),
    },
  },
  SendMessageConfiguration: {
    oneofs: optional('historyLength'),
    fields: {
      acceptedOutputModes: f(1, 'string', 'repeated'),
      taskPushNotificationConfig: f(2, 'TaskPushNotificationConfig'),
      historyLength: f(3, 'int32'),
      returnImmediately: f(4, 'bool'),
    },
  },
  SendMessageRequest: {
    fields: {
      tenant: s(1),
      message: f(2, 'Message'),
      configuration: f(3, 'SendMessageConfiguration'),
      metadata: f(4, 'google.protobuf.Struct'),
    },
  },
  SendMessageResponse: {
    oneofs: { payload: { oneof: ['task', 'message'] } },
    fields: { task: f(1, 'Task'), message: f(2, 'Message') },
  },
  StreamResponse: {
    oneofs: { payload: { oneof: ['task', 'message', 'statusUpdate', 'artifactUpdate'] } },
    fields: {
      task: f(1, 'Task'),
      message: f(2, 'Message'),
      statusUpdate: f(3, 'TaskStatusUpdateEvent'),
      artifactUpdate: f(4, 'TaskArtifactUpdateEvent'),
    },
  },
  GetTaskRequest: {
    oneofs: optional('historyLength'),
    fields: { tenant: s(1), id: s(2), historyLength: f(3, 'int32') },
  },
  ListTasksRequest: {
    oneofs: optional('pageSize', 'historyLength', 'includeArtifacts'),
    fields: {
      tenant: s(1),
      contextId: s(2),
      status: f(3, 'TaskState'),
      pageSize: f(4, 'int32'),
      pageToken: s(5),
      historyLength: f(6, 'int32'),
      statusTimestampAfter: f(7, 'google.protobuf.Timestamp'),
      includeArtifacts: f(8, 'bool'),
    },
  },
  ListTasksResponse: {
    fields: {
      tasks: f(1, 'Task', 'repeated'),
      nextPageToken: s(2),
      pageSize: f(3, 'int32'),
      totalSize: f(4, 'int32'),
    },
  },
  CancelTaskRequest: {
    fields: { tenant: s(1), id: s(2), metadata: f(3, 'google.protobuf.Struct') },
  },
  SubscribeToTaskRequest: { fields: { tenant: s(1), id: s(2) } },
  GetTaskPushNotificationConfigRequest: { fields: { tenant: s(1), taskId: s(2), id: s(3) } },
  DeleteTaskPushNotificationConfigRequest: { fields: { tenant: s(1), taskId: s(2), id: s(3) } },
  ListTaskPushNotificationConfigsRequest: {
    fields: { tenant: s(4), taskId: s(1), pageSize: f(2, 'int32'), pageToken: s(3) },
  },
  ListTaskPushNotificationConfigsResponse: {
    fields: { configs: f(1, 'TaskPushNotificationConfig', 'repeated'), nextPageToken: s(2) },
  },
  GetExtendedAgentCardRequest: { fields: { tenant: s(1) } },
};

const root = new protobuf.Root();
for (const file of ['struct', 'timestamp', 'empty'])
  root.addJSON(protobuf.common.get(`google/protobuf/${file}.proto`)!.nested!);
root.addJSON({ lf: { nested: { a2a: { nested: { v1: { nested: A2A } } } } } });
root.resolveAll();

/**
 * Request and response message of each operation, as the proto's service names them. Written here
 * rather than taken from our service table: a foreign peer must not share our facts, or a wrong one
 * would go unnoticed on both sides.
 */
export const RPCS = {
  SendMessage: ['SendMessageRequest', 'SendMessageResponse'],
  SendStreamingMessage: ['SendMessageRequest', 'StreamResponse'],
  GetTask: ['GetTaskRequest', 'Task'],
  ListTasks: ['ListTasksRequest', 'ListTasksResponse'],
  CancelTask: ['CancelTaskRequest', 'Task'],
  SubscribeToTask: ['SubscribeToTaskRequest', 'StreamResponse'],
  CreateTaskPushNotificationConfig: ['TaskPushNotificationConfig', 'TaskPushNotificationConfig'],
  GetTaskPushNotificationConfig: [
    'GetTaskPushNotificationConfigRequest',
    'TaskPushNotificationConfig',
  ],
  ListTaskPushNotificationConfigs: [
    'ListTaskPushNotificationConfigsRequest',
    'ListTaskPushNotificationConfigsResponse',
  ],
  DeleteTaskPushNotificationConfig: [
    'DeleteTaskPushNotificationConfigRequest',
    'google.protobuf.Empty',
  ],
  GetExtendedAgentCard: ['GetExtendedAgentCardRequest', 'AgentCard'],
} as const;

/** One of the eleven operations. */
export type ForeignRpc = keyof typeof RPCS;

const typeOf = (name: string): protobuf.Type =>
  root.lookupType(name.startsWith('google.') ? name : `lf.a2a.v1.${name}`);

/** The bytes protobufjs writes for `value` (message objects from plain objects; absent members stay absent). */
export function foreignEncode(rpc: ForeignRpc, value: object): Buffer {
  const t = typeOf(RPCS[rpc][0]);
  return Buffer.from(t.encode(t.fromObject(value)).finish());
}

/** The bytes protobufjs writes for an answer of `rpc` (what a foreign server sends). */
export function foreignEncodeAnswer(rpc: ForeignRpc, value: object): Buffer {
  const t = typeOf(RPCS[rpc][1]);
  return Buffer.from(t.encode(t.fromObject(value)).finish());
}

/** An answer of `rpc` read by protobufjs, as a plain object with enum names and no defaults filled in. */
export function foreignDecode(rpc: ForeignRpc, bytes: Uint8Array): any {
  const t = typeOf(RPCS[rpc][1]);
  return t.toObject(t.decode(bytes), { enums: String, longs: Number, bytes: String });
}
