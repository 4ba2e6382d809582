/** The JSON-RPC envelope, versions, capability gating and HTTP-level limits (§9, §3.3.4, §3.6.2) on real HTTP. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  card,
  errorInfo,
  msg,
  post,
  rpc,
  start,
  UNKNOWN_TASK,
  V,
  type Started,
} from './core-fixture.js';

let s: Started; // streaming only: no push, no extended card
before(async () => {
  s = await start({ streaming: true }, { maxBodyBytes: 64 * 1024 });
});
after(() => s.close());

/** Every JSON-RPC error answer: HTTP 200, the id echoed, a numeric code, data (if any) an array of @type objects. */
function checkError(r: { status: number; body: any }, id: unknown, code: number): void {
  assert.equal(r.status, 200, 'JSON-RPC errors travel with HTTP 200');
  assert.equal(r.body.jsonrpc, '2.0');
  assert.deepEqual(r.body.id, id);
  assert.equal(r.body.result, undefined);
  assert.equal(r.body.error.code, code, JSON.stringify(r.body.error));
  assert.equal(typeof r.body.error.message, 'string');
  if (r.body.error.data !== undefined) {
    assert.ok(Array.isArray(r.body.error.data), 'error.data is an array');
    for (const d of r.body.error.data)
      assert.equal(typeof d['@type'], 'string', 'each detail has @type');
  }
}

// ---- envelope (§9.3, §9.5, SPEC-NOTES 4)

test('§9.5 unparseable JSON → -32700 with id null', async () => {
  checkError(await post(s.url, '{"jsonrpc":"2.0","id":1,"method":'), null, -32700);
});

test('§9.5 a batch (array) → -32600', async () => {
  checkError(
    await post(
      s.url,
      JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }]),
    ),
    null,
    -32600,
  );
});

test('§9.5 a JSON value that is not a request object → -32600', async () => {
  checkError(await post(s.url, '"hello"'), null, -32600);
  checkError(await post(s.url, 'null'), null, -32600);
});

test('§9.5 wrong or missing jsonrpc → -32600 (id echoed)', async () => {
  checkError(
    await post(
      s.url,
      JSON.stringify({ jsonrpc: '1.0', id: 5, method: 'GetTask', params: { id: 'x' } }),
    ),
    5,
    -32600,
  );
  checkError(
    await post(s.url, JSON.stringify({ id: 'a', method: 'GetTask', params: { id: 'x' } })),
    'a',
    -32600,
  );
});

test('§9.5 missing or non-string method → -32600, not -32602', async () => {
  checkError(await post(s.url, JSON.stringify({ jsonrpc: '2.0', id: 6, params: {} })), 6, -32600);
  checkError(await post(s.url, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 42 })), 7, -32600);
});

test('§9.5 an object (or array, or boolean) id → -32600 with id null', async () => {
  for (const id of [{ a: 1 }, [1], true]) {
    checkError(
      await post(
        s.url,
        JSON.stringify({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'x' } }),
      ),
      null,
      -32600,
    );
  }
});

test('§9.5 unknown method → -32601 (0.3 names such as message/send included)', async () => {
  checkError(await rpc(s.url, 'NoSuchMethod', {}, V, 8), 8, -32601);
  checkError(await rpc(s.url, 'message/send', { message: msg('echo') }, V, 9), 9, -32601);
});

test('§9.5 params that are not an object → -32602', async () => {
  checkError(await rpc(s.url, 'GetTask', [UNKNOWN_TASK], V, 10), 10, -32602);
  checkError(await rpc(s.url, 'GetTask', 'x', V, 11), 11, -32602);
});

test('§9.5 invalid params carry a google.rpc.BadRequest naming the field', async () => {
  const r = await rpc(
    s.url,
    'SendMessage',
    { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } },
    V,
    12,
  );
  checkError(r, 12, -32602);
  const br = r.body.error.data.find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
  );
  assert.deepEqual(
    br.fieldViolations.map((v: any) => v.field),
    ['message.parts'],
  );
});

test('§9.3 the response echoes the request id: string, number, null', async () => {
  for (const id of ['abc', 0, 12345, null]) {
    const r = await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK }, V, id);
    checkError(r, id, -32001);
  }
  const ok = await rpc(s.url, 'SendMessage', { message: msg('echo') }, V, 'ok-1');
  assert.equal(ok.body.id, 'ok-1');
  assert.ok(ok.body.result.task);
});

test('§9.5 A2A errors carry an ErrorInfo with reason and domain a2a-protocol.org', async () => {
  const r = await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK });
  checkError(r, 1, -32001);
  assert.deepEqual(
    { reason: errorInfo(r.body)?.reason, domain: errorInfo(r.body)?.domain },
    { reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' },
  );
});

