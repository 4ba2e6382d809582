/**
 * a2a-kit client: discover an agent (well-known card, HTTP caching, signature check), choose the
 * interface the spec says to choose (§8.3.2), and call the eleven A2A operations over JSON-RPC or
 * HTTP+JSON with capability checks before any round trip, retries where they are safe, resumed
 * streams, credentials per the card's security schemes, and interceptors for cross-cutting concerns.
 * The push-notification receiver is on `a2a-kit/client/push-receiver`; the whole protocol model
 * is on `a2a-kit`.
 *
 * @example
 * ```ts
 * import { A2AClient, userMessage } from 'a2a-kit/client';
 *
 * const client = await A2AClient.connect('http://localhost:41241');
 * const res = await client.sendMessage({ message: userMessage('hi') });
 * if ('task' in res) process.stdout.write(`${res.task.status.state}\n`);
 * ```
 * @packageDocumentation
 */

// The client and its options.
export { A2AClient } from './client.js';
export type {
  A2AClientOptions,
  CallOptions,
  ClientLogger,
  ConnectOptions,
  ResumeOptions,
  StreamOptions,
  UnauthorizedHook,
  UnauthorizedInfo,
} from './options.js';
export type { RetryPolicy } from './retry.js';
export { silentLogger, type Logger } from '../protocol/logger.js';
export type { FetchLike } from './http.js';
export { userMessage, type UserMessageInit } from './message.js';

// Interceptors: logging, tracing, metrics, auth refresh, rate limits.
export type {
  ClientCall,
  ClientCallFacts,
  ClientCallFailed,
  ClientCallOutcome,
  ClientCallSucceeded,
  ClientInterceptor,
  StreamEnd,
} from './interceptors.js';

// Discovery (§8.2), card caching (§8.6) and signature checks (§8.4), interface selection (§8.3.2).
export { resolveAgentCard, discoverAgentCard, defaultCardCache } from './discovery.js';
export type { CardSource, DiscoveredCard, ResolveCardOptions } from './discovery.js';
export { CardCache, type CachedCard, type CardCacheOptions } from './card-cache.js';
export { checkAgentCard, type AgentCardCheck } from './card-check.js';
export {
  verifyAgentCard,
  assertAgentCardVerified,
  AgentCardVerificationError,
  DEFAULT_CARD_ALGORITHMS,
} from './card-verify.js';
export type { CardTrust, CardVerifyResult, CardVerifyFailure, JwksFetcher } from './card-verify.js';
export {
  selectInterface,
  type SelectInterfaceOptions,
  type SelectedInterface,
} from './select-interface.js';

// Credentials (§7.3).
export {
  schemeKind,
  type Credential,
  type CredentialQuery,
  type Credentials,
  type SchemeKind,
} from './auth.js';

// Bindings beyond the two built in (e.g. gRPC): the `transports` option takes a factory per binding.
export type {
  HttpTransportOptions,
  StreamEvent,
  Transport,
  TransportFactory,
  TransportRequest,
} from './transport.js';

// Errors: the agent's arrive as A2AError with the kind it sent; this side's as A2AClientError.
export {
  A2AClientError,
  isA2AClientError,
  neverReachedAgent,
  type ClientErrorCode,
} from './errors.js';
export { A2AError, isA2AError, type A2AErrorKind } from '../protocol/errors.js';

// The protocol model the client's requests and results are made of (everything else is on `a2a-kit`).
export type {
  AgentCapabilities,
  AgentCard,
  AgentInterface,
  AgentSkill,
  Artifact,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  JsonObject,
  JsonValue,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  OperationName,
  Part,
  SecurityScheme,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatusUpdateEvent,
} from '../index.js';
