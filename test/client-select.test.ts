import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, selectInterface, isA2AClientError } from '../src/client/index.js';
import { majorMinor } from '../src/index.js';
import { makeCard } from './client-fixture.js';

const B = 'http://localhost:41241';
const threeEntries = makeCard(B, {
  supportedInterfaces: [
    { url: 'localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: `${B}/a2a/v0`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: `${B}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${B}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
});

test('§8.3.2 a JSON-RPC 1.0 client skips a GRPC entry and a JSONRPC 0.3 entry and takes the third', () => {
  const s = selectInterface(threeEntries, { bindings: ['JSONRPC'] });
  assert.equal(s.index, 2);
  assert.equal(s.binding, 'JSONRPC');
  assert.equal(s.url, `${B}/a2a/jsonrpc`);
  assert.equal(s.tenant, undefined);
  assert.equal(
    s.reason,
    `skipped [0] GRPC 1.0: binding not spoken; skipped [1] JSONRPC 0.3: version not spoken; chose [2] JSONRPC 1.0 at ${B}/a2a/jsonrpc`,
  );
});

test('§8.3.2 the card order wins over the order of the bindings the caller accepts', () => {
  const s = selectInterface(threeEntries, { bindings: ['HTTP+JSON', 'JSONRPC'] });
  assert.equal(s.index, 2);
  assert.equal(selectInterface(threeEntries, { bindings: ['HTTP+JSON'] }).index, 3);
});

test('§3.6 patch versions never matter when matching', () => {
  assert.equal(majorMinor('1.0.1'), '1.0');
  assert.equal(majorMinor('1'), '1.0');
  assert.equal(majorMinor('x'), undefined);
  const card = makeCard(B, {
    supportedInterfaces: [
      { url: `${B}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0.7' },
    ],
  });
  assert.equal(selectInterface(card).protocolVersion, '1.0');
});

test('§8.3.2 the chosen entry carries its tenant', () => {
  const card = makeCard(B, {
    supportedInterfaces: [
      { url: `${B}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' },
    ],
  });
  assert.equal(selectInterface(card).tenant, 'acme');
});

test('when nothing matches, the error lists what the card offers and what the client speaks', () => {
  const card = makeCard(B, {
    supportedInterfaces: [
      { url: 'localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: `${B}/v0`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
  });
  assert.throws(
    () => selectInterface(card),
    (e: unknown) => {
      assert.ok(isA2AClientError(e));
      assert.equal(e.code, 'NO_COMPATIBLE_INTERFACE');
      assert.match(e.message, /offers \[0\] GRPC 1\.0 localhost:50051, \[1\] JSONRPC 0\.3/);
      assert.match(e.message, /speaks JSONRPC or HTTP\+JSON at version 1\.0/);
      return true;
    },
  );
  assert.throws(
    () => new A2AClient(card),
    (e: unknown) => isA2AClientError(e) && e.code === 'NO_COMPATIBLE_INTERFACE',
  );
});

test('a custom transport makes its binding acceptable', () => {
  const client = new A2AClient(threeEntries, {
    transports: {
      GRPC: (url) => ({
        binding: 'GRPC',
        url,
        call: () => Promise.resolve(undefined),
        stream: () => (async function* () {})(),
      }),
    },
  });
  assert.equal(client.interface.index, 0);
});

test('the client exposes card, capabilities and interface', () => {
  const client = new A2AClient(threeEntries);
  assert.equal(client.interface.index, 2);
  assert.equal(client.capabilities.streaming, true);
  assert.equal(client.card.name, 'test-agent');
});

test('§5.2 when the chosen interface cannot be reached, the next compatible entry is used (and kept)', async () => {
  const { startServer, sendJson, task } = await import('./client-fixture.js');
  const dead = await startServer(() => undefined);
  const deadUrl = dead.url;
  await dead.close();
  const live = await startServer((req, res) => {
    if (req.path === '/a2a/jsonrpc') return sendJson(res, 404, { nope: true });
    sendJson(res, 200, task('t1'));
  });
  try {
    const card = makeCard(live.url, {
      supportedInterfaces: [
        { url: `${deadUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${live.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${live.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
    const warnings: string[] = [];
    const client = new A2AClient(card, {
      retry: false,
      logger: { warn: (_o, m) => warnings.push(m) },
    });
    assert.equal(client.interface.index, 0);
    assert.equal((await client.cancelTask('t1')).id, 't1');
    assert.equal(client.interface.index, 2);
    assert.match(
      client.interface.reason,
      /chose \[2\] HTTP\+JSON 1\.0 .*after \[1\] JSONRPC at .* could not be reached/,
    );
    assert.equal(warnings.length, 2);
    assert.deepEqual(
      live.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /a2a/jsonrpc', 'POST /a2a/rest/tasks/t1:cancel'],
    );
    await client.getTask('t1');
    assert.equal(live.requests.length, 3);

    const stubborn = new A2AClient(card, { retry: false, fallback: false });
    await assert.rejects(
      stubborn.getTask('t1'),
      (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK',
    );
  } finally {
    await live.close();
  }
});

test('§5.2 no fallback once the agent may have seen the request (connection broken mid-answer)', async () => {
  const { startServer, sendJson, task } = await import('./client-fixture.js');
  const s = await startServer((req, res) => {
    if (req.path === '/a2a/jsonrpc') return res.socket?.destroy();
    sendJson(res, 200, { task: task('t1') });
  });
  try {
    const card = makeCard(s.url, {
      supportedInterfaces: [
        { url: `${s.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${s.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
    const client = new A2AClient(card);
    await assert.rejects(
      client.sendMessage({
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      }),
      (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK',
    );
    assert.equal(s.requests.length, 1);
    assert.equal(client.interface.index, 0);
  } finally {
    await s.close();
  }
});

test('§5.2 a stream also falls back when its first interface cannot be reached', async () => {
  const { startServer, startSse, sseEvent, task } = await import('./client-fixture.js');
  const dead = await startServer(() => undefined);
  const deadUrl = dead.url;
  await dead.close();
  const live = await startServer((_req, res) => {
    startSse(res);
    sseEvent(res, { task: task('t1', 'TASK_STATE_COMPLETED') }, '1');
    res.end();
  });
  try {
    const card = makeCard(live.url, {
      supportedInterfaces: [
        { url: `${deadUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${live.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
    const client = new A2AClient(card);
    const got = [];
    for await (const ev of client.subscribeToTask('t1')) got.push(ev);
    assert.equal(got.length, 1);
    assert.equal(client.interface.binding, 'HTTP+JSON');
  } finally {
    await live.close();
  }
});
