/** Answers reuse a finished task's JSON text; what they say must not change because of it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { knownTaskJson, resultJson, storedTaskJson, taskJson } from '../src/server/tasks/json.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';

const task = (state: Task['status']['state'], text: string): Task => ({
  id: 't-1',
  contextId: 'c-1',
  status: { state, timestamp: '2026-12-02T00:00:00.000Z' },
  artifacts: [{ artifactId: 'a-1', parts: [{ text }] }],
});

test('every result serialises to the same JSON as JSON.stringify would, non-ASCII included', () => {
  for (const t of [
    task('TASK_STATE_COMPLETED', 'héllo ✓ 😀'),
    task('TASK_STATE_WORKING', 'naïve'),
    task('TASK_STATE_FAILED', 'plain'),
  ]) {
    for (const [op, result] of [
      ['GetTask', t],
      ['CancelTask', t],
      ['SendMessage', { task: t }],
      ['ListTasks', { tasks: [t] }],
    ] as const) {
      assert.deepEqual(JSON.parse(resultJson(op, result)), result, `${op} ${t.status.state}`);
    }
  }
  assert.equal(resultJson('DeleteTaskPushNotificationConfig', undefined), '{}');
});

test('a finished task is serialised once; a text read back from a store is reused as is', () => {
  const done = task('TASK_STATE_COMPLETED', 'x');
  assert.equal(taskJson(done), taskJson(done));
  const parsed = knownTaskJson(JSON.parse(taskJson(done)) as Task, taskJson(done));
  assert.equal(resultJson('GetTask', parsed), taskJson(done));
});

test('a task still in progress is serialised afresh every time (it may have changed)', () => {
  const live = task('TASK_STATE_WORKING', 'before');
  const first = taskJson(live);
  live.artifacts![0] = { artifactId: 'a-1', parts: [{ text: 'after' }] };
  assert.notEqual(taskJson(live), first);
});

test('a store serialises a finished task as it is now, even one it just read back and that was changed', async () => {
  const done = task('TASK_STATE_COMPLETED', 'x');
  taskJson(done);
  done.metadata = { note: 'added later' };
  assert.deepEqual(JSON.parse(storedTaskJson(done)).metadata, { note: 'added later' });

  const store = new InMemoryTaskStore();
  const scope = { tenant: '', owner: '' };
  await store.saveTask(scope, task('TASK_STATE_COMPLETED', 'y'));
  const read = (await store.getTask(scope, 't-1'))!;
  read.metadata = { reviewed: true };
  await store.saveTask(scope, read);
  assert.deepEqual((await store.getTask(scope, 't-1'))!.metadata, { reviewed: true });
});

test('the answer for a finished task is the text its store just made, not a second serialisation', () => {
  const done = task('TASK_STATE_COMPLETED', 'z');
  const stored = storedTaskJson(done);
  assert.equal(taskJson(done), stored);
  assert.equal(resultJson('SendMessage', { task: done }), `{"task":${stored}}`);
});
