import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, isA2AError } from '../src/client/index.js';
import { makeCard, restCard, sendJson, startServer, userMessage } from './client-fixture.js';

/** Drains a stream (bounded: the server below never answers anyway). */
async function drain(it: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of it) void _;
}

for (const [binding, build] of [
  ['JSONRPC', makeCard],
  ['HTTP+JSON', restCard],
] as const) {
  test(`§3.3.4 ${binding}: operations the card rules out throw locally, no request reaches the agent`, async () => {
    const s = await startServer((_req, res) => sendJson(res, 500, {}));
    try {
      const client = new A2AClient(build(s.url, { capabilities: {} }));
      const push = { taskId: 't1', id: 'c1' };
      const cases: Array<[string, () => Promise<unknown>, string]> = [
        [
          'create push config',
          () => client.createPushNotificationConfig({ taskId: 't1', url: 'http://127.0.0.1:9/h' }),
          'PushNotificationNotSupported',
        ],
        [
          'get push config',
          () => client.getPushNotificationConfig(push),
          'PushNotificationNotSupported',
        ],
        [
          'list push configs',
          () => client.listPushNotificationConfigs({ taskId: 't1' }),
          'PushNotificationNotSupported',
        ],
        [
          'delete push config',
          () => client.deletePushNotificationConfig(push),
          'PushNotificationNotSupported',
        ],
        ['extended card', () => client.getExtendedAgentCard(), 'UnsupportedOperation'],
        [
          'streaming send',
          async () => drain(client.sendStreamingMessage(userMessage('x'))),
          'UnsupportedOperation',
        ],
        ['subscribe', async () => drain(client.subscribeToTask('t1')), 'UnsupportedOperation'],
      ];
      for (const [what, call, kind] of cases) {
        await assert.rejects(call(), (e: unknown) => {
          assert.ok(isA2AError(e), what);
          assert.equal(e.kind, kind, what);
          assert.match(
            e.message,
            /not sent: the card of "test-agent" does not declare capabilities\./,
          );
          return true;
        });
      }
      assert.equal(s.requests.length, 0);
    } finally {
      await s.close();
    }
  });
}

test('§3.3.4 a streaming call on a non-streaming card throws at call time, before iteration', () => {
  const client = new A2AClient(
    makeCard('http://127.0.0.1:9', { capabilities: { pushNotifications: true } }),
  );
  assert.throws(
    () => client.sendStreamingMessage(userMessage('x')),
    (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
  );
  assert.throws(
    () => client.subscribeToTask('t'),
    (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
  );
});

test('§3.3.4 a capability set to false is treated like an absent one; operations without a capability are sent', async () => {
  const s = await startServer((req, res) =>
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id: req.json.id,
      result: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    }),
  );
  try {
    const client = new A2AClient(
      makeCard(s.url, {
        capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
      }),
    );
    await assert.rejects(
      client.getExtendedAgentCard(),
      (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
    );
    await client.getTask('t');
    await client.cancelTask('t');
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

test('§3.3.4 an extension the card marks required must be activated, or the call is not sent (ExtensionSupportRequired)', async () => {
  const s = await startServer((req, res) =>
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id: req.json.id,
      result: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    }),
  );
  try {
    const card = makeCard(s.url, {
      capabilities: {
        extensions: [
          { uri: 'https://ext.example/must', required: true },
          { uri: 'https://ext.example/may' },
        ],
      },
    });
    await assert.rejects(new A2AClient(card).getTask('t'), (e: unknown) => {
      assert.ok(isA2AError(e) && e.kind === 'ExtensionSupportRequired');
      assert.match(e.message, /requires extension https:\/\/ext\.example\/must;/);
      return true;
    });
    assert.equal(s.requests.length, 0);
    await new A2AClient(card).getTask('t', { extensions: ['https://ext.example/must'] });
    await new A2AClient(card, { extensions: ['https://ext.example/must'] }).getTask('t');
    assert.equal(s.requests.length, 2);
    assert.equal(s.requests[0]?.headers['a2a-extensions'], 'https://ext.example/must');
  } finally {
    await s.close();
  }
});
