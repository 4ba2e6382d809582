/**
 * a2a-kit gRPC server (`a2a-kit/server/grpc`): the A2AService of §10 over the same dispatcher as the
 * HTTP bindings, served on node:http2 directly, with our own protobuf codec: no dependency at all (to
 * mount the service on a grpc-js `Server` of your own, see `a2a-kit/server/grpc-js`).
 *
 * @example
 * ```ts
 * import { createAgentServer } from 'a2a-kit/server';
 * import { serveGrpc } from 'a2a-kit/server/grpc';
 * const agent = createAgentServer({ card, executor });
 * await agent.listen(41241);
 * const grpc = await serveGrpc(agent, { port: 50051 });
 * ```
 * @packageDocumentation
 */
export {
  serveGrpc,
  type GrpcJsServerCredentials,
  type GrpcServeOptions,
  type GrpcServerHandle,
} from './serve.js';
export type { ServedAgent } from '../kernel/engine.js';
export { DEFAULT_GRPC_CONNECTION_LIMITS, type GrpcConnectionOptions } from '../conn/options.js';
