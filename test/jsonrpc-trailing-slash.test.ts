/**
 * A JSON-RPC interface URL written with a trailing slash (`…/jsonrpc/`, as the cross-SDK integration
 * kit's runner and several Python agents write it) names the same endpoint as without it: our server
 * answers both, and our client reaches an agent whose card lists it that way.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { A2AClient } from '../src/client/index.js';
import { agent as executor, cardFor, message } from './rest-fixture.js';

let server: AgentServer;
let origin: string;

before(async () => {
  server = createAgentServer({
    card: (o) => {
      const card = cardFor(o, 'full');
      card.supportedInterfaces[0]!.url += '/';
      return card;
    },
    executor,
  });
  origin = await server.listen(0);
});
after(() => server.close(1000));

const post = (path: string) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message('echo slash') },
    }),
    signal: AbortSignal.timeout(5000),
  });

test('§9 the server answers a JSON-RPC interface at its URL with and without the trailing slash', async () => {
  assert.equal(server.service.card.supportedInterfaces[0]!.url, `${origin}/a2a/jsonrpc/`);
  for (const path of ['/a2a/jsonrpc/', '/a2a/jsonrpc']) {
    const res = await post(path);
    assert.equal(res.status, 200, path);
    const body = (await res.json()) as { result?: { task?: { status: { state: string } } } };
    assert.equal(body.result?.task?.status.state, 'TASK_STATE_COMPLETED', path);
  }
  assert.equal((await post('/a2a/jsonrpc/x')).status, 404, 'only the interface URL itself');
});

test('the client reaches an agent whose card lists the JSON-RPC URL with a trailing slash', async () => {
  const client = await A2AClient.connect(origin, { cache: false, bindings: ['JSONRPC'] });
  assert.equal(client.interface.url, `${origin}/a2a/jsonrpc/`);
  const sent = await client.sendMessage({ message: message('echo via client') as never });
  assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  assert.equal((await client.getTask(sent.task.id)).id, sent.task.id);
});