test('§5.7 unknown members in the request are ignored', async () => {
  const r = await rpc(s.url, 'SendMessage', {
    message: { ...msg('echo'), kind: 'message', future: 1 },
    somethingNew: true,
  });
  assert.equal(r.body.result.task.status.state, 'TASK_STATE_COMPLETED');
});

// ---- versions (§3.6.2, SPEC-NOTES 1)

test('§3.6.2 missing A2A-Version means 0.3 → -32009', async () => {
  const r = await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK }, {});
  checkError(r, 1, -32009);
  assert.equal(errorInfo(r.body)?.reason, 'VERSION_NOT_SUPPORTED');
});

test('§3.6.2 empty A2A-Version means 0.3 → -32009', async () => {
  checkError(await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK }, { 'A2A-Version': '' }), 1, -32009);
});

test('§3.6.2 an unsupported version (2.0, 0.3, garbage) → -32009', async () => {
  for (const v of ['2.0', '0.3', '1.1', 'one'])
    checkError(await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK }, { 'A2A-Version': v }), 1, -32009);
});

test('§3.6 patch numbers do not matter: 1.0.1 is accepted', async () => {
  checkError(
    await rpc(s.url, 'GetTask', { id: UNKNOWN_TASK }, { 'A2A-Version': '1.0.1' }),
    1,
    -32001,
  );
});

test('§3.6.1 the version may come as the A2A-Version query parameter', async () => {
  checkError(await rpc(`${s.url}?A2A-Version=1.0`, 'GetTask', { id: UNKNOWN_TASK }, {}), 1, -32001);
  checkError(await rpc(`${s.url}?A2A-Version=2.0`, 'GetTask', { id: UNKNOWN_TASK }, {}), 1, -32009);
});

test('§3.6.2 the version check applies to streaming methods too (error before any stream)', async () => {
  const r = await rpc(s.url, 'SendStreamingMessage', { message: msg('echo') }, {});
  checkError(r, 1, -32009);
});

// ---- capability gating (§3.3.4, SPEC-NOTES 3)

const PUSH_OPS: Array<[string, Record<string, unknown>]> = [
  ['CreateTaskPushNotificationConfig', { taskId: UNKNOWN_TASK, url: 'https://example.com/hook' }],
  ['GetTaskPushNotificationConfig', { taskId: UNKNOWN_TASK, id: 'cfg' }],
  ['ListTaskPushNotificationConfigs', { taskId: UNKNOWN_TASK }],
  ['DeleteTaskPushNotificationConfig', { taskId: UNKNOWN_TASK, id: 'cfg' }],
];

for (const [method, params] of PUSH_OPS) {
  test(`§3.3.4 ${method} without pushNotifications → -32003 even for an unknown task`, async () => {
    const r = await rpc(s.url, method, params);
    checkError(r, 1, -32003);
    assert.equal(r.body.error.message, 'Push notifications are not supported');
    assert.deepEqual(
      { reason: errorInfo(r.body)?.reason, domain: errorInfo(r.body)?.domain },
      { reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED', domain: 'a2a-protocol.org' },
    );
  });
}

test('§3.3.4 push config without capability → -32003 even with invalid params', async () => {
  checkError(
    await rpc(s.url, 'CreateTaskPushNotificationConfig', {
      taskId: UNKNOWN_TASK,
      url: 'not a url',
    }),
    1,
    -32003,
  );
  checkError(await rpc(s.url, 'GetTaskPushNotificationConfig', {}), 1, -32003);
});

test('§3.3.4 SendMessage with a taskPushNotificationConfig without pushNotifications → -32003', async () => {
  const r = await rpc(s.url, 'SendMessage', {
    message: msg('echo'),
    configuration: { taskPushNotificationConfig: { url: 'https://example.com/hook' } },
  });
  checkError(r, 1, -32003);
});

test('§3.3.4 streaming operations without the streaming capability → -32004', async () => {
  const plain = await start({});
  try {
    checkError(await rpc(plain.url, 'SendStreamingMessage', { message: msg('echo') }), 1, -32004);
    checkError(await rpc(plain.url, 'SubscribeToTask', { id: UNKNOWN_TASK }), 1, -32004);
    const r = await rpc(plain.url, 'SubscribeToTask', { id: UNKNOWN_TASK });
    assert.equal(errorInfo(r.body)?.reason, 'UNSUPPORTED_OPERATION');
    const ok = await rpc(plain.url, 'SendMessage', { message: msg('echo') });
    assert.equal(
      ok.body.result.task.status.state,
      'TASK_STATE_COMPLETED',
      'unary calls still work',
    );
  } finally {
    await plain.close();
  }
});

test('§3.3.4 GetExtendedAgentCard without the extendedAgentCard flag → -32004', async () => {
  checkError(await rpc(s.url, 'GetExtendedAgentCard', undefined), 1, -32004);
});

test('§3.3.4 GetExtendedAgentCard declared but not configured → -32007', async () => {
  // An authenticated caller: the extended card is only for them (§3.1.11), whatever the configuration.
  const declared = await start(
    { extendedAgentCard: true },
    { authenticate: () => ({ id: 'someone' }) },
  );
  try {
    const r = await rpc(declared.url, 'GetExtendedAgentCard', {});
    checkError(r, 1, -32007);
    assert.equal(errorInfo(r.body)?.reason, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED');
  } finally {
    await declared.close();
  }
});

test('§3.1.11 GetExtendedAgentCard declared and configured → the extended card for an authenticated caller', async () => {
  const ext = await start(
    { extendedAgentCard: true },
    {
      authenticate: () => ({ id: 'someone' }),
      extendedCard: {
        ...card('http://127.0.0.1:1', { extendedAgentCard: true }),
        name: 'extended',
      },
    },
  );
  try {
    const r = await rpc(ext.url, 'GetExtendedAgentCard', {});
    assert.equal(r.body.result?.name, 'extended', JSON.stringify(r.body));
  } finally {
    await ext.close();
  }
});

test('§3.3.4 a required extension the client did not declare → -32008', async () => {
  const ext = await start({ extensions: [{ uri: 'https://example.com/ext/v1', required: true }] });
  try {
    checkError(await rpc(ext.url, 'GetTask', { id: UNKNOWN_TASK }), 1, -32008);
    checkError(
      await rpc(
        ext.url,
        'GetTask',
        { id: UNKNOWN_TASK },
        { ...V, 'A2A-Extensions': 'https://example.com/ext/v1' },
      ),
      1,
      -32001,
    );
  } finally {
    await ext.close();
  }
});

// ---- HTTP-level limits

test('a body over the limit → 413 with a JSON-RPC error that says so', async () => {
  const big = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: msg('x'.repeat(100 * 1024)) },
  });
  const r = await post(s.url, big);
  assert.equal(r.status, 413);
  assert.equal(r.body.id, null);
  assert.equal(r.body.error.code, -32600);
  assert.match(r.body.error.message, /larger than the 65536-byte limit/);
});

