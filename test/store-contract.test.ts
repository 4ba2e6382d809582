/**
 * One contract, every TaskStore (memory, SQLite, PostgreSQL): scoping, listing order and cursors (also
 * under concurrent inserts), push configs, versions and stale-write detection, persistence.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../src/protocol/index.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import {
  TaskVersionConflict,
  type PushConfigStore,
  type TaskStore,
} from '../src/server/store/task-store.js';
import { postgresStore } from '../src/server/store/postgres/index.js';
import pg from 'pg';
import { POSTGRES, serviceSkip } from './service-fixture.js';

const A = { tenant: '', owner: 'alice' };
const B = { tenant: '', owner: 'bob' };
const T2 = { tenant: 'acme', owner: 'alice' };

function task(
  id: string,
  ms: number,
  state: Task['status']['state'] = 'TASK_STATE_COMPLETED',
  contextId = 'ctx',
): Task {
  return {
    id,
    contextId,
    status: { state, timestamp: new Date(ms).toISOString() },
    history: [],
    artifacts: [],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'a2a-store-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const PG_URL = `postgres://postgres@${POSTGRES.host}:${POSTGRES.port}/test`;
const pgSkip = await serviceSkip(POSTGRES);
/** Each PostgreSQL store gets a schema of its own (an empty store), all dropped at the end. */
const run = `a2a_contract_${process.pid}_${Date.now().toString(36)}`;
const schemas: string[] = [];
after(async () => {
  if (pgSkip || !schemas.length) return;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
});

