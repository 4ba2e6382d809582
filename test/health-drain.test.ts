/**
 * Liveness, readiness and the drain, on real servers over HTTP: readiness names the failing check (the
 * store, a registered one, the server itself while draining); a drain refuses new work, ends open
 * streams cleanly, waits for running agents up to its deadline and reports what it dropped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentServer, type Logger } from '../src/server/index.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import {
  BOUND_MS,
  card,
  openStream,
  probe,
  rpc,
  scripted,
  sendTask,
  start,
  waitForTask,
} from './core-fixture.js';

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(BOUND_MS) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test('health endpoints are off unless asked for', async () => {
  const s = await start();
  try {
    assert.equal((await get(`${s.origin}/healthz`)).status, 404);
    assert.equal((await get(`${s.origin}/readyz`)).status, 404);
  } finally {
    await s.close();
  }
});

test('health: true → /healthz 200 (live), /readyz 200 with the server and the store checks', async () => {
  const s = await start(undefined, { health: true });
  try {
    assert.deepEqual(await get(`${s.origin}/healthz`), { status: 200, body: { status: 'live' } });
    const ready = await get(`${s.origin}/readyz?verbose=1`);
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, {
      status: 'ready',
      failing: [],
      checks: [
        { name: 'server', status: 'ok' },
        { name: 'store', status: 'ok' },
      ],
    });
  } finally {
    await s.close();
  }
});

test('readiness is 503 naming the store when its ping fails (a closed SQLite store); liveness stays 200; no error text leaks', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'a2a-health-'));
  const store = new SqliteTaskStore({ path: path.join(dir, 'tasks.sqlite') });
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_o, m) => warnings.push(m),
    error: () => undefined,
  };
  const s = await start(undefined, { health: true, store, logger });
  try {
    assert.equal((await get(`${s.origin}/readyz`)).status, 200);
    await store.close();
    const ready = await get(`${s.origin}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body.failing, ['store']);
    assert.deepEqual(ready.body.checks, [
      { name: 'server', status: 'ok' },
      { name: 'store', status: 'failed' },
    ]);
    assert.ok(
      warnings.includes('readiness check store failed'),
      'the error goes to the log instead',
    );
    assert.equal((await get(`${s.origin}/healthz`)).status, 200);
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('registered readiness checks: one that fails and one that hangs past the timeout are named; own paths', async () => {
  const s = await start(undefined, {
    health: {
      live: '/live',
      ready: '/ready',
      checkTimeoutMs: 50,
      checks: [{ name: 'event-bus', check: () => new Promise(() => undefined) }],
    },
  });
  s.server.addReadinessCheck({ name: 'cache', check: () => false });
  assert.throws(
    () => s.server.addReadinessCheck({ name: 'cache', check: () => true }),
    /already registered/,
  );
  try {
    assert.equal((await get(`${s.origin}/live`)).status, 200);
    const ready = await get(`${s.origin}/ready`);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body.failing, ['event-bus', 'cache']);
    assert.deepEqual(ready.body.checks.slice(2), [
      { name: 'event-bus', status: 'timed out' },
      { name: 'cache', status: 'failed' },
    ]);
    assert.deepEqual((await s.server.readiness()).failing, ['event-bus', 'cache']);
    assert.equal(
      (await get(`${s.origin}/healthz`)).status,
      404,
      'only the configured paths answer',
    );
  } finally {
    await s.close();
  }
});

test('a health path that is also an interface path → listen() rejects, naming the entry', async () => {
  const server = createAgentServer({
    executor: scripted(probe()),
    health: true,
    card: (o) => ({
      ...card(o),
      supportedInterfaces: [
        { url: `${o}/readyz`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    }),
  });
  await assert.rejects(
    server.listen(0),
    /supportedInterfaces\[0\] \(JSONRPC at .*\/readyz\) is at the health path \/readyz/,
  );
  await server.close();
});

test('draining (mounted listener): readiness 503 naming the server, new work refused as Unavailable (-32012), reads answered, streams end cleanly, the agent finishes', async () => {
  const http = createServer();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const p = probe();
  const agent = createAgentServer({
    executor: scripted(p),
    card: (o) => card(o),
    origin,
    health: true,
  });
  http.on('request', agent.listener);
  const url = `${origin}/rpc`;
  try {
    const task = await sendTask(url, 'gate g1', { configuration: { returnImmediately: true } });
    await waitForTask(url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    const stream = await openStream(url, 'SubscribeToTask', { id: task.id });
    assert.equal((await stream.next())?.data.result.task.id, task.id);

    const draining = agent.drain(BOUND_MS);
    assert.equal(agent.draining, true);
    assert.deepEqual(await stream.rest(), []);
    assert.ok(stream.cleanEnd, `the stream ended cleanly, not cut (${String(stream.error)})`);
    const ready = await get(`${origin}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body, {
      status: 'unavailable',
      failing: ['server'],
      checks: [{ name: 'server', status: 'draining' }],
    });
    assert.equal((await get(`${origin}/healthz`)).status, 200, 'still live while draining');
    const refused = await rpc(url, 'SendMessage', {
      message: { messageId: 'm-drain', role: 'ROLE_USER', parts: [{ text: 'echo hi' }] },
    });
    assert.equal(refused.body.error?.code, -32012, JSON.stringify(refused.body));
    assert.equal(
      (await rpc(url, 'GetTask', { id: task.id })).body.result?.status.state,
      'TASK_STATE_WORKING',
    );

    p.gate('g1').open();
    const report = await draining;
    assert.deepEqual(report.streams, { sse: 1, grpc: 0 });
    assert.deepEqual(report.tasksAborted, []);
    assert.equal(report.deadlineExceeded, false);
    assert.equal(
      (await rpc(url, 'GetTask', { id: task.id })).body.result?.status.state,
      'TASK_STATE_COMPLETED',
      'the agent finished within the deadline',
    );
    assert.equal(await agent.drain(), report, 'a second call returns the same drain');
  } finally {
    p.gate('g1').open();
    await new Promise((r) => http.close(r));
  }
});

test('a drain past its deadline aborts the agent still running and says so in a warn line', async () => {
  const lines: Array<{ obj: object; msg: string }> = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (obj, msg) => lines.push({ obj, msg }),
    error: () => undefined,
  };
  const s = await start(undefined, { logger, drain: { deadlineMs: 100 } });
  const task = await sendTask(s.url, 'polite p1', { configuration: { returnImmediately: true } });
  await waitForTask(s.url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
  const report = await s.server.drain();
  assert.equal(report.deadlineExceeded, true);
  assert.deepEqual(report.tasksAborted, [{ taskId: task.id, tenant: '' }]);
  const warn = lines.find((l) => l.msg.startsWith('drain deadline of 100 ms passed'));
  assert.ok(warn, JSON.stringify(lines));
  assert.match(warn.msg, new RegExp(`1 task\\(s\\) aborted \\(${task.id}\\)`));
});

test('drain.readinessDelayMs: readiness is 503 at once while work is still served, then the listener closes', async () => {
  const s = await start(undefined, { health: true, drain: { readinessDelayMs: 3000 } });
  const draining = s.server.drain();
  const ready = await get(`${s.origin}/readyz`);
  assert.equal(ready.status, 503);
  assert.deepEqual(ready.body.failing, ['server']);
  const served = await rpc(s.url, 'SendMessage', {
    message: { messageId: 'm-delay', role: 'ROLE_USER', parts: [{ text: 'echo still here' }] },
  });
  assert.equal(
    served.body.result?.task?.status.state,
    'TASK_STATE_COMPLETED',
    JSON.stringify(served.body),
  );
  await draining;
  await assert.rejects(fetch(`${s.origin}/healthz`), 'the listener is closed after the drain');
});

test('health paths must be paths, and distinct', () => {
  const base = { executor: scripted(probe()), card: (o: string) => card(o) };
  assert.throws(
    () => createAgentServer({ ...base, health: { live: 'healthz' } }),
    /health.live must be a path starting with \//,
  );
  assert.throws(
    () => createAgentServer({ ...base, health: { live: '/h', ready: '/h' } }),
    /must differ/,
  );
});

test('Express app.use("/reporter", agent.listener) with health: the probes answer below the mount path, before any agent request', async () => {
  const { default: express } = await import('express');
  const app = express();
  const agent = createAgentServer({
    executor: scripted(probe()),
    card: (o) => card(o),
    health: true,
    allowedHosts: ['127.0.0.1'],
  });
  app.use('/reporter', agent.listener);
  const http = createServer(app);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  try {
    assert.equal((await get(`${origin}/reporter/readyz`)).status, 200);
    assert.equal((await get(`${origin}/reporter/healthz`)).status, 200);
    assert.equal(
      (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(BOUND_MS) })).status,
      404,
      'only below the mount path',
    );
  } finally {
    await agent.close();
    await new Promise((r) => http.close(r));
  }
});
