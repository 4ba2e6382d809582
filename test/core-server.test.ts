/** The agent server itself: card endpoint, refused cards, graceful close, and the echo example. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { createAgentServer } from '../src/server/index.js';
import { echoAgent } from '../examples/echo-agent.js';
import {
  card,
  msg,
  openStream,
  probe,
  rpc,
  scripted,
  start,
  waitForTask,
  type Gate,
} from './core-fixture.js';

test('§8.2 the card is served at exactly /.well-known/agent-card.json with Cache-Control and ETag; 304 on If-None-Match', async () => {
  const s = await start();
  try {
    const r = await fetch(`${s.origin}/.well-known/agent-card.json`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /json/);
    assert.match(r.headers.get('cache-control') ?? '', /max-age=\d+/);
    const etag = r.headers.get('etag');
    assert.ok(etag);
    const body = await r.json();
    assert.equal(body.name, 'core-test');
    assert.equal(
      body.supportedInterfaces[0].url,
      s.url,
      'the card names the URL the server really serves',
    );
    const again = await fetch(`${s.origin}/.well-known/agent-card.json`, {
      headers: { 'If-None-Match': etag },
    });
    assert.equal(again.status, 304);
    assert.equal((await again.text()).length, 0);
    for (const wrong of [
      '/.well-known/agent.json',
      '/.well-known/agent-card.json/',
      '/.well-known/Agent-Card.json',
    ]) {
      const w = await fetch(`${s.origin}${wrong}`);
      assert.equal(w.status, 404, wrong);
      await w.text();
    }
  } finally {
    await s.close();
  }
});

const base = (origin: string) => card(origin);

for (const [what, iface] of [
  ['GRPC', { protocolBinding: 'GRPC', protocolVersion: '1.0' }],
  ['JSONRPC 0.3', { protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
] as const) {
  test(`§8.3.1 a card listing an interface the server does not serve (${what}) → listen() rejects with a clear message`, async () => {
    const server = createAgentServer({
      executor: scripted(probe()),
      card: (o) => ({
        ...base(o),
        supportedInterfaces: [...base(o).supportedInterfaces, { url: `${o}/other`, ...iface }],
      }),
    });
    await assert.rejects(server.listen(0), (e: Error) => {
      assert.match(
        e.message,
        new RegExp(`supportedInterfaces\\[1\\].*${iface.protocolBinding} ${iface.protocolVersion}`),
      );
      assert.match(e.message, /does not serve/);
      return true;
    });
    await server.close();
  });
}

test('graceful close: open streams end cleanly, an in-flight request still gets its answer', async () => {
  const s = await start();
  let closed = false;
  try {
    const t = await rpc(s.url, 'SendMessage', {
      message: msg('gate sub-close'),
      configuration: { returnImmediately: true },
    });
    const id = (t.body.result.task as Task).id;
    await waitForTask(s.url, id, (x) => x.status.state === 'TASK_STATE_WORKING');
    const st = await openStream(s.url, 'SubscribeToTask', { id });
    assert.equal((await st.next())!.data.result.task.id, id);
    const inflight = rpc(s.url, 'SendMessage', { message: msg('gate inflight') });
    // Wait until the in-flight call's task exists, so the request is really in progress.
    for (let i = 0; i < 250 && !s.probe.gates.has('inflight'); i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(s.probe.gates.has('inflight'));
    const closing = s.server.close(3000);
    const gate: Gate = s.probe.gate('inflight');
    gate.open();
    const answer = await inflight;
    assert.equal(answer.status, 200);
    assert.equal(
      answer.body.result?.task?.status.state,
      'TASK_STATE_COMPLETED',
      JSON.stringify(answer.body),
    );
    assert.deepEqual(await st.rest(), []);
    assert.ok(st.cleanEnd, `the stream ended cleanly, not cut (${String(st.error)})`);
    await closing;
    closed = true;
    await assert.rejects(
      fetch(s.url, { method: 'POST', body: '{}' }),
      'no new connections after close',
    );
  } finally {
    s.probe.gate('sub-close').open();
    if (!closed) await s.close();
  }
});

test('graceful close lets an in-flight request finish before telling agents to stop', async () => {
  const s = await start();
  const inflight = rpc(s.url, 'SendMessage', { message: msg('polite pol') });
  for (let i = 0; i < 250 && !s.probe.gates.has('pol'); i++)
    await new Promise((r) => setTimeout(r, 20));
  const closing = s.server.close(3000);
  s.probe.gate('pol').open();
  const answer = await inflight;
  await closing;
  assert.equal(
    answer.body.result?.task?.status.state,
    'TASK_STATE_COMPLETED',
    JSON.stringify(answer.body),
  );
});

test('examples/echo-agent.ts: echoAgent(0) answers one SendMessage with the echoed artifact', async () => {
  const { origin, close } = await echoAgent(0);
  try {
    const cardRes = await fetch(`${origin}/.well-known/agent-card.json`);
    const url = (await cardRes.json()).supportedInterfaces[0].url as string;
    const r = await rpc(url, 'SendMessage', { message: msg('hello echo') });
    const t = r.body.result.task as Task;
    assert.equal(t.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(t.artifacts![0]!.parts[0]!.text, 'hello echo');
  } finally {
    await close();
  }
});