test('JSON-RPC is POST only: GET → 405 with Allow: POST', async () => {
  const r = await fetch(s.url, { headers: V, signal: AbortSignal.timeout(5000) });
  assert.equal(r.status, 405);
  assert.equal(r.headers.get('allow'), 'POST');
  await r.text();
});

test('§3.2.6 extensions the agent used are echoed in the A2A-Extensions response header', async () => {
  const uri = 'https://example.com/ext/geo/v1';
  const r = await rpc(
    s.url,
    'SendMessage',
    { message: msg('ext') },
    { ...V, 'A2A-Extensions': ` ${uri} ` },
  );
  assert.equal(r.body.result.message.parts[0].text, 'used');
  assert.equal(r.headers.get('a2a-extensions'), uri);
  const none = await rpc(s.url, 'SendMessage', { message: msg('ext') });
  assert.equal(none.headers.get('a2a-extensions'), null);
});

test('§3.1.7–§3.1.10 push config operations with pushNotifications: create, get, list, delete (idempotent)', async () => {
  const p = await start({ pushNotifications: true }, { push: { policy: { allowLoopback: true } } });
  try {
    const t = (await rpc(p.url, 'SendMessage', { message: msg('ask') })).body.result.task;
    const hook = 'http://127.0.0.1:9/hook';
    const created = await rpc(p.url, 'CreateTaskPushNotificationConfig', {
      taskId: t.id,
      url: hook,
      token: 'tok',
    });
    const cfg = created.body.result;
    assert.ok(cfg?.id, JSON.stringify(created.body));
    assert.equal(cfg.taskId, t.id);
    assert.equal(cfg.url, hook);
    const got = await rpc(p.url, 'GetTaskPushNotificationConfig', { taskId: t.id, id: cfg.id });
    assert.equal(got.body.result.url, hook);
    const listed = await rpc(p.url, 'ListTaskPushNotificationConfigs', { taskId: t.id });
    assert.deepEqual(
      listed.body.result.configs.map((c: any) => c.id),
      [cfg.id],
    );
    for (let i = 0; i < 2; i++) {
      const del = await rpc(p.url, 'DeleteTaskPushNotificationConfig', {
        taskId: t.id,
        id: cfg.id,
      });
      assert.equal(del.body.error, undefined, `delete #${i + 1} succeeds`);
    }
    checkError(
      await rpc(p.url, 'GetTaskPushNotificationConfig', { taskId: t.id, id: cfg.id }),
      1,
      -32001,
    );
    checkError(
      await rpc(p.url, 'CreateTaskPushNotificationConfig', { taskId: UNKNOWN_TASK, url: hook }),
      1,
      -32001,
    );
    checkError(
      await rpc(p.url, 'ListTaskPushNotificationConfigs', { taskId: UNKNOWN_TASK }),
      1,
      -32001,
    );
  } finally {
    await p.close();
  }
});
