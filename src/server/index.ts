/** Server side of a2a-kit: write an executor, describe a card, serve it. */
export { createAgentServer, AgentServer, type AgentServerOptions } from './agent-server.js';
export { A2AService, type A2AServiceOptions, type ExtendedCardSource } from './service.js';
export {
  agentMessage,
  textOf,
  type AgentExecutor,
  type AgentMessageInit,
  type ArtifactInit,
  type RequestContext,
  type TaskUpdater,
} from './executor.js';
export { callContext, type Caller, type CallContext } from './caller.js';
export { silentLogger, type Logger } from './logger.js';
export { canTransition, IllegalTransitionError } from './task-state.js';
export type { TaskStore, Scope, TaskQuery, TaskPage } from './store/task-store.js';
export { InMemoryTaskStore, type MemoryTaskStoreOptions } from './store/memory.js';
export { SqliteTaskStore, type SqliteTaskStoreOptions } from './store/sqlite.js';
export type { Authenticator, BindingOptions } from './bindings/common.js';
export { jsonRpcListener } from './bindings/jsonrpc.js';
export type { EventStream, StreamSink } from './event-stream.js';
export { CardResponder, type CardResponderOptions } from './card-http.js';
export { signAgentCard, type CardSigningKey } from './card-signing.js';
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
  safeEqual,
  type SchemeVerifier,
  type SchemeOutcome,
  type Verifiers,
  type CardAuthOptions,
  type ServerAuthOptions,
  type JwtBearerOptions,
} from './auth/index.js';
export { restListener } from './bindings/rest.js';
export { restRouteTable } from './bindings/rest-routes.js';
export { toFetchHandler, type FetchHandlerOptions, type NodeListener } from './adapters/fetch.js';
export { a2aExpress, a2aFastify, type FastifyLike, type FrameworkAdapterOptions } from './adapters/frameworks.js';
