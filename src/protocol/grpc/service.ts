/**
 * The A2AService of the gRPC binding (§10.3, §5.3): for every operation of the operation table,
 * its method path and the protobuf messages it takes and returns.
 */
import { OPERATIONS, type OperationName } from '../operations.js';

/** Full name of the service. */
export const GRPC_SERVICE = 'lf.a2a.v1.A2AService';

/** Metadata keys of the service parameters (§10.2: lower case, as gRPC sends them). */
export const GRPC_VERSION_KEY = 'a2a-version';
/** Metadata key of `A2A-Extensions`. */
export const GRPC_EXTENSIONS_KEY = 'a2a-extensions';

/** One method of the service. */
export interface GrpcMethod {
  operation: OperationName;
  /** `/lf.a2a.v1.A2AService/<Method>`. */
  path: string;
  /** Request message name. */
  request: string;
  /** Response message name (of each event, for streams). */
  response: string;
  /** Server streaming. */
  streaming: boolean;
}

const MESSAGES: Record<OperationName, [request: string, response: string]> = {
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
  DeleteTaskPushNotificationConfig: ['DeleteTaskPushNotificationConfigRequest', 'Empty'],
  GetExtendedAgentCard: ['GetExtendedAgentCardRequest', 'AgentCard'],
};

/** Every method, by operation name. */
export const GRPC_METHODS: Readonly<Record<OperationName, GrpcMethod>> = Object.fromEntries(
  OPERATIONS.map((op) => {
    const [request, response] = MESSAGES[op.name];
    return [
      op.name,
      {
        operation: op.name,
        path: `/${GRPC_SERVICE}/${op.name}`,
        request,
        response,
        streaming: op.streaming,
      },
    ];
  }),
) as Record<OperationName, GrpcMethod>;
