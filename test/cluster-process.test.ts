/**
 * Three real server processes on one PostgreSQL database (a schema of their own; A2A_CLUSTER_STORE
 * names another store, e.g. `sqlite:/tmp/x.db`) and one Redis: kill -9 of the instance running a task → the survivors fail it within the lease bound and
 * agree on it; 1,000 tasks spread over the three → ListTasks totals and pages agree on every instance.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Task } from '../src/protocol/index.js';
import { msg, openStream, rpc, waitForTask, BOUND_MS } from './core-fixture.js';
import { dropPrefix, redisMissing, testPrefix } from './cluster-fixture.js';
import { POSTGRES, serviceSkip } from './service-fixture.js';

const outer = process.env.A2A_CLUSTER_STORE;
const onPostgres = !outer || outer === 'memory';
const missing =
  (await redisMissing()) ?? ((onPostgres && (await serviceSkip(POSTGRES))) || undefined);
const prefix = testPrefix();
const dir = mkdtempSync(path.join(tmpdir(), 'a2a-cluster-'));
const procs: ChildProcess[] = [];
const urls: string[] = [];
/** Task ids whose executor saw its signal abort, per instance. */
const aborted: Array<Set<string>> = [];
/** What the processes share: A2A_CLUSTER_STORE when it names a database, else PostgreSQL, in a schema of this run. */
const PG_URL = process.env.A2A_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const sharedStore = onPostgres ? PG_URL : outer;
const schema = `a2a_cluster_${process.pid}_${Date.now().toString(36)}`;
/** ttlMs + scanMs of cluster-server.ts: the longest a lost owner goes unnoticed. */
const LEASE_BOUND_MS = 1250;

function startInstance(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'cluster-server.ts')],
    {
      env: {
        ...process.env,
        A2A_CLUSTER_STORE: sharedStore,
        A2A_CLUSTER_SCHEMA: schema,
        A2A_BUS_PREFIX: prefix,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  procs.push(child);
  const seen = new Set<string>();
  aborted.push(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a cluster server did not start')), BOUND_MS);
    child.once('exit', (code) => reject(new Error(`a cluster server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = JSON.parse(line) as { origin?: string; aborted?: string };
      if (m.aborted) seen.add(m.aborted);
      if (m.origin) {
        clearTimeout(timer);
        resolve(`${m.origin}/rpc`);
      }
    });
  });
}

before(async () => {
  if (missing) return;
  // One after the other: the first creates the schema (PostgreSQL's migrations would take turns anyway).
  for (let i = 0; i < 3; i++) urls.push(await startInstance());
});

after(async () => {
  for (const c of procs) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  if (!missing) await dropPrefix(prefix);
  if (!missing && onPostgres) {
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    try {
      await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await db.end();
    }
  }
});

const opts = { skip: missing };

test(
  '1,000 tasks spread over the instances: ListTasks totals and pages agree everywhere',
  opts,
  async () => {
    const live = urls;
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          rpc(live[(i + j) % live.length]!, 'SendMessage', {
            message: msg(`n${i + j}`, { contextId: prefix }),
          }),
        ),
      );
      for (const r of batch) ids.add((r.body.result.task as Task).id);
    }
    assert.equal(ids.size, 1000);
    const pages: string[][] = [];
    for (const url of live) {
      const seen: string[] = [];
      let token: string | undefined;
      for (let page = 0; page < 30; page++) {
        const r = (
          await rpc(url, 'ListTasks', {
            contextId: prefix,
            pageSize: 100,
            ...(token ? { pageToken: token } : {}),
          })
        ).body.result;
        assert.equal(r.totalSize, 1000);
        seen.push(...(r.tasks as Task[]).map((t) => t.id));
        token = r.nextPageToken || undefined;
        if (!token) break;
      }
      assert.equal(seen.length, 1000);
      assert.deepEqual(new Set(seen), ids);
      pages.push(seen);
    }
    for (const p of pages.slice(1))
      assert.deepEqual(p, pages[0], 'the same pages from every instance');
  },
);

test(
  '§3.1.5 send on A, subscribe on B, cancel through C: the executor on A sees its signal aborted',
  opts,
  async () => {
    const [a, b, c] = urls as [string, string, string];
    const task = (
      await rpc(a, 'SendMessage', {
        message: msg('slow'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(a, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    const watching = await openStream(b, 'SubscribeToTask', { id: task.id });
    assert.ok(await watching.next());
    const answer = await rpc(c, 'CancelTask', { id: task.id });
    assert.equal(
      answer.body.result?.status.state,
      'TASK_STATE_CANCELED',
      JSON.stringify(answer.body),
    );
    const rest = await watching.rest();
    assert.equal(rest.at(-1)?.data.result?.statusUpdate?.status.state, 'TASK_STATE_CANCELED');
    const deadline = Date.now() + BOUND_MS;
    while (!aborted[0]!.has(task.id) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(aborted[0]!.has(task.id), 'the executor on A saw its signal abort');
    assert.ok(!aborted[1]!.has(task.id) && !aborted[2]!.has(task.id));
  },
);

test(
  'an owner stalled past its lease: a survivor fails the task, and the owner aborts its executor when it wakes',
  opts,
  async () => {
    const [, b, c] = urls as [string, string, string];
    const task = (
      await rpc(b, 'SendMessage', {
        message: msg('stall'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    const failed = await waitForTask(
      c,
      task.id,
      (t) => t.status.state !== 'TASK_STATE_WORKING' && t.status.state !== 'TASK_STATE_SUBMITTED',
    );
    assert.equal(failed.status.state, 'TASK_STATE_FAILED');
    const deadline = Date.now() + BOUND_MS;
    while (!aborted[1]!.has(task.id) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      aborted[1]!.has(task.id),
      'the stalled owner aborted its executor once it saw the task adopted',
    );
    assert.equal(
      ((await rpc(b, 'GetTask', { id: task.id })).body.result as Task).status.state,
      'TASK_STATE_FAILED',
      'and did not write over it',
    );
  },
);

test(
  'kill -9 of the owner mid-task: FAILED within the lease bound, the same on both survivors',
  opts,
  async () => {
    const [a, b, c] = urls as [string, string, string];
    const task = (
      await rpc(a, 'SendMessage', {
        message: msg('slow'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(b, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    const watching = await openStream(c, 'SubscribeToTask', { id: task.id });
    assert.ok(await watching.next());
    const killedAt = Date.now();
    procs[0]!.kill('SIGKILL');
    const onB = await waitForTask(b, task.id, (t) => t.status.state !== 'TASK_STATE_WORKING');
    const noticedMs = Date.now() - killedAt;
    const onC = (await rpc(c, 'GetTask', { id: task.id })).body.result as Task;
    assert.equal(onB.status.state, 'TASK_STATE_FAILED');
    assert.match(
      JSON.stringify(onB.status.message),
      /agent instance working on this task was lost/,
    );
    assert.deepEqual(onC, onB, 'both survivors show the same task');
    const streamed = await watching.rest();
    assert.equal(
      streamed.at(-1)?.data.result?.statusUpdate?.status.state,
      'TASK_STATE_FAILED',
      'the subscriber on C sees the failure',
    );
    // Reported, not asserted (no timing assertions): the bound is LEASE_BOUND_MS plus scheduling.
    process.stdout.write(
      `# owner loss noticed after ${noticedMs} ms (bound ${LEASE_BOUND_MS} ms + scheduling)\n`,
    );
  },
);
