/**
 * a2a-kit gRPC client transport (`a2a-kit/client/grpc`): plug it into `A2AClient` and the
 * client uses an agent's GRPC interface whenever interface selection (§8.3.2) picks it. No dependency:
 * it speaks HTTP/2 (node:http2) and protobuf itself.
 *
 * @example
 * ```ts
 * import { A2AClient } from 'a2a-kit/client';
 * import { grpcTransport } from 'a2a-kit/client/grpc';
 * const client = await A2AClient.connect('http://localhost:41241', { transports: { GRPC: grpcTransport() } });
 * ```
 * @packageDocumentation
 */
export { GrpcTransport, grpcTransport, type GrpcTransportOptions } from './transport.js';
