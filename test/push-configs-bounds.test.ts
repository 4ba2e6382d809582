/** Push configs: one task holds a bounded number, listing honours pageSize, and a streamed message's config delivers. */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { msg, openStream, rpc, start, stateOf } from './core-fixture.js';
import { closeAll, startWebhook, track } from './push-fixture.js';

afterEach(closeAll);

async function pushServer(extra: Record<string, unknown> = {}) {
  const s = await start(
    { streaming: true, pushNotifications: true },
    { push: { policy: { allowLoopback: true } }, ...extra },
  );
  track({ close: () => s.close() });
  return s;
}

describe('push config bounds', () => {
  it('a task takes at most limits.pushConfigsPerTask configs; replacing one by id still works', async () => {
    const s = await pushServer({ limits: { pushConfigsPerTask: 3 } });
    const t = (await rpc(s.url, 'SendMessage', { message: msg('ask') })).body.result.task as Task;
    for (let i = 0; i < 3; i++) {
      const r = await rpc(s.url, 'CreateTaskPushNotificationConfig', {
        taskId: t.id,
        id: `c${i}`,
        url: `http://127.0.0.1:9/${i}`,
      });
      assert.ok(r.body.result, JSON.stringify(r.body));
    }
    const refused = await rpc(s.url, 'CreateTaskPushNotificationConfig', {
      taskId: t.id,
      url: 'http://127.0.0.1:9/x',
    });
    assert.equal(refused.body.error?.code, -32004);
    assert.match(refused.body.error.message, /already has 3 push notification configs/);
    const replaced = await rpc(s.url, 'CreateTaskPushNotificationConfig', {
      taskId: t.id,
      id: 'c1',
      url: 'http://127.0.0.1:9/again',
    });
    assert.equal(replaced.body.result.url, 'http://127.0.0.1:9/again');
  });

  it('§3.1.9 ListTaskPushNotificationConfigs honours pageSize with a cursor to the next page', async () => {
    const s = await pushServer();
    const t = (await rpc(s.url, 'SendMessage', { message: msg('ask') })).body.result.task as Task;
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      await rpc(s.url, 'CreateTaskPushNotificationConfig', {
        taskId: t.id,
        id,
        url: `http://127.0.0.1:9/${id}`,
      });
    }
    const seen: string[] = [];
    let token = '';
    for (let page = 0; page < 10; page++) {
      const r = await rpc(s.url, 'ListTaskPushNotificationConfigs', {
        taskId: t.id,
        pageSize: 2,
        ...(token ? { pageToken: token } : {}),
      });
      const { configs, nextPageToken } = r.body.result;
      assert.ok(configs.length <= 2);
      seen.push(...configs.map((c: { id: string }) => c.id));
      token = nextPageToken;
      if (!token) break;
    }
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
  });
});

describe('§3.2.2 a push config given with SendStreamingMessage', () => {
  it('is stored and delivers the task events, as with SendMessage', async () => {
    const hook = track(await startWebhook());
    const s = await pushServer();
    const stream = await openStream(s.url, 'SendStreamingMessage', {
      message: msg('echo'),
      configuration: { taskPushNotificationConfig: { url: hook.url, token: 'streamed' } },
    });
    const events = await stream.rest();
    assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
    const taskId = events[0]!.data.result.task.id as string;
    await hook.waitFor(2);
    assert.ok(hook.hits.every((h) => h.headers['x-a2a-notification-token'] === 'streamed'));
    const listed = await rpc(s.url, 'ListTaskPushNotificationConfigs', { taskId });
    assert.equal(listed.body.result.configs.length, 1);
    assert.equal(listed.body.result.configs[0].url, hook.url);
  });
});
