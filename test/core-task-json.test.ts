/** Answers reuse a finished task's JSON text; what they say must not change because of it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { knownTaskJson, resultJson, taskJson } from '../src/server/task-json.js';

const task = (state: Task['status']['state'], text: string): Task => ({
  id: 't-1',
  contextId: 'c-1',
  status: { state, timestamp: '2026-12-02T00:00:00.000Z' },
  artifacts: [{ artifactId: 'a-1', parts: [{ text }] }],
});

test('every result serialises to the same JSON as JSON.stringify would, non-ASCII included', () => {
  for (const t of [task('TASK_STATE_COMPLETED', 'héllo ✓ 😀'), task('TASK_STATE_WORKING', 'naïve'), task('TASK_STATE_FAILED', 'plain')]) {
    for (const [op, result] of [['GetTask', t], ['CancelTask', t], ['SendMessage', { task: t }], ['ListTasks', { tasks: [t] }]] as const) {
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