const stores: Array<[string, () => TaskStore & PushConfigStore, string | false]> = [
  ['memory', () => new InMemoryTaskStore(), false],
  [
    'sqlite',
    () => new SqliteTaskStore({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`) }),
    false,
  ],
  [
    'postgres',
    () => {
      const schema = `${run}_${schemas.length}`;
      schemas.push(schema);
      return postgresStore(PG_URL, { schema });
    },
    pgSkip,
  ],
];

for (const [name, make, skip] of stores) {
  describe(`TaskStore contract: ${name}`, { skip }, () => {
    test('§13.1 a task is visible only in its tenant and to its owner', async () => {
      const s = make();
      await s.saveTask(A, task('t1', 1000));
      assert.equal((await s.getTask(A, 't1'))?.id, 't1');
      assert.equal(await s.getTask(B, 't1'), undefined);
      assert.equal(await s.getTask(T2, 't1'), undefined);
      await assert.rejects(s.saveTask(B, task('t1', 2000)), { kind: 'TaskNotFound' });
      assert.equal((await s.listTasks(B, { pageSize: 50 })).totalSize, 0);
      await s.close?.();
    });

    test('§3.1.4 newest status first, cursor pages, empty token on the last page, inclusive time filter', async () => {
      const s = make();
      for (let i = 0; i < 7; i++)
        await s.saveTask(
          A,
          task(
            `t${i}`,
            1000 + i * 10,
            i % 2 ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED',
            i < 4 ? 'c1' : 'c2',
          ),
        );
      const ids: string[] = [];
      let token: string | undefined;
      for (let n = 0; n < 10; n++) {
        const page = await s.listTasks(A, { pageSize: 3, ...(token ? { pageToken: token } : {}) });
        assert.equal(page.totalSize, 7);
        ids.push(...page.tasks.map((t) => t.id));
        token = page.nextPageToken;
        if (!token) break;
      }
      assert.deepEqual(ids, ['t6', 't5', 't4', 't3', 't2', 't1', 't0']);
      assert.deepEqual(
        (await s.listTasks(A, { pageSize: 50, status: 'TASK_STATE_WORKING' })).tasks.map(
          (t) => t.id,
        ),
        ['t5', 't3', 't1'],
      );
      assert.deepEqual(
        (await s.listTasks(A, { pageSize: 50, contextId: 'c1' })).tasks.map((t) => t.id),
        ['t3', 't2', 't1', 't0'],
      );
      assert.deepEqual(
        (await s.listTasks(A, { pageSize: 50, statusTimestampAfter: 1050 })).tasks.map((t) => t.id),
        ['t6', 't5'],
      );
      await assert.rejects(s.listTasks(A, { pageSize: 3, pageToken: 'garbage' }), {
        kind: 'InvalidParams',
      });
      await s.close?.();
    });

    test('push configs are scoped by task owner; delete is idempotent', async () => {
      const s = make();
      await s.saveTask(A, task('t1', 1000, 'TASK_STATE_WORKING'));
      await s.savePushConfig(A, {
        id: 'c1',
        taskId: 't1',
        url: 'http://127.0.0.1:9/h',
        token: 'x',
      });
      assert.equal((await s.getPushConfig(A, 't1', 'c1'))?.url, 'http://127.0.0.1:9/h');
      assert.equal(await s.getPushConfig(B, 't1', 'c1'), undefined);
      await assert.rejects(s.savePushConfig(B, { id: 'c2', taskId: 't1', url: 'http://x/' }), {
        kind: 'TaskNotFound',
      });
      assert.equal((await s.listPushConfigs(A, 't1')).length, 1);
      await s.deletePushConfig(A, 't1', 'c1');
      await s.deletePushConfig(A, 't1', 'c1');
      assert.equal((await s.listPushConfigs(A, 't1')).length, 0);
      await assert.rejects(s.listPushConfigs(A, 'nope'), { kind: 'TaskNotFound' });
      await s.close?.();
    });

    test('a write carries the version it read: a stale write is detected, never applied', async () => {
      const s = make();
      assert.equal(await s.saveTask(A, task('v', 1000, 'TASK_STATE_WORKING'), 0), 1);
      await assert.rejects(
        s.saveTask(A, task('v', 1001, 'TASK_STATE_FAILED'), 0),
        TaskVersionConflict,
      );
      assert.equal(await s.saveTask(A, task('v', 1002, 'TASK_STATE_INPUT_REQUIRED'), 1), 2);
      // A second writer that also read version 1 loses, and its state is not stored.
      await assert.rejects(
        s.saveTask(A, task('v', 1003, 'TASK_STATE_CANCELED'), 1),
        (err: unknown) => err instanceof TaskVersionConflict && err.expected === 1,
      );
      const read = await s.readTask!(A, 'v');
      assert.equal(read?.version, 2);
      assert.equal(read?.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
      await assert.rejects(s.saveTask(B, task('v', 1004), 2), { kind: 'TaskNotFound' });
      assert.equal(await s.readTask!(B, 'v'), undefined);
      assert.equal(await s.saveTask(A, task('v', 1005), 2), 3);
      // An unconditional save still bumps the version.
      assert.equal(await s.saveTask(A, task('v', 1006)), 4);
      await s.close?.();
    });

    test('§3.1.4 pages stay complete and disjoint while newer tasks are inserted; totals match each snapshot', async () => {
      const s = make();
      for (let i = 0; i < 20; i++)
        await s.saveTask(A, task(`old${String(i).padStart(2, '0')}`, 10_000 + (i % 5) * 10));
      const seen: string[] = [];
      let token: string | undefined;
      let inserted = 0;
      for (let n = 0; n < 20; n++) {
        const listing = s.listTasks(A, { pageSize: 4, ...(token ? { pageToken: token } : {}) });
        // Inserts racing the page (newer timestamps) and one after it.
        const racing = [0, 1].map((k) => s.saveTask(A, task(`new${n}-${k}`, 20_000 + n * 10 + k)));
        const page = await listing;
        await Promise.all(racing);
        assert.ok(
          page.totalSize >= 20 + inserted && page.totalSize <= 22 + inserted,
          `total ${page.totalSize} after ${inserted} inserts`,
        );
        inserted += 2;
        seen.push(...page.tasks.map((t) => t.id).filter((id) => id.startsWith('old')));
        token = page.nextPageToken;
        if (!token) break;
      }
      assert.equal(new Set(seen).size, seen.length, 'no task twice');
      assert.deepEqual(
        [...seen].sort(),
        Array.from({ length: 20 }, (_, i) => `old${String(i).padStart(2, '0')}`),
      );
      assert.equal((await s.listTasks(A, { pageSize: 1 })).totalSize, 20 + inserted);
      await s.close?.();
    });

    test('unfinished tasks come back with their versions, in every scope', async () => {
      const s = make();
      if (!s.unfinishedTasks) return void (await s.close?.());
      await s.saveTask(A, task('w', 1000, 'TASK_STATE_WORKING'), 0);
      await s.saveTask(T2, task('sub', 1000, 'TASK_STATE_SUBMITTED'), 0);
      await s.saveTask(T2, task('sub', 1001, 'TASK_STATE_WORKING'), 1);
      await s.saveTask(A, task('done', 1000), 0);
      const found = (await s.unfinishedTasks())
        .map((f) => `${f.scope.tenant}/${f.scope.owner}/${f.task.id}@${f.version}`)
        .sort();
      assert.deepEqual(found, ['/alice/w@1', 'acme/alice/sub@2']);
      await s.close?.();
    });
  });
}

test('SQLite store keeps tasks across a restart', async () => {
  const path = join(dir, 'restart.db');
  const first = new SqliteTaskStore({ path });
  await first.saveTask(A, task('keep', 5000));
  await first.close();
  const second = new SqliteTaskStore({ path });
  assert.equal((await second.getTask(A, 'keep'))?.status.state, 'TASK_STATE_COMPLETED');
  await second.close();
});

test('memory store evicts only terminal tasks, oldest first, past its cap', async () => {
  const s = new InMemoryTaskStore({ maxTasks: 3 });
  await s.saveTask(A, task('old-done', 1));
  await s.saveTask(A, task('working', 2, 'TASK_STATE_WORKING'));
  await s.saveTask(A, task('done2', 3));
  await s.saveTask(A, task('done3', 4));
  assert.equal(await s.getTask(A, 'old-done'), undefined);
  assert.ok(await s.getTask(A, 'working'));
  assert.equal(s.size, 3);
});
