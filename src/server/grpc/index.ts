/**
 * a2a-kit gRPC server (`a2a-kit/server/grpc`): the A2AService of §10 over the same dispatcher as the
 * HTTP bindings, served on node:http2 directly, with our own protobuf codec: no dependency, except
 * `@grpc/grpc-js` for this entry point's `grpcHandlers` (the service for a grpc-js Server of your own).
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
export { listenGrpc, serveGrpc, type GrpcListenOptions, type GrpcServeOptions, type GrpcServerHandle } from './serve.js';
export { A2A_SERVICE_DEFINITION, grpcHandlers, type GrpcAuth, type GrpcHandlerOptions } from './handlers.js';
export { GRPC_BINDING, assertGrpcInterfacesServed, isGrpcInterface, unservedGrpcInterfaces } from './interfaces.js';
export { startAgentGrpc } from './agent-hook.js';
export { DEFAULT_MAX_BUFFERED_BYTES, GrpcEventWriter } from './event-writer.js';
export { GRPC_METHODS, GRPC_SERVICE, decodeMessage, encodeMessage, grpcAuthority, type GrpcMethod } from '../../protocol/grpc/index.js';
