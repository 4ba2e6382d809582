/**
 * a2a-kit client: discover an agent (well-known card, HTTP caching, signature check), choose the
 * interface the spec says to choose (§8.3.2), and call the eleven A2A operations over JSON-RPC or
 * HTTP+JSON with capability checks before any round trip. The push-notification receiver is on
 * `a2a-kit/client/push-receiver`.
 *
 * @example
 * ```ts
 * import { A2AClient, userMessage } from 'a2a-kit/client';
 * const client = await A2AClient.connect('http://localhost:41241');
 * const res = await client.sendMessage({ message: userMessage('hi') });
 * ```
 * @packageDocumentation
 */
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

export { userMessage } from './message.js';
export type { UserMessageInit } from './message.js';

export { resolveAgentCard, discoverAgentCard, wellKnownCardUrl, defaultCardCache } from './discovery.js';
export type { CardSource, DiscoveredCard, ResolveCardOptions } from './discovery.js';
export { CardCache } from './card-cache.js';
export type { CachedCard, CardCacheOptions } from './card-cache.js';
export { verifyAgentCard, assertAgentCardVerified, AgentCardVerificationError, DEFAULT_CARD_ALGORITHMS } from './card-verify.js';
export type { CardTrust, CardVerifyResult, CardVerifyFailure, JwksFetcher } from './card-verify.js';

export { selectInterface, compatibleInterfaces, majorMinor, DEFAULT_BINDINGS } from './select-interface.js';
export type { SelectInterfaceOptions, SelectedInterface } from './select-interface.js';

export { applyCredentials, schemeKind } from './auth.js';
export type { AppliedAuth, Credential, CredentialQuery, Credentials, SchemeKind } from './auth.js';

export { JsonRpcTransport } from './jsonrpc-transport.js';
export { RestTransport } from './rest-transport.js';
export type { HttpTransportOptions, StreamEvent, Transport, TransportFactory, TransportRequest } from './transport.js';

export { A2AClientError, isA2AClientError, neverReachedAgent } from './errors.js';
export type { ClientErrorCode } from './errors.js';
export { DEFAULT_RETRY_POLICY, SAFE_OPERATIONS } from './retry.js';
export type { RetryPolicy } from './retry.js';
export type { FetchLike } from './http.js';

// Errors the agent reports arrive as A2AError, with the kind the agent sent.
export { A2AError, isA2AError, type A2AErrorKind } from '../protocol/errors.js';

// The protocol model the client's results are made of (everything else is on `a2a-kit`).
export type {
  AgentCard,
  AgentInterface,
  AgentSkill,
  Artifact,
  JsonObject,
  JsonValue,
  ListTasksResponse,
  Message,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatusUpdateEvent,
} from '../index.js';
