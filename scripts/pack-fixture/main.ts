/**
 * A user's program against the installed tarball: every entry point by package name, one small agent
 * served four ways (node:http, the Express-style middleware on plain node:http, the fetch handler, no
 * network at all) and a client for each, plus the push receiver. Exits non-zero on the first surprise.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  A2AError,
  PROTOCOL_VERSION,
  PUSH_TOKEN_HEADER,
  isA2AError,
  isTerminal,
  parseAgentCard,
  type AgentCard,
  type Task,
} from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage, type StreamResponse } from 'a2a-kit/client';
import { createPushReceiver } from 'a2a-kit/client/push-receiver';
import { a2aExpress } from 'a2a-kit/server/express';
import { a2aFastify } from 'a2a-kit/server/fastify';
import { toFetchHandler } from 'a2a-kit/server/fetch';

const shout: AgentExecutor = (ctx, task) => {
  task.working('shouting');
  task.addArtifact({ name: 'loud', parts: [{ text: ctx.text.toUpperCase() }] });
  task.complete();
};

const card = (origin: string): AgentCard => ({
  name: 'shout',
  description: 'Repeats your text, louder',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: PROTOCOL_VERSION },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'shout', name: 'Shout', description: 'Upper-cases text', tags: ['demo'] }],
});
assert.ok(
  (await parseAgentCard(card('http://localhost'))).ok,
  'the card validates with the root entry',
);

async function roundTrip(client: A2AClient, text: string): Promise<Task> {
  const res = await client.sendMessage({ message: userMessage(text) });
  assert.ok('task' in res && res.task, `expected a task, got ${JSON.stringify(res)}`);
  const task: Task = res.task;
  assert.ok(isTerminal(task.status.state), task.status.state);
  assert.equal(task.artifacts?.[0]?.parts[0]?.text, text.toUpperCase());
  return task;
}

// 1. listen(): the agent's own node:http server.
const agent = createAgentServer({ executor: shout, card });
const origin = await agent.listen(0, '127.0.0.1');
const client = await A2AClient.connect(origin);
const task = await roundTrip(client, 'hello');
const events: StreamResponse[] = [];
for await (const e of client.sendStreamingMessage({ message: userMessage('stream') }))
  events.push(e);
assert.ok(events.length >= 2, `streamed ${events.length} events`);
await assert.rejects(
  client.getTask('no-such-task'),
  (e: unknown) => e instanceof A2AError && isA2AError(e) && e.kind === 'TaskNotFound',
);
await agent.close();

// 2. The Express/Connect middleware, mounted in plain node:http (express itself is not installed).
const viaMiddleware = createAgentServer({ executor: shout, card });
const http = createServer();
await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
const mwOrigin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const middleware = a2aExpress(viaMiddleware, { origin: mwOrigin });
http.on('request', (req, res) => middleware(req, res, () => res.writeHead(404).end()));
await roundTrip(await A2AClient.connect(mwOrigin), 'middleware');
await viaMiddleware.close();
await new Promise<void>((r) => http.close(() => r()));

// 3. The fetch handler, called without any socket: the client's fetch is the handler itself.
const fetchOrigin = 'http://agent.invalid';
const handle = toFetchHandler(createAgentServer({ executor: shout, card }), {
  origin: fetchOrigin,
});
await roundTrip(
  await A2AClient.connect(fetchOrigin, {
    fetch: (input, init) => handle(new Request(input, init)),
  }),
  'fetch',
);

// 4. The Fastify plugin loads and builds without fastify installed.
assert.equal(
  typeof a2aFastify(createAgentServer({ executor: shout, card }), { origin: 'http://localhost' }),
  'function',
);

// 5. The push receiver accepts an authenticated notification and refuses an unauthenticated one.
const received: StreamResponse[] = [];
const receiver = createPushReceiver({
  token: 'push-secret',
  onEvent: (e) => void received.push(e),
});
const notification = (token: string) =>
  new Request('http://client.invalid/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [PUSH_TOKEN_HEADER]: token },
    body: JSON.stringify({
      statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status },
    }),
  });
assert.equal((await receiver.fetch(notification('push-secret'))).status, 204);
assert.equal((await receiver.fetch(notification('wrong'))).status, 401);
assert.equal(received.length, 1);

console.log(
  `main: ok (listen, express middleware, fetch handler, fastify plugin, push receiver; ${events.length} streamed events)`,
);
