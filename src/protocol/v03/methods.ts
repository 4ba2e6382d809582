/**
 * The ten operations A2A 0.3 has, by their 0.3 names: JSON-RPC methods (`message/send`…) and
 * HTTP+JSON routes (below `/v1`). 1.0's ListTasks has no 0.3 form. Plus the 0.3 error object.
 */
import {
  A2AError,
  type A2AErrorKind,
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  type BadRequestDetail,
  type ErrorInfoDetail,
} from '../errors.js';
import type { HttpVerb, OperationName } from '../operations.js';

/** 0.3 JSON-RPC method → operation. */
export const V03_METHODS: Readonly<Record<string, OperationName>> = {
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
  'tasks/pushNotificationConfig/set': 'CreateTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
  'agent/getAuthenticatedExtendedCard': 'GetExtendedAgentCard',
};

/** Operation → its 0.3 JSON-RPC method (ListTasks has none). */
export const METHOD_OF_V03: Readonly<Partial<Record<OperationName, string>>> = Object.fromEntries(
  Object.entries(V03_METHODS).map(([m, op]) => [op, m]),
);

/** A 0.3 HTTP+JSON route, below the interface URL. */
export interface RouteV03 {
  verbs: HttpVerb[];
  /** `{id}` and `{configId}` are one path segment each; `:cancel` and the like are literal suffixes. */
  path: string;
}

/** Operation → its 0.3 HTTP+JSON route (ListTasks has none). */
export const ROUTES_V03: Readonly<Partial<Record<OperationName, RouteV03>>> = {
  SendMessage: { verbs: ['POST'], path: '/v1/message:send' },
  SendStreamingMessage: { verbs: ['POST'], path: '/v1/message:stream' },
  GetTask: { verbs: ['GET'], path: '/v1/tasks/{id}' },
  CancelTask: { verbs: ['POST'], path: '/v1/tasks/{id}:cancel' },
  // GET in the 0.3 proto's mapping; some 0.3 servers took POST: clients try GET first, servers take both.
  SubscribeToTask: { verbs: ['GET', 'POST'], path: '/v1/tasks/{id}:subscribe' },
  CreateTaskPushNotificationConfig: {
    verbs: ['POST'],
    path: '/v1/tasks/{id}/pushNotificationConfigs',
  },
  ListTaskPushNotificationConfigs: {
    verbs: ['GET'],
    path: '/v1/tasks/{id}/pushNotificationConfigs',
  },
  GetTaskPushNotificationConfig: {
    verbs: ['GET'],
    path: '/v1/tasks/{id}/pushNotificationConfigs/{configId}',
  },
  DeleteTaskPushNotificationConfig: {
    verbs: ['DELETE'],
    path: '/v1/tasks/{id}/pushNotificationConfigs/{configId}',
  },
  GetExtendedAgentCard: { verbs: ['GET'], path: '/v1/card' },
};

/** The error a call of an operation 0.3 lacks gets, saying which version was in use. */
export function notInV03(operation: OperationName, where: string): A2AError {
  return new A2AError(
    'UnsupportedOperation',
    `${operation} is not part of A2A 0.3, which ${where} speaks; it needs an interface at protocol version 1.0`,
  );
}

/** A 0.3 error object (JSON-RPC `error`, and the bare body of a 0.3 HTTP+JSON error). */
export interface Error03 {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error as 0.3 sends it: the same codes (0.3 lacks -32008 and -32009; their numbers are kept so a
 * 0.3 peer at least sees a code and a message), `data` an object rather than 1.0's list of details.
 */
export function errorToV03(err: A2AError): Error03 {
  const info = err.details.find((d): d is ErrorInfoDetail => d['@type'] === ERROR_INFO_TYPE);
  const bad = err.details.find((d): d is BadRequestDetail => d['@type'] === BAD_REQUEST_TYPE);
  const data = bad ? { fieldViolations: bad.fieldViolations } : info?.metadata;
  return { code: err.spec.jsonRpcCode, message: err.message, ...(data ? { data } : {}) };
}

/** An A2AError from a 0.3 error object: the codes are 1.0's; 0.3's free-form `data` has no 1.0 detail to become. */
export function errorFromV03(e: { code?: unknown; message?: unknown }): A2AError {
  const code = typeof e.code === 'number' ? e.code : -32603;
  return A2AError.fromJsonRpc({
    code,
    ...(typeof e.message === 'string' ? { message: e.message } : {}),
  });
}

/**
 * The kind a 0.3 HTTP+JSON error names by its HTTP status alone: 0.3 servers that answer
 * `{"message": …}` without a code (the Python 0.3 server) map kinds to statuses this way. Where one
 * status stands for several kinds, the operation decides (501 on a push-config call is "push not
 * supported"; 404 on the extended card is "not configured").
 */
function kindOfV03Status(status: number, operation: OperationName): A2AErrorKind | undefined {
  switch (status) {
    case 400:
      return 'InvalidRequest';
    case 404:
      return operation === 'GetExtendedAgentCard'
        ? 'ExtendedAgentCardNotConfigured'
        : 'TaskNotFound';
    case 409:
      return 'TaskNotCancelable';
    case 415:
      return 'ContentTypeNotSupported';
    case 422:
      return 'InvalidParams';
    case 501:
      return operation.includes('PushNotificationConfig')
        ? 'PushNotificationNotSupported'
        : 'UnsupportedOperation';
    case 502:
      return 'InvalidAgentResponse';
    default:
      return status >= 500 ? 'Internal' : undefined;
  }
}

/**
 * An A2AError from a 0.3 HTTP+JSON error body that has a message but no code, by its HTTP status;
 * undefined for a status no 0.3 server gives an A2A error (the caller then treats the answer as not
 * the agent's).
 */
export function errorFromV03Status(
  status: number,
  message: string,
  operation: OperationName,
): A2AError | undefined {
  const kind = kindOfV03Status(status, operation);
  // Peer text: bounded, so a huge message cannot ride along into logs and errors.
  return kind ? new A2AError(kind, message.slice(0, 1000) || undefined) : undefined;
}
