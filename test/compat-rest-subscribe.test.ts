/**
 * 0.3 HTTP+JSON `tasks/{id}:subscribe` (SPEC-NOTES 20): GET in the 0.3 proto's mapping, and what the
 * Python 0.3 server takes (POST gets 405); other 0.3 servers took POST. The client sends GET, falls
 * back to POST once on 405 and remembers it; our server accepts both.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';
import { A2AClient } from '../src/client/index.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { agent as executor, cardFor } from './rest-fixture.js';

/** A 0.3 HTTP+JSON agent that serves `:subscribe` with one verb only and answers the other with 405. */
async function subscribeOnly(verb: 'GET' | 'POST') {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if (!req.url?.endsWith(':subscribe')) return void res.writeHead(404).end();
    seen.push(req.method!);
    if (req.method !== verb) return void res.writeHead(405, { allow: verb }).end();
    const task = { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify({ task })}\n\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: `0.3 ${verb}`,
    description: 'subscribes by one verb',
    version: '1',
    supportedInterfaces: [{ url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  const client = new A2AClient(card, { versions: ['1.0', '0.3'], retry: false });
  return { server, seen, client };
}

const collect = async (events: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> => {
  const out: StreamResponse[] = [];
  for await (const e of events) out.push(e);
  return out;
};

test('the 0.3 client subscribes with GET, as the 0.3 proto maps it', async () => {
  const a = await subscribeOnly('GET');
  try {
    const events = await collect(a.client.subscribeToTask('t-1'));
    assert.ok('task' in events[0]! && events[0].task.id === 't-1');
    assert.deepEqual(a.seen, ['GET']);
  } finally {
    a.server.close();
  }
});

test('a 0.3 server that answers GET with 405 is asked again with POST, and then always with POST', async () => {
  const a = await subscribeOnly('POST');
  try {
    assert.equal((await collect(a.client.subscribeToTask('t-1'))).length, 1);
    assert.equal((await collect(a.client.subscribeToTask('t-1'))).length, 1);
    assert.deepEqual(a.seen, ['GET', 'POST', 'POST']);
  } finally {
    a.server.close();
  }
});

let ours: AgentServer;
let origin: string;
before(async () => {
  ours = createAgentServer({ card: (o) => cardFor(o, 'full'), executor, compat: { v03: true } });
  origin = await ours.listen(0);
});
after(() => ours.close(1000));

test('our server takes 0.3 subscribe by GET and by POST', async () => {
  const sent = await fetch(`${origin}/a2a/rest/v1/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      message: { messageId: 'm-sub', role: 'ROLE_USER', content: [{ text: 'slow' }] },
      configuration: { blocking: false },
    }),
  });
  const task = (await sent.json()) as { task: { id: string } };
  for (const method of ['GET', 'POST']) {
    const ac = new AbortController();
    const res = await fetch(`${origin}/a2a/rest/v1/tasks/${task.task.id}:subscribe`, {
      method,
      headers: { accept: 'text/event-stream' },
      signal: ac.signal,
    });
    assert.equal(res.status, 200, method);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    ac.abort();
  }
});
