/**
 * The drain and push notifications: the final event of an agent that finishes during the drain is
 * delivered before the drain ends; a webhook that does not answer by the deadline is dropped and counted.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { gate, closeAll, startWebhook } from './push-fixture.js';
import { sendTask, start, waitForTask } from './core-fixture.js';

afterEach(closeAll);

const PUSH = { streaming: true, pushNotifications: true };
const LOOPBACK = { push: { policy: { allowLoopback: true } } };

test('drain: the final event of an agent that finishes during the drain reaches its webhook before the store closes', async () => {
  const hook = await startWebhook();
  const s = await start(PUSH, LOOPBACK);
  const task = await sendTask(s.url, 'gate p1', {
    configuration: { returnImmediately: true, taskPushNotificationConfig: { url: hook.url } },
  });
  await waitForTask(s.url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
  const draining = s.server.drain(100_000);
  s.probe.gate('p1').open();
  const report = await draining;
  assert.equal(report.pushesDropped, 0);
  assert.equal(report.deadlineExceeded, false);
  const states = hook.hits
    .map((h) => JSON.parse(h.body) as { statusUpdate?: { status: { state: string } } })
    .map((b) => b.statusUpdate?.status.state);
  assert.ok(states.includes('TASK_STATE_COMPLETED'), `delivered: ${states.join()}`);
});

test('drain: a webhook still not answering at the deadline → its notifications are dropped and counted', async () => {
  const held = gate();
  const hook = await startWebhook(async () => {
    await held.promise;
    return { status: 200 };
  });
  const s = await start(PUSH, { ...LOOPBACK, drain: { deadlineMs: 200 } });
  try {
    const task = await sendTask(s.url, 'gate p2', {
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: hook.url } },
    });
    await waitForTask(s.url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    await hook.waitFor(1);
    s.probe.gate('p2').open();
    const report = await s.server.drain();
    assert.ok(report.pushesDropped >= 1, JSON.stringify(report));
    assert.equal(report.deadlineExceeded, true);
    assert.deepEqual(report.tasksAborted, []);
  } finally {
    held.open();
  }
});
