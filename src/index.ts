/**
 * The A2A 1.0.1 protocol model, shared by the server (`a2a-kit/server`) and the client
 * (`a2a-kit/client`): every type of the data model, the error type and its kinds, the protocol's
 * constants, card validation and version helpers. No I/O.
 *
 * @example
 * ```ts
 * import { A2AError, isTerminal, type Task } from 'a2a-kit';
 *
 * function describe(task: Task): string {
 *   return isTerminal(task.status.state) ? `finished: ${task.status.state}` : 'still running';
 * }
 * const notFound = new A2AError('TaskNotFound', 'No task 42');
 * notFound.spec.jsonRpcCode; // -32001 (HTTP 404, gRPC NOT_FOUND)
 * ```
 * @packageDocumentation
 */

// The data model (§4): tasks, messages, parts, artifacts, events.
export type {
  Artifact,
  JsonObject,
  JsonValue,
  Message,
  Part,
  Role,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './protocol/task.js';
export {
  INTERRUPTED_STATES,
  ROLES,
  TASK_STATES,
  TERMINAL_STATES,
  isInterrupted,
  isTerminal,
  textOf,
} from './protocol/task.js';

// Agent cards (§4.4, §8).
export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  APIKeySecurityScheme,
  HTTPAuthSecurityScheme,
  MutualTlsSecurityScheme,
  OAuth2SecurityScheme,
  OAuthFlowCommon,
  OAuthFlows,
  OpenIdConnectSecurityScheme,
  SecurityRequirement,
  SecurityScheme,
} from './protocol/card.js';
export { BINDINGS } from './protocol/card.js';
export { parseAgentCard, type ParseAgentCardResult } from './protocol/card-parse.js';
export { canonicalCardJson } from './protocol/card-canonical.js';

// Requests and responses of the eleven operations (§3.1).
export type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from './protocol/requests.js';
export type { AuthenticationInfo, TaskPushNotificationConfig } from './protocol/push.js';

// Errors (§5.4): one error type, its kinds, and the google.rpc details it carries.
export {
  A2AError,
  isA2AError,
  A2A_ERROR_DOMAIN,
  KIT_ERROR_DOMAIN,
  SLOW_READER_REASON,
  type A2AErrorKind,
  type BadRequestDetail,
  type ErrorDetail,
  type ErrorInfoDetail,
  type FieldViolation,
} from './protocol/errors.js';

// The operation table and the protocol's constants.
export {
  A2A_MEDIA_TYPE,
  HEADER_EXTENSIONS,
  HEADER_VERSION,
  OPERATIONS,
  PROTOCOL_VERSION,
  WELL_KNOWN_CARD_PATH,
  type Capability,
  type Operation,
  type OperationName,
} from './protocol/operations.js';
export {
  PUSH_ID_HEADER,
  PUSH_JWKS_PATH,
  PUSH_SIGNATURE_HEADER,
  PUSH_TOKEN_HEADER,
} from './protocol/push.js';
export { majorMinor, requestedVersion } from './protocol/version.js';

// The one logger shape of the server, the push sender and the client (pino-compatible).
export { silentLogger, type Logger } from './protocol/logger.js';
