/** The per-caller quota on its own, with a clock the test sets: refills, abandoned tasks, late copies. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AError, type Task, type TaskState } from '../src/protocol/index.js';
import { CallerQuota } from '../src/server/quota/caller-quota.js';
import { artifactSize, messageSize, taskContentSize } from '../src/server/quota/sizes.js';

const scope = { tenant: '', owner: 'carol' };
const HOUR = 3_600_000;
const task = (id: string, state: TaskState, at = Date.now()): Task => ({
  id,
  contextId: 'c',
  status: { state, timestamp: new Date(at).toISOString() },
});
const refused = (f: () => void, quota: string): void =>
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof A2AError && e.kind === 'Unavailable', String(e));
    const info = e.details[0] as { reason: string; metadata: Record<string, string> };
    assert.equal(info.reason, 'QUOTA_EXCEEDED');
    assert.equal(info.metadata.quota, quota);
    return true;
  });

test('the byte budget refills continuously, pro rata of the hour, and says when to retry', () => {
  const q = new CallerQuota({ bytesPerHour: 3600 });
  const t0 = 1_000_000;
  q.admit(scope, 3600, false, t0);
  refused(() => q.admit(scope, 10, false, t0), 'bytesPerHour');
  assert.throws(() => q.admit(scope, 10, false, t0), /retry in 10 s/);
  q.admit(scope, 10, false, t0 + 10_000);
  q.admit({ tenant: 'other tenant', owner: 'dave' }, 3600, false, t0); // another caller's own budget
});

test('a task waiting for input longer than the limit stops counting; a recent one still counts', () => {
  const q = new CallerQuota({ liveTasks: 1, interruptedAfterMs: HOUR });
  const now = Date.now();
  const recent = task('t1', 'TASK_STATE_INPUT_REQUIRED', now);
  q.observe(scope, recent, { task: recent });
  refused(() => q.admit(scope, 1, true, now), 'liveTasks');
  q.admit(scope, 1, false, now); // a follow-up is not a new task

  const q2 = new CallerQuota({ liveTasks: 1, interruptedAfterMs: HOUR });
  const old = task('t2', 'TASK_STATE_INPUT_REQUIRED', now - 2 * HOUR);
  q2.observe(scope, old, { task: old });
  q2.admit(scope, 1, true, now);
});

test('a terminal event wins over an older event of another copy of the task', () => {
  const q = new CallerQuota({ liveTasks: 1 });
  const first = task('t1', 'TASK_STATE_SUBMITTED');
  q.observe(scope, first, { task: first });
  q.admit(scope, 1, false); // sorted: t1 is live
  const copy = task('t1', 'TASK_STATE_INPUT_REQUIRED'); // another object of the same task
  q.observe(scope, copy, { statusUpdate: { taskId: 't1', contextId: 'c', status: copy.status } });
  const done = task('t1', 'TASK_STATE_CANCELED');
  q.observe(scope, done, { statusUpdate: { taskId: 't1', contextId: 'c', status: done.status } });
  q.admit(scope, 1, true);
});

test('quota options are checked; false turns one off', () => {
  assert.throws(
    () => new CallerQuota({ liveTasks: 0 }),
    /quota.liveTasks must be a number above 0/,
  );
  const q = new CallerQuota({ liveTasks: false, bytesPerHour: false });
  for (let i = 0; i < 100; i++) {
    const t = task(`t${i}`, 'TASK_STATE_WORKING');
    q.observe(scope, t, { task: t });
    q.admit(scope, 1e12, true);
  }
});

test('sizes count every member a client or an agent fills', () => {
  const bare = messageSize({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] });
  const filled = messageSize({
    messageId: 'm',
    role: 'ROLE_USER',
    parts: [{ text: 'x', filename: 'f'.repeat(100), metadata: { k: 'v'.repeat(100) } }],
    metadata: { k: 'v'.repeat(100) },
    extensions: ['e'.repeat(100)],
    referenceTaskIds: ['r'.repeat(100)],
  });
  assert.ok(filled - bare >= 500, `${filled - bare} characters counted for 500 added`);
  const artifact = {
    artifactId: 'a',
    name: 'n'.repeat(100),
    description: 'd'.repeat(100),
    parts: [],
  };
  assert.ok(artifactSize(artifact) >= 200);
  assert.equal(
    taskContentSize({ ...task('t', 'TASK_STATE_COMPLETED'), artifacts: [artifact] }),
    artifactSize(artifact),
  );
});
