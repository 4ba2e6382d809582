import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { A2AClient, isA2AError } from '../src/client/index.js';
import {
  restCard,
  restError,
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

type Route = (req: Recorded, res: ServerResponse) => void;

async function restAgent(route: Route): Promise<TestServer> {
  return startServer((req, res) => route(req, res));
}

async function withAgent(
  route: Route,
  fn: (s: TestServer, c: A2AClient) => Promise<void>,
  tenant?: string,
) {
  const s = await restAgent(route);
  try {
    const card = restCard(
      s.url,
      tenant
        ? {
            supportedInterfaces: [
              {
                url: `${s.url}/a2a/rest`,
                protocolBinding: 'HTTP+JSON',
                protocolVersion: '1.0',
                tenant,
              },
            ],
          }
        : {},
    );
    await fn(s, new A2AClient(card));
  } finally {
    await s.close();
  }
}

test('§11.3 each operation uses its verb and route below the interface URL', async () => {
  await withAgent(
    (req, res) => {
      if (req.path.endsWith('/message:send')) return sendJson(res, 200, { task: task('t1') });
      if (req.path.endsWith('/pushNotificationConfigs') && req.method === 'GET')
        return sendJson(res, 200, { configs: [], nextPageToken: '' });
      if (req.path.includes('/pushNotificationConfigs')) {
        if (req.method === 'DELETE') {
          res.writeHead(204);
          return res.end();
        }
        return sendJson(res, 200, { taskId: 't1', id: 'c1', url: 'http://127.0.0.1:9/h' });
      }
      if (req.path.endsWith('/extendedAgentCard'))
        return sendJson(res, 200, restCard('http://h', { name: 'ext' }));
      if (req.path.endsWith('/tasks'))
        return sendJson(res, 200, { tasks: [], nextPageToken: '', pageSize: 10, totalSize: 0 });
      return sendJson(res, 200, task('t1'));
    },
    async (s, c) => {
      await c.sendMessage(userMessage('hi'));
      await c.getTask({ id: 't 1/x', historyLength: 3 });
      await c.listTasks({
        contextId: 'ctx',
        status: 'TASK_STATE_WORKING',
        pageSize: 10,
        includeArtifacts: true,
        statusTimestampAfter: '2026-01-01T00:00:00Z',
      });
      await c.cancelTask({ id: 't1', metadata: { why: 'test' } });
      await c.createPushNotificationConfig({
        taskId: 't1',
        url: 'http://127.0.0.1:9/h',
        token: 'tok',
      });
      await c.getPushNotificationConfig({ taskId: 't1', id: 'c1' });
      await c.listPushNotificationConfigs({ taskId: 't1', pageSize: 5 });
      await c.deletePushNotificationConfig({ taskId: 't1', id: 'c1' });
      await c.getExtendedAgentCard();
      const seen = s.requests.map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(seen, [
        'POST /a2a/rest/message:send',
        'GET /a2a/rest/tasks/t%201%2Fx?historyLength=3',
        'GET /a2a/rest/tasks?contextId=ctx&status=TASK_STATE_WORKING&pageSize=10&includeArtifacts=true&statusTimestampAfter=2026-01-01T00%3A00%3A00Z',
        'POST /a2a/rest/tasks/t1:cancel',
        'POST /a2a/rest/tasks/t1/pushNotificationConfigs',
        'GET /a2a/rest/tasks/t1/pushNotificationConfigs/c1',
        'GET /a2a/rest/tasks/t1/pushNotificationConfigs?pageSize=5',
        'DELETE /a2a/rest/tasks/t1/pushNotificationConfigs/c1',
        'GET /a2a/rest/extendedAgentCard',
      ]);
      const send = s.requests[0]!;
      assert.equal(send.headers['content-type'], 'application/a2a+json');
      assert.equal(send.headers['a2a-version'], '1.0');
      assert.deepEqual(send.json, userMessage('hi'));
      assert.deepEqual(s.requests[3]?.json, { metadata: { why: 'test' } });
      assert.deepEqual(s.requests[4]?.json, { url: 'http://127.0.0.1:9/h', token: 'tok' });
      assert.equal(s.requests[1]?.headers['content-type'], undefined);
      assert.equal(c.card.name, 'ext');
    },
  );
});

test('§8.3.2 on HTTP+JSON the tenant becomes the first path segment', async () => {
  await withAgent(
    (_req, res) => sendJson(res, 200, task('t1')),
    async (s, c) => {
      await c.getTask('t1');
      await c.cancelTask('t1');
      assert.deepEqual(
        s.requests.map((r) => r.path),
        ['/a2a/rest/acme/tasks/t1', '/a2a/rest/acme/tasks/t1:cancel'],
      );
      assert.deepEqual(s.requests[1]?.json, {});
    },
    'acme',
  );
});

test('§11.6 google.rpc.Status errors become A2AError of the kind named by ErrorInfo.reason', async () => {
  await withAgent(
    (req, res) => {
      if (req.path.endsWith(':cancel'))
        return sendJson(
          res,
          400,
          restError(400, 'FAILED_PRECONDITION', 'no', 'TASK_NOT_CANCELABLE'),
        );
      if (req.path.includes('pushNotificationConfigs')) {
        return sendJson(
          res,
          400,
          restError(
            400,
            'FAILED_PRECONDITION',
            'Push notifications are not supported',
            'PUSH_NOTIFICATION_NOT_SUPPORTED',
          ),
        );
      }
      if (req.path.endsWith('/bare')) return sendJson(res, 404, {});
      return sendJson(
        res,
        404,
        restError(404, 'NOT_FOUND', 'Task not found: t9', 'TASK_NOT_FOUND'),
      );
    },
    async (_s, c) => {
      await assert.rejects(
        c.getTask('t9'),
        (e: unknown) =>
          isA2AError(e) && e.kind === 'TaskNotFound' && e.message === 'Task not found: t9',
      );
      await assert.rejects(
        c.cancelTask('t9'),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
      );
      await assert.rejects(
        c.listPushNotificationConfigs({ taskId: 't9' }),
        (e: unknown) => isA2AError(e) && e.kind === 'PushNotificationNotSupported',
      );
    },
  );
});

test('§11.7 REST streams carry bare StreamResponse objects; subscribe is POST /tasks/{id}:subscribe', async () => {
  await withAgent(
    (req, res) => {
      assert.equal(req.headers.accept, 'text/event-stream');
      startSse(res);
      if (req.path.endsWith('/message:stream'))
        sseEvent(res, { task: task('t1', 'TASK_STATE_SUBMITTED') });
      else sseEvent(res, { task: task('t1') });
      sseEvent(res, statusUpdate('t1', 'TASK_STATE_COMPLETED'));
      res.end();
    },
    async (s, c) => {
      const a = [];
      for await (const ev of c.sendStreamingMessage(userMessage('x'))) a.push(ev);
      const b = [];
      for await (const ev of c.subscribeToTask('t1')) b.push(ev);
      assert.equal(a.length, 2);
      assert.equal(b.length, 2);
      assert.deepEqual(
        s.requests.map((r) => `${r.method} ${r.path}`),
        ['POST /a2a/rest/message:stream', 'POST /a2a/rest/tasks/t1:subscribe'],
      );
    },
  );
});

test('subscribe falls back to GET when the server only allows GET (the proto rule)', async () => {
  await withAgent(
    (req, res) => {
      if (req.method !== 'GET') {
        res.writeHead(405, { Allow: 'GET' });
        return res.end();
      }
      startSse(res);
      sseEvent(res, { task: task('t1', 'TASK_STATE_COMPLETED') });
      res.end();
    },
    async (s, c) => {
      const got = [];
      for await (const ev of c.subscribeToTask('t1')) got.push(ev);
      assert.equal(got.length, 1);
      assert.deepEqual(
        s.requests.map((r) => r.method),
        ['POST', 'GET'],
      );
    },
  );
});

test('an error event inside a REST stream is thrown; a non-StreamResponse event is a BAD_RESPONSE', async () => {
  await withAgent(
    (req, res) => {
      startSse(res);
      sseEvent(res, { task: task('t1') });
      if (req.path.includes('bad')) sseEvent(res, { kind: 'status-update' });
      else sseEvent(res, restError(500, 'INTERNAL', 'agent crashed', 'INTERNAL'));
      res.end();
    },
    async (_s, c) => {
      await assert.rejects(
        (async () => {
          for await (const _ of c.subscribeToTask('t1')) void _;
        })(),
        (e: unknown) => isA2AError(e) && e.kind === 'Internal' && e.message === 'agent crashed',
      );
      await assert.rejects(
        (async () => {
          for await (const _ of c.subscribeToTask('bad')) void _;
        })(),
        (e: any) => e.code === 'BAD_RESPONSE' && /exactly one of task, message/.test(e.message),
      );
    },
  );
});

test('a path field that is missing is rejected locally as invalid params', async () => {
  await withAgent(
    (_req, res) => sendJson(res, 200, {}),
    async (s, c) => {
      await assert.rejects(
        c.getTask({ id: '' }),
        (e: unknown) => isA2AError(e) && e.kind === 'InvalidParams' && /\bid\b/.test(e.message),
      );
      assert.equal(s.requests.length, 0);
    },
  );
});

test('ProtoJSON may omit empty repeated fields: {} is an empty ListTasks / ListTaskPushNotificationConfigs answer', async () => {
  await withAgent(
    (_req, res) => sendJson(res, 200, {}),
    async (_s, c) => {
      assert.deepEqual(await c.listTasks(), { tasks: [], nextPageToken: '' });
      assert.deepEqual(await c.listPushNotificationConfigs({ taskId: 't1' }), { configs: [] });
    },
  );
});

test('an answer of the wrong shape is a BAD_RESPONSE naming what is missing', async () => {
  await withAgent(
    (req, res) => {
      if (req.path.endsWith('message:send'))
        return sendJson(res, 200, {
          task: task('t1'),
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] },
        });
      if (req.path.endsWith('extendedAgentCard'))
        return sendJson(res, 200, { name: 'half a card' });
      return sendJson(res, 200, { id: 't1' });
    },
    async (_s, c) => {
      await assert.rejects(
        c.getTask('t1'),
        (e: any) => e.code === 'BAD_RESPONSE' && /without status\.state/.test(e.message),
      );
      await assert.rejects(
        c.sendMessage(userMessage('x')),
        (e: any) => e.code === 'BAD_RESPONSE' && /exactly one of task or message/.test(e.message),
      );
      await assert.rejects(
        c.getExtendedAgentCard(),
        (e: any) => e.code === 'BAD_RESPONSE' && /not a valid agent card/.test(e.message),
      );
      assert.equal(c.card.name, 'test-agent');
    },
  );
});
