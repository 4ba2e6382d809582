/**
 * Agents the inspector's peer tests talk to, each on 127.0.0.1 port 0: one built with the last 0.3
 * release of the reference JavaScript SDK (@a2a-js/sdk 0.3.14, `a2a-sdk-03`), one of ours served over
 * gRPC first (with JSON-RPC after it), and a plain HTTP server that serves whatever card a test gives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor as Sdk03Executor,
} from 'a2a-sdk-03/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from 'a2a-sdk-03/server/express';
import type { AgentCard, JsonObject } from 'a2a-kit';
import { createAgentServer, silentLogger, type AgentExecutor } from 'a2a-kit/server';

/** A running peer. */
export interface Peer {
  origin: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** The SDK 0.3 agent: works, then answers with an artifact that names what it was sent. */
const sdkExecutor: Sdk03Executor = {
  async execute(ctx, bus) {
    const text = ctx.userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    bus.publish({
      kind: 'task',
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: 'submitted' },
      history: [ctx.userMessage],
    });
    bus.publish({ kind: 'status-update', ...ids, status: { state: 'working' }, final: false });
    bus.publish({
      kind: 'artifact-update',
      ...ids,
      artifact: {
        artifactId: 'a1',
        name: 'echo',
        parts: [{ kind: 'text', text: `0.3 heard ${text}` }],
      },
    });
    bus.publish({ kind: 'status-update', ...ids, status: { state: 'completed' }, final: true });
    bus.finished();
  },
  async cancelTask() {},
};

/** An agent of @a2a-js/sdk 0.3.14 over JSON-RPC, with its 0.3 card. */
export async function startSdk03Peer(): Promise<Peer> {
  const app = express();
  const server = createServer(app);
  const origin = await listen(server);
  const card = {
    protocolVersion: '0.3.0',
    name: 'sdk03-peer',
    description: 'the 0.3 reference SDK',
    url: `${origin}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    version: '0.3.14',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'says what it heard', tags: ['t'] }],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), sdkExecutor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return { origin, close: closer(server) };
}

/** What the gRPC peer saw of each call: the custom header, the message's metadata. */
export interface Seen {
  tenant: Array<string | undefined>;
  metadata: Array<JsonObject | undefined>;
}

/** One of our agents with GRPC first in its card; it records what reached it. */
export async function startGrpcPeer(): Promise<Peer & { seen: Seen }> {
  const seen: Seen = { tenant: [], metadata: [] };
  const executor: AgentExecutor = async (ctx, task) => {
    seen.metadata.push(ctx.message.metadata);
    task.working('thinking');
    task.addArtifact({ name: 'answer', parts: [{ text: `grpc heard ${ctx.text}` }] });
    task.complete('done');
  };
  const agent = createAgentServer({
    executor,
    logger: silentLogger,
    authenticate: (req) => {
      const v = req.headers['x-tenant'];
      seen.tenant.push(Array.isArray(v) ? v[0] : v);
      return undefined;
    },
    grpc: { port: 0 },
    card: (origin, grpc): AgentCard => ({
      name: 'grpc-peer',
      description: 'speaks gRPC first',
      version: '1.0.0',
      supportedInterfaces: [
        { url: grpc!.url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'says what it heard', tags: ['t'] }],
    }),
  });
  const origin = await agent.listen(0, '127.0.0.1');
  return { origin, seen, close: () => agent.close(100) };
}

/** A server that answers every request with `card` as JSON (a string is sent as it is). */
export async function startCardPeer(card: unknown): Promise<Peer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof card === 'string' ? card : JSON.stringify(card));
  });
  const origin = await listen(server);
  return { origin, close: closer(server) };
}
