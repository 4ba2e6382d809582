/** One contract, every TaskStore: scoping, listing order and cursors, push configs, persistence. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../src/protocol/index.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import type { PushConfigStore, TaskStore } from '../src/server/store/task-store.js';

const A = { tenant: '', owner: 'alice' };
const B = { tenant: '', owner: 'bob' };
const T2 = { tenant: 'acme', owner: 'alice' };

function task(id: string, ms: number, state: Task['status']['state'] = 'TASK_STATE_COMPLETED', contextId = 'ctx'): Task {
  return { id, contextId, status: { state, timestamp: new Date(ms).toISOString() }, history: [], artifacts: [] };
}

const dir = mkdtempSync(join(tmpdir(), 'a2a-store-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => TaskStore & PushConfigStore]> = [
  ['memory', () => new InMemoryTaskStore()],
  ['sqlite', () => new SqliteTaskStore({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`) })],
];

for (const [name, make] of stores) {
  describe(`TaskStore contract: ${name}`, () => {
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
      for (let i = 0; i < 7; i++) await s.saveTask(A, task(`t${i}`, 1000 + i * 10, i % 2 ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED', i < 4 ? 'c1' : 'c2'));
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
      assert.deepEqual((await s.listTasks(A, { pageSize: 50, status: 'TASK_STATE_WORKING' })).tasks.map((t) => t.id), ['t5', 't3', 't1']);
      assert.deepEqual((await s.listTasks(A, { pageSize: 50, contextId: 'c1' })).tasks.map((t) => t.id), ['t3', 't2', 't1', 't0']);
      assert.deepEqual((await s.listTasks(A, { pageSize: 50, statusTimestampAfter: 1050 })).tasks.map((t) => t.id), ['t6', 't5']);
      await assert.rejects(s.listTasks(A, { pageSize: 3, pageToken: 'garbage' }), { kind: 'InvalidParams' });
      await s.close?.();
    });

    test('push configs are scoped by task owner; delete is idempotent', async () => {
      const s = make();
      await s.saveTask(A, task('t1', 1000, 'TASK_STATE_WORKING'));
      await s.savePushConfig(A, { id: 'c1', taskId: 't1', url: 'http://127.0.0.1:9/h', token: 'x' });
      assert.equal((await s.getPushConfig(A, 't1', 'c1'))?.url, 'http://127.0.0.1:9/h');
      assert.equal(await s.getPushConfig(B, 't1', 'c1'), undefined);
      await assert.rejects(s.savePushConfig(B, { id: 'c2', taskId: 't1', url: 'http://x/' }), { kind: 'TaskNotFound' });
      assert.equal((await s.listPushConfigs(A, 't1')).length, 1);
      await s.deletePushConfig(A, 't1', 'c1');
      await s.deletePushConfig(A, 't1', 'c1');
      assert.equal((await s.listPushConfigs(A, 't1')).length, 0);
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
