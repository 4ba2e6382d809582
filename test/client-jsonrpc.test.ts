import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { A2AClient, isA2AError, type A2AError } from '../src/client/index.js';
import {
  makeCard,
  rpcError,
  rpcResult,
  sendJson,
  sseEvent,
  startServer,
  startSse,
  statusUpdate,
  task,
  userMessage,
  type Recorded,
  type TestServer,
} from './client-fixture.js';

type RpcHandler = (params: any, req: Recorded, res: ServerResponse, id: unknown) => unknown;

/** A JSON-RPC agent: each handler returns a result, or writes the response itself and returns undefined. */
async function rpcAgent(handlers: Record<string, RpcHandler>): Promise<TestServer> {
  return startServer((req, res) => {
    const { id, method, params } = req.json ?? {};
    const h = handlers[method];
    if (!h) return sendJson(res, 200, rpcError(id, -32601, 'Method not found', 'METHOD_NOT_FOUND'));
    const out = h(params, req, res, id);
    if (out !== undefined) sendJson(res, 200, rpcResult(id, out));
  });
}

async function withAgent(
  handlers: Record<string, RpcHandler>,
  fn: (s: TestServer, client: A2AClient) => Promise<void>,
  card = {},
) {
  const s = await rpcAgent(handlers);
  try {
    await fn(s, new A2AClient(makeCard(s.url, card), { extensions: ['https://ext.example/a'] }));
  } finally {
    await s.close();
  }
}

test('§9 SendMessage is a JSON-RPC 2.0 POST to the interface URL with A2A-Version, Content-Type and A2A-Extensions', async () => {
  await withAgent(
    { SendMessage: () => ({ task: task('t1', 'TASK_STATE_COMPLETED') }) },
    async (s, client) => {
      const res = await client.sendMessage(userMessage('hello'), {
        extensions: ['https://ext.example/b'],
      });
      assert.deepEqual(res, { task: task('t1', 'TASK_STATE_COMPLETED') });
      const [r] = s.requests;
      assert.equal(r?.method, 'POST');
      assert.equal(r?.path, '/a2a/jsonrpc');
      assert.equal(r?.headers['a2a-version'], '1.0');
      assert.match(String(r?.headers['content-type']), /^application\/json/);
      assert.equal(r?.headers['a2a-extensions'], 'https://ext.example/a,https://ext.example/b');
      assert.equal(r?.json.jsonrpc, '2.0');
      assert.equal(typeof r?.json.id, 'number');
      assert.equal(r?.json.method, 'SendMessage');
      assert.deepEqual(r?.json.params, userMessage('hello'));
      assert.equal(Object.hasOwn(r.json.params, 'tenant'), false);
    },
  );
});

test('§8.3.2 the interface tenant is set in every request, replacing a caller-supplied one', async () => {
  const s = await rpcAgent({
    GetTask: (p) => task(p.id),
    ListTasks: () => ({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 }),
  });
  try {
    const client = new A2AClient(
      makeCard(s.url, {
        supportedInterfaces: [
          {
            url: `${s.url}/a2a/jsonrpc`,
            protocolBinding: 'JSONRPC',
            protocolVersion: '1.0',
            tenant: 'acme',
          },
        ],
      }),
    );
    await client.getTask({ id: 't1', tenant: 'other' });
    await client.listTasks();
    assert.deepEqual(
      s.requests.map((r) => r.json.params.tenant),
      ['acme', 'acme'],
    );
  } finally {
    await s.close();
  }
});

test('§9.5 JSON-RPC errors become A2AError of the same kind, with their details', async () => {
  await withAgent(
    {
      GetTask: (_p, _r, res, id) =>
        sendJson(res, 200, rpcError(id, -32001, 'Task not found: nope', 'TASK_NOT_FOUND')),
      CancelTask: (_p, _r, res, id) =>
        sendJson(res, 200, rpcError(id, -32002, 'not cancelable', 'TASK_NOT_CANCELABLE')),
      CreateTaskPushNotificationConfig: (_p, _r, res, id) =>
        sendJson(
          res,
          200,
          rpcError(
            id,
            -32003,
            'Push notifications are not supported',
            'PUSH_NOTIFICATION_NOT_SUPPORTED',
          ),
        ),
    },
    async (_s, client) => {
      const kindOf = async (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: unknown) => (isA2AError(e) ? e.kind : `other: ${String(e)}`),
        );
      assert.equal(await kindOf(client.getTask('nope')), 'TaskNotFound');
      assert.equal(await kindOf(client.cancelTask('t')), 'TaskNotCancelable');
      assert.equal(
        await kindOf(
          client.createPushNotificationConfig({ taskId: 't', url: 'http://127.0.0.1:9/hook' }),
        ),
        'PushNotificationNotSupported',
      );
      const err = (await client.getTask('nope').catch((e: A2AError) => e)) as A2AError;
      assert.equal(err.message, 'Task not found: nope');
      assert.equal((err.details[0] as { reason?: string }).reason, 'TASK_NOT_FOUND');
    },
  );
});

