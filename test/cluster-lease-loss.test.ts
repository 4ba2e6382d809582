/**
 * Several instances, and Redis lost and back empty (issue 28): a lease that can no longer be proven ends
 * in a state a client can see. The owner still alive takes its lease again and finishes the task (its
 * stream ends); an owner that died meanwhile has its task failed by a survivor, or by itself once it
 * restarts. Runs its own redis-server (a free port, no persistence) that it stops and restarts empty, and
 * a PostgreSQL schema of its own (dropped afterwards).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Task } from '../src/protocol/index.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { redisEvents } from '../src/server/events/redis.js';
import { postgresStore } from '../src/server/store/postgres/index.js';
import {
  BOUND_MS,
  card,
  msg,
  openStream,
  probe,
  rpc,
  scripted,
  stateOf,
  waitForTask,
} from './core-fixture.js';
import { OwnRedis } from './cluster-fixture.js';
import { commandMissing, freePort, POSTGRES, serviceSkip } from './service-fixture.js';

const PG_URL = process.env.A2A_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `a2a_leaseloss_${process.pid}_${Date.now().toString(36)}`;
const TTL_MS = 600;

const missing =
  commandMissing('redis-server', 'redis-server') || (await serviceSkip(POSTGRES)) || undefined;
const opts = { skip: missing };
let redis: OwnRedis;
const servers: AgentServer[] = [];
const p = probe();
const startRedis = (): Promise<void> => redis.start();
const stopRedis = (): Promise<void> => redis.stop();
const url = (): string => redis.url;

/** An instance of the scripted agent on the shared schema and this test's Redis. */
async function instance(): Promise<{ server: AgentServer; url: string }> {
  const server = createAgentServer({
    executor: scripted(p),
    store: postgresStore(PG_URL, { schema }),
    card: (o) => card(o),
    events: redisEvents(url(), { prefix: 'loss', lease: { ttlMs: TTL_MS, scanMs: 100 } }),
  });
  servers.push(server);
  return { server, url: `${await server.listen(0)}/rpc` };
}

/** Waits (bounded) until someone holds the task's lease in Redis again. */
async function leaseHeld(taskId: string): Promise<void> {
  const r = new Redis(url(), { maxRetriesPerRequest: 1 });
  r.on('error', () => undefined);
  try {
    const deadline = Date.now() + BOUND_MS;
    while (!(await r.get(`loss:lease:::${taskId}`))) {
      if (Date.now() > deadline) throw new Error(`nobody took the lease of ${taskId} again`);
      await new Promise((res) => setTimeout(res, 20));
    }
  } finally {
    r.disconnect();
  }
}

/** Close this test's instances, so the next test's Redis restart meets only its own. */
async function closeInstances(): Promise<void> {
  const all = servers.splice(0);
  await Promise.allSettled(all.map((s) => s.close(200)));
}

const settled = (t: Task) =>
  !['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(t.status.state);

before(async () => {
  if (missing) return;
  redis = new OwnRedis(await freePort());
  await startRedis();
});

after(async () => {
  for (const g of p.gates.values()) g.open();
  await Promise.allSettled(servers.map((s) => s.close(200)));
  await redis?.stop();
  if (missing) return;
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  try {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await db.end();
  }
});

test(
  'Redis back empty, the owner alive: it takes its lease again, finishes the task and its stream ends',
  opts,
  async () => {
    await closeInstances();
    const a = await instance();
    const b = await instance();
    const stream = await openStream(a.url, 'SendStreamingMessage', { message: msg('gate l1') });
    const head = await stream.next();
    const id = head!.data.result.task.id as string;
    await waitForTask(b.url, id, (t) => t.status.state === 'TASK_STATE_WORKING');

    await stopRedis();
    await startRedis(); // empty: no lease, no lease set, no epoch
    await leaseHeld(id); // the owner renewed, found its lease gone, and took it again
    p.gate('l1').open();

    const rest = await stream.rest(); // bounded: ends instead of hanging
    assert.equal(
      rest.map(stateOf).filter(Boolean).at(-1),
      'TASK_STATE_COMPLETED',
      JSON.stringify(rest),
    );
    assert.ok(stream.cleanEnd, 'the owner’s stream ended');
    const onB = await waitForTask(b.url, id, settled);
    assert.equal(onB.status.state, 'TASK_STATE_COMPLETED', 'every instance sees the outcome');
  },
);

test(
  'Redis back empty, the owner gone: a survivor fails its task with the reason once a lease TTL has passed',
  opts,
  async () => {
    await closeInstances();
    const a = await instance();
    const b = await instance();
    const t = (
      await rpc(a.url, 'SendMessage', {
        message: msg('gate l2'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(b.url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');

    await stopRedis();
    await a.server.service.tasks.options.bus!.close(); // the owner dies while Redis is away (no renewals)
    await startRedis();

    const failed = await waitForTask(b.url, t.id, settled);
    assert.equal(failed.status.state, 'TASK_STATE_FAILED');
    assert.match(JSON.stringify(failed.status.message), /instance working on this task was lost/);
  },
);

test(
  'Redis back empty while every instance was down: the owner, restarted, fails the task it left',
  opts,
  async () => {
    await closeInstances();
    const a = await instance();
    const t = (
      await rpc(a.url, 'SendMessage', {
        message: msg('gate l3'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(a.url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');

    await stopRedis();
    await a.server.service.tasks.options.bus!.close(); // killed
    await startRedis();
    const restarted = await instance();

    const failed = await waitForTask(restarted.url, t.id, settled);
    assert.equal(failed.status.state, 'TASK_STATE_FAILED');
    assert.match(JSON.stringify(failed.status.message), /instance working on this task was lost/);
  },
);

test(
  'Redis back empty, the task changed elsewhere meanwhile: the owner gives it up, its stream shows the stored state and ends, its agent is aborted',
  opts,
  async () => {
    await closeInstances();
    const a = await instance();
    const stream = await openStream(a.url, 'SendStreamingMessage', { message: msg('polite l4') });
    const id = (await stream.next())!.data.result.task.id as string;
    await waitForTask(a.url, id, (t) => t.status.state === 'TASK_STATE_WORKING');

    await stopRedis();
    // Another writer settles the task while nobody can prove who runs it.
    const other = postgresStore(PG_URL, { schema });
    try {
      const scope = { tenant: '', owner: '' };
      // The owner answers GetTask from its live run; its first save may still be on its way to the database.
      let read = await other.readTask(scope, id);
      for (let i = 0; !read && i < 500; i++) {
        await new Promise((r) => setTimeout(r, 10));
        read = await other.readTask(scope, id);
      }
      assert.ok(read, 'the task reached the database');
      const status = { state: 'TASK_STATE_FAILED' as const, timestamp: new Date().toISOString() };
      await other.saveTask(scope, { ...read.task, status }, read.version);
    } finally {
      await other.close();
    }
    await startRedis();

    const rest = await stream.rest();
    assert.equal(
      rest.map(stateOf).filter(Boolean).at(-1),
      'TASK_STATE_FAILED',
      JSON.stringify(rest),
    );
    const deadline = Date.now() + BOUND_MS;
    while (!p.aborted.has(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(p.aborted.has(id), 'the owner aborted its agent');
    assert.equal(
      (await rpc(a.url, 'GetTask', { id })).body.result.status.state,
      'TASK_STATE_FAILED',
    );
  },
);
