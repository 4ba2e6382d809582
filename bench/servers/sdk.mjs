/** The same echo agent on the official @a2a-js/sdk 1.3.0 with its Express integration (v1.0 wire format). */
import express from 'express';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from '@a2a-js/sdk/server/express';
import { report } from './harness.mjs';
import { sdkEcho, sdkEchoCard } from './sdk-echo.mjs';

const app = express();
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const origin = `http://127.0.0.1:${server.address().port}`;

// gRPC scenarios: the SDK's own gRPC service over the same request handler. Bound first: the SDK only
// serves a protocol version that the card lists for the binding, so the card needs the gRPC address.
let grpcServer;
let grpcTarget;
if (process.env.BENCH_GRPC) {
  const { Server, ServerCredentials } = await import('@grpc/grpc-js');
  grpcServer = new Server();
  const port = await new Promise((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  grpcTarget = `127.0.0.1:${port}`;
}

const card = sdkEchoCard([
  { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ...(grpcTarget ? [{ url: grpcTarget, protocolBinding: 'GRPC', protocolVersion: '1.0' }] : []),
]);

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), sdkEcho);
const userBuilder = UserBuilder.noAuthentication;
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder }));
app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder }));

if (grpcServer) {
  const {
    A2AService,
    grpcService,
    UserBuilder: GrpcUsers,
  } = await import('@a2a-js/sdk/server/grpc');
  grpcServer.addService(
    A2AService,
    grpcService({ requestHandler: handler, userBuilder: GrpcUsers.noAuthentication }),
  );
}
report(origin, grpcTarget ? { grpc: grpcTarget } : {});
