/**
 * Serve an agent over A2A 1.0.1: write an executor (a function that drives a task), describe the
 * agent card, and `listen` — or mount the server's listener in your own HTTP server.
 *
 * Optional parts live on their own subpaths: `a2a-kit/server/sqlite` (the SQLite store, needs
 * `better-sqlite3`), `a2a-kit/server/express`, `a2a-kit/server/fastify` and `a2a-kit/server/fetch`.
 *
 * @example
 * ```ts
 * import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
 *
 * const echo: AgentExecutor = (ctx, task) => {
 *   task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
 *   task.complete();
 * };
 * const server = createAgentServer({
 *   executor: echo,
 *   card: (origin) => ({
 *     name: 'echo', description: 'Echoes text', version: '1.0.0',
 *     supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
 *     capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
 *     skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
 *   }),
 * });
 * const origin = await server.listen(41240);
 * ```
 * @packageDocumentation
 */

// The server and its options.
export { createAgentServer, AgentServer, type AgentServerOptions } from './agent-server.js';
export type { CompatOptions } from './compat/index.js';
export type { BindingOptions } from './bindings/common.js';
export type { Authenticator, AuthRequest, AuthSocket } from './kernel/request.js';
export type { PushOptions, ExtendedCardSource } from './dispatch/dispatcher.js';
export type { StoreErrorHook } from './tasks/manager.js';
export type { TaskEventBus, BusHost, BusSink, BusSubscription } from './events/bus.js';
export type { TaskLimits } from './tasks/limits.js';
export type { CallerQuotaOptions } from './quota/caller-quota.js';
export {
  silentLogger,
  stderrLogger,
  type Logger,
  type LogLevel,
  type StderrLoggerOptions,
} from './logger.js';
export { DEFAULT_HTTP_TIMEOUTS, type HttpTimeoutOptions } from './mount/http-listen.js';
export {
  DEFAULT_GRPC_CONNECTION_LIMITS,
  type GrpcConnectionOptions,
  type HttpConnectionOptions,
} from './conn/options.js';
export type { HealthOptions, ReadinessCheck, ReadinessReport } from './lifecycle/health.js';
export type { DrainOptions, DrainReport } from './lifecycle/drain.js';
export { closeOnSignals, type CloseOnSignalsOptions, type Closeable } from './lifecycle/signals.js';
export type { AgentGrpcHandle, AgentGrpcOptions } from './grpc/options.js';
export { HostNotAllowedError, type MountOptions } from './mount/origin-policy.js';
export { A2AConfigError } from './kernel/config-error.js';

// Operation hooks: the one seam for logging, tracing, metrics and rate limits (option `hooks`).
export type {
  OperationHooks,
  OperationCall,
  OperationCallOf,
  CompletedCall,
  HookResult,
  StreamSummary,
} from './dispatch/hooks.js';
export type { ServerTelemetry } from './dispatch/telemetry.js';
export type { CallContext } from './dispatch/call-context.js';

// The agent author's API.
export {
  agentMessage,
  textOf,
  type AgentExecutor,
  type AgentMessageInit,
  type ArtifactInit,
  type RequestContext,
  type TaskUpdater,
} from './agent/executor.js';
export type { Caller } from './dispatch/call-context.js';
export { IllegalTransitionError } from './tasks/state.js';

// Stores (the SQLite store is on `a2a-kit/server/sqlite`).
export { InMemoryTaskStore, type MemoryTaskStoreOptions } from './store/memory.js';
export type {
  TaskStore,
  PushConfigStore,
  StoredPushConfig,
  Scope,
  TaskQuery,
  TaskPage,
  VersionedTask,
} from './store/task-store.js';
export { TaskVersionConflict } from './store/task-store.js';

// Agent cards: signing (§8.4).
export { signAgentCard, type CardSigningKey, type CardSigningAlg } from './card/signing.js';

// Authentication (§7): verifiers per security scheme, or one authenticator from the card.
export {
  authenticatorFromCard,
  challengeFromCard,
  bearer,
  basic,
  apiKey,
  mutualTls,
  jwtBearer,
  staticBearerTokens,
  staticApiKeys,
  type SchemeVerifier,
  type SchemeOutcome,
  type Verifiers,
  type CardAuthOptions,
  type ServerAuthOptions,
  type JwtBearerOptions,
} from './auth/index.js';

// Push notifications (§9): sender settings, signing, the webhook address policy.
export type {
  PushSenderOptions,
  PushLogger,
  PushStats,
  DeliveryOutcome,
  PushTracer,
  PushAttempt,
  PushAttemptResult,
} from './push/options.js';
export type { RetryOptions } from './push/retry.js';
export {
  createPushSigner,
  generatePushSigner,
  type PushSigner,
  type PushSignerOptions,
  type PushSigningAlg,
} from './push/signing.js';
export type { WebhookPolicy } from './push/ssrf.js';

// Errors an executor or an authenticator throws, and the protocol model.
export { A2AError, isA2AError, type A2AErrorKind } from '../protocol/errors.js';
export type {
  AgentCard,
  AgentInterface,
  AgentSkill,
  Artifact,
  JsonObject,
  JsonValue,
  Message,
  Part,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
  TaskState,
} from '../index.js';
