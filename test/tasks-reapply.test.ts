/**
 * A lost race is re-applied, never overwritten: the merge of this run's task onto the stored one, and the
 * bound on how many races in a row one save may lose before the call reports it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { merged } from '../src/server/tasks/merge.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { TaskVersionConflict, type Scope } from '../src/server/store/task-store.js';
import { rpc, msg, start } from './core-fixture.js';

const m = (id: string, text: string) => ({
  messageId: id,
  role: 'ROLE_USER' as const,
  parts: [{ text }],
});

test('merge: stored messages and artifacts kept, ours added or replacing by id, our status and metadata on top', () => {
  const stored: Task = {
    id: 't',
    contextId: 'c',
    status: { state: 'TASK_STATE_INPUT_REQUIRED' },
    history: [m('1', 'first'), m('2', 'from B')],
    artifacts: [
      { artifactId: 'a', parts: [{ text: 'B' }] },
      { artifactId: 'b', parts: [{ text: 'B only' }] },
    ],
    metadata: { from: 'B', keep: 1 },
  };
  const ours: Task = {
    id: 't',
    contextId: 'c',
    status: { state: 'TASK_STATE_COMPLETED' },
    history: [m('1', 'first'), m('3', 'from A')],
    artifacts: [
      { artifactId: 'a', parts: [{ text: 'A' }] },
      { artifactId: 'c', parts: [{ text: 'A only' }] },
    ],
    metadata: { from: 'A' },
  };
  const r = merged(ours, stored);
  assert.deepEqual(
    r.history?.map((x) => x.messageId),
    ['1', '2', '3'],
  );
  assert.deepEqual(
    r.artifacts?.map((a) => `${a.artifactId}:${(a.parts[0] as { text: string }).text}`),
    ['a:A', 'b:B only', 'c:A only'],
  );
  assert.equal(r.status.state, 'TASK_STATE_COMPLETED');
  assert.deepEqual(r.metadata, { from: 'A', keep: 1 });
});

test('a save that keeps losing races is reported (Internal, says why), not retried forever nor overwritten', async () => {
  // Every conditional update loses (another writer always got there first).
  class Contended extends InMemoryTaskStore {
    override async saveTask(scope: Scope, task: Task, expected?: number): Promise<number | void> {
      if (expected !== undefined && expected > 0) throw new TaskVersionConflict(task.id, expected);
      return super.saveTask(scope, task, expected);
    }
  }
  const s = await start(undefined, { store: new Contended() });
  try {
    const first = await rpc(s.url, 'SendMessage', { message: msg('ask') });
    const t = first.body.result.task;
    assert.equal(t.status.state, 'TASK_STATE_INPUT_REQUIRED');
    const r = await rpc(s.url, 'SendMessage', {
      message: msg('more', { taskId: t.id, contextId: t.contextId }),
    });
    assert.equal(r.body.error?.code, -32603, JSON.stringify(r.body));
    assert.match(r.body.error.message, /kept changing concurrently/);
  } finally {
    await s.close();
  }
});