test('§9.4.2 SendStreamingMessage reads SSE whose data lines are JSON-RPC responses', async () => {
  await withAgent(
    {
      SendStreamingMessage: (_p, req, res, id) => {
        assert.equal(req.headers.accept, 'text/event-stream');
        startSse(res);
        sseEvent(res, rpcResult(id, { task: task('t1', 'TASK_STATE_SUBMITTED') }), '1');
        sseEvent(res, rpcResult(id, statusUpdate('t1', 'TASK_STATE_WORKING')), '2');
        sseEvent(res, rpcResult(id, statusUpdate('t1', 'TASK_STATE_COMPLETED')), '3');
        res.end();
      },
    },
    async (_s, client) => {
      const ids: string[] = [];
      const events = [];
      for await (const ev of client.sendStreamingMessage(userMessage('go'), {
        onEventId: (i) => ids.push(i),
      }))
        events.push(ev);
      assert.equal(events.length, 3);
      assert.ok('task' in events[0]!);
      assert.deepEqual(events[2], statusUpdate('t1', 'TASK_STATE_COMPLETED'));
      assert.deepEqual(ids, ['1', '2', '3']);
    },
  );
});

test('a JSON-RPC error before or inside a stream is thrown as A2AError', async () => {
  await withAgent(
    {
      SubscribeToTask: (p, _r, res, id) => {
        if (p.id === 'done')
          return sendJson(
            res,
            200,
            rpcError(id, -32004, 'task is terminal', 'UNSUPPORTED_OPERATION'),
          );
        startSse(res);
        sseEvent(res, rpcResult(id, { task: task(p.id) }));
        sseEvent(res, rpcError(id, -32603, 'boom', 'INTERNAL'));
        res.end();
      },
    },
    async (_s, client) => {
      await assert.rejects(
        (async () => {
          for await (const _ of client.subscribeToTask('done')) void _;
        })(),
        (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
      );
      const seen: unknown[] = [];
      await assert.rejects(
        (async () => {
          for await (const ev of client.subscribeToTask('t2')) seen.push(ev);
        })(),
        (e: unknown) => isA2AError(e) && e.kind === 'Internal' && e.message === 'boom',
      );
      assert.equal(seen.length, 1);
    },
  );
});

test('§3.1.11 GetExtendedAgentCard replaces the card in use; Delete resolves to nothing', async () => {
  await withAgent(
    {
      GetExtendedAgentCard: (_p, req) =>
        makeCard(`http://${req.headers.host}`, { name: 'extended', description: 'more skills' }),
      DeleteTaskPushNotificationConfig: () => ({}),
    },
    async (s, client) => {
      const card = await client.getExtendedAgentCard();
      assert.equal(card.name, 'extended');
      assert.equal(client.card.name, 'extended');
      assert.equal(await client.deletePushNotificationConfig({ taskId: 't', id: 'c' }), undefined);
      assert.deepEqual(s.requests[1]?.json.params, { taskId: 't', id: 'c' });
    },
  );
});

test('a response that is not JSON-RPC, or answers another id, is a BAD_RESPONSE', async () => {
  await withAgent(
    {
      GetTask: (_p, _r, res) => sendJson(res, 200, { jsonrpc: '2.0', id: 999, result: task('x') }),
      ListTasks: (_p, _r, res) => sendJson(res, 200, { hello: 'world' }),
    },
    async (_s, client) => {
      await assert.rejects(
        client.getTask('x'),
        (e: any) => e.code === 'BAD_RESPONSE' && /does not match/.test(e.message),
      );
      await assert.rejects(client.listTasks(), (e: any) => e.code === 'BAD_RESPONSE');
    },
  );
});

test('userMessage builds a ROLE_USER message with a fresh id', async () => {
  const { userMessage: build } = await import('../src/client/index.js');
  const a = build('hi', { contextId: 'c1', taskId: 't1' });
  const b = build([{ data: { n: 1 } }]);
  assert.equal(a.role, 'ROLE_USER');
  assert.deepEqual(a.parts, [{ text: 'hi' }]);
  assert.equal(a.contextId, 'c1');
  assert.equal(a.taskId, 't1');
  assert.notEqual(a.messageId, b.messageId);
  assert.match(a.messageId, /^[0-9a-f-]{36}$/);
  assert.equal(build('x', { messageId: 'fixed' }).messageId, 'fixed');
});
