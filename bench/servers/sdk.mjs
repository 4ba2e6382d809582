/** The same echo agent on the official @a2a-js/sdk 1.3.0 with its Express integration (v1.0 wire format). */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { report, extraUpdates } from './harness.mjs';

const now = () => new Date().toISOString();
const status = (state) => ({ state, message: undefined, timestamp: now() });

const executor = {
  async execute(rc, bus) {
    const msg = rc.userMessage;
    let text = '';
    for (const p of msg.parts) if (p.content?.$case === 'text') text = text ? `${text}\n${p.content.value}` : p.content.value;
    const ids = { taskId: rc.taskId, contextId: rc.contextId, metadata: undefined };
    if (!rc.task) {
      bus.publish(
        AgentEvent.task({
          id: rc.taskId,
          contextId: rc.contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [msg],
          metadata: undefined,
        }),
      );
    }
    bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_WORKING) }));
    for (let i = extraUpdates(text); i > 0; i--) {
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_WORKING) }));
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        ...ids,
        artifact: {
          artifactId: randomUUID(),
          name: 'echo',
          description: '',
          parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
      }),
    );
    bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_COMPLETED) }));
    bus.finished();
  },
  async cancelTask() {},
};

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
  const port = await new Promise((resolve, reject) => grpcServer.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  grpcTarget = `127.0.0.1:${port}`;
}

const card = {
  name: 'echo',
  description: 'Echoes what you send',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ...(grpcTarget ? [{ url: grpcTarget, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }] : []),
  ],
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const userBuilder = UserBuilder.noAuthentication;
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder }));
app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder }));

if (grpcServer) {
  const { A2AService, grpcService, UserBuilder: GrpcUsers } = await import('@a2a-js/sdk/server/grpc');
  grpcServer.addService(A2AService, grpcService({ requestHandler: handler, userBuilder: GrpcUsers.noAuthentication }));
}
report(origin, grpcTarget ? { grpc: grpcTarget } : {});
