/**
 * What an agent server calls to serve gRPC from its own configuration (§5.2: one card lists every
 * binding the agent serves). It is loaded with `import()` only when gRPC is configured, so agents
 * without gRPC never load its codec; grpc-js is not loaded on this path at all (the server speaks
 * HTTP/2 itself). The gRPC port is bound first, because the card names it; the
 * card-derived authenticator is read on every call, because it only exists once the card does.
 */
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { GrpcAuth } from './options.js';
import { listenGrpc, type GrpcListenOptions, type GrpcServerHandle } from './serve.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';

export type { GrpcListenOptions, GrpcServerHandle } from './serve.js';
export type { GrpcAuth } from './options.js';

/**
 * Start the gRPC listener of an agent server; `auth` returns the binding options its card produced,
 * `track` registers its streams with the server's (so a drain reaches them as it reaches SSE streams).
 */
export function startAgentGrpc(
  service: OperationDispatcher,
  options: GrpcListenOptions,
  auth: () => GrpcAuth,
  track?: (stream: OpenStream) => Untrack,
): Promise<GrpcServerHandle> {
  return listenGrpc(service, options, auth, track);
}
