/**
 * The A2AService for a grpc-js `Server` of your own (`a2a-kit/server/grpc-js`), next to your other
 * services on one port: the same dispatcher, operations and errors as `serveGrpc`, with grpc-js doing
 * the HTTP/2. Needs the optional peer dependency `@grpc/grpc-js`. Without a
 * grpc-js server to share, `serveGrpc` from `a2a-kit/server/grpc` serves gRPC without grpc-js.
 *
 * @example
 * ```ts
 * import { Server, ServerCredentials } from '@grpc/grpc-js';
 * import { createAgentServer } from 'a2a-kit/server';
 * import { A2A_SERVICE_DEFINITION, grpcHandlers } from 'a2a-kit/server/grpc-js';
 * const agent = createAgentServer({ card, executor });
 * await agent.listen(41241);
 * const server = new Server();
 * server.addService(A2A_SERVICE_DEFINITION, grpcHandlers(agent)); // the agent's own auth and logger
 * server.bindAsync('0.0.0.0:50051', ServerCredentials.createInsecure(), () => {});
 * ```
 * @packageDocumentation
 */
export { A2A_SERVICE_DEFINITION, grpcHandlers, type GrpcHandlerOptions } from './handlers.js';
export type { CallAuth as GrpcAuth } from '../kernel/request.js';
export type { ServedAgent } from '../kernel/engine.js';
