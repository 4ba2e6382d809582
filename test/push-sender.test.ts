import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PushSender,
  PUSH_CONTENT_TYPE,
  PUSH_ID_HEADER,
  PUSH_TOKEN_HEADER,
  type DeliveryOutcome,
  type PushSenderOptions,
} from '../src/server/push/index.js';
import type { TaskPushNotificationConfig } from '../src/protocol/index.js';
import {
  SETTLE,
  captureLogger,
  closeAll,
  gate,
  recordingClock,
  seqOf,
  startWebhook,
  statusEvent,
  track,
} from './push-fixture.js';

afterEach(closeAll);

const LOOPBACK = { allowLoopback: true };
const T = { timeout: 120_000 };

function sender(extra: PushSenderOptions = {}): PushSender {
  return track(new PushSender({ policy: LOOPBACK, baseDelayMs: 1, maxDelayMs: 5, ...extra }));
}

const cfg = (
  url: string,
  extra: Partial<TaskPushNotificationConfig> = {},
): TaskPushNotificationConfig => ({
  id: 'cfg-1',
  taskId: 'task-1',
  url,
  ...extra,
});

test(
  '§4.3.3 delivery: POST of the StreamResponse with Authorization, token, content type; events in order',
  T,
  async () => {
    const hook = await startWebhook();
    const s = sender();
    const config = cfg(hook.url, {
      token: 'tok-1',
      authentication: { scheme: 'Bearer', credentials: 's3cret' },
    });
    const events = Array.from({ length: 40 }, (_, i) => statusEvent('task-1', i));
    for (const ev of events) s.enqueue(config, ev);
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(hook.hits.length, 40);
    assert.deepEqual(
      hook.hits.map(seqOf),
      events.map((_, i) => i),
    );
    const first = hook.hits[0]!;
    assert.equal(first.method, 'POST');
    assert.equal(first.path, '/hook');
    assert.equal(first.headers['content-type'], PUSH_CONTENT_TYPE);
    assert.equal(first.headers['authorization'], 'Bearer s3cret');
    assert.equal(first.headers[PUSH_TOKEN_HEADER.toLowerCase()], 'tok-1');
    assert.match(String(first.headers[PUSH_ID_HEADER.toLowerCase()]), /^[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse(first.body), events[0]);
    assert.deepEqual(s.stats, {
      delivered: 40,
      retried: 0,
      failed: 0,
      dropped: 0,
      queued: 0,
      inFlight: 0,
    });
    await s.close();
    await hook.close();
  },
);

test('no authentication or token configured → neither header is sent', T, async () => {
  const hook = await startWebhook();
  const s = sender();
  s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(hook.hits[0]!.headers['authorization'], undefined);
  assert.equal(hook.hits[0]!.headers[PUSH_TOKEN_HEADER.toLowerCase()], undefined);
  await s.close();
  await hook.close();
});

test('two tasks interleaved on one webhook: each task keeps its own order', T, async () => {
  const hook = await startWebhook();
  const s = sender();
  for (let i = 0; i < 20; i++) {
    s.enqueue(cfg(hook.url, { taskId: 'a' }), statusEvent('a', i));
    s.enqueue(cfg(hook.url, { taskId: 'b' }), statusEvent('b', i));
  }
  assert.equal(await s.drain(SETTLE), true);
  const seqFor = (t: string) =>
    hook.hits.filter((h) => JSON.parse(h.body).statusUpdate.taskId === t).map(seqOf);
  assert.deepEqual(seqFor('a'), [...Array(20).keys()]);
  assert.deepEqual(seqFor('b'), [...Array(20).keys()]);
  await s.close();
  await hook.close();
});

test(
  '§13.2 503 once then 200 → delivered after one retry, same notification id, order kept',
  T,
  async () => {
    const hook = await startWebhook((_h, i) => ({ status: i === 0 ? 503 : 200 }));
    const s = sender();
    s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
    s.enqueue(cfg(hook.url), statusEvent('task-1', 1));
    assert.equal(await s.drain(SETTLE), true);
    assert.deepEqual(hook.hits.map(seqOf), [0, 0, 1]);
    assert.equal(
      hook.hits[0]!.headers[PUSH_ID_HEADER.toLowerCase()],
      hook.hits[1]!.headers[PUSH_ID_HEADER.toLowerCase()],
    );
    assert.deepEqual(s.stats, {
      delivered: 2,
      retried: 1,
      failed: 0,
      dropped: 0,
      queued: 0,
      inFlight: 0,
    });
    await s.close();
    await hook.close();
  },
);

test(
  '§13.2 dead webhook: enqueue never blocks, a healthy webhook gets everything, the dead one gives up after maxAttempts',
  T,
  async () => {
    const held = gate();
    const dead = await startWebhook(async () => {
      await held.promise;
      return { status: 500 };
    });
    const healthy = await startWebhook();
    const log = captureLogger();
    const outcomes: DeliveryOutcome[] = [];
    const s = sender({ maxAttempts: 3, logger: log, onOutcome: (o) => outcomes.push(o) });
    const deadCfg = cfg(dead.url, {
      id: 'dead-cfg',
      token: 'never-log-me',
      authentication: { scheme: 'Bearer', credentials: 'hidden' },
    });
    for (let i = 0; i < 3; i++) s.enqueue(deadCfg, statusEvent('task-1', i));
    for (let i = 0; i < 30; i++)
      s.enqueue(cfg(healthy.url, { id: 'ok-cfg' }), statusEvent('task-1', i));
    // Both loops returned before any delivery finished: enqueue only queues.
    assert.equal(s.stats.delivered, 0);
    await healthy.waitFor(30);
    await dead.waitFor(1);
    assert.deepEqual(healthy.hits.map(seqOf), [...Array(30).keys()]);
    assert.equal(dead.hits.length, 1, 'the dead webhook is still holding its first request');
    held.open();
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(dead.hits.length, 9);
    assert.deepEqual(dead.hits.map(seqOf), [0, 0, 0, 1, 1, 1, 2, 2, 2]);
    const st = s.stats;
    assert.equal(st.delivered, 30);
    assert.equal(st.failed, 3);
    assert.equal(st.retried, 6);
    const failed = outcomes.filter((o) => o.result === 'failed');
    assert.equal(failed.length, 3);
    assert.deepEqual(
      {
        taskId: failed[0]!.taskId,
        configId: failed[0]!.configId,
        url: failed[0]!.url,
        attempts: failed[0]!.attempts,
        status: failed[0]!.status,
      },
      { taskId: 'task-1', configId: 'dead-cfg', url: dead.url, attempts: 3, status: 500 },
    );
    const warn = log.entries.filter((e) => e.level === 'warn');
    assert.equal(warn.length, 3);
    const logged = JSON.stringify(log.entries);
    assert.equal(logged.includes('never-log-me'), false);
    assert.equal(logged.includes('hidden'), false);
    await s.close();
    await dead.close();
    await healthy.close();
  },
);

test(
  '§13.2 Retry-After (seconds, HTTP-date, capped) replaces the backoff; full jitter otherwise',
  T,
  async () => {
    const clock = recordingClock();
    const later = new Date(clock.now() + 3_000).toUTCString();
    const answers = [
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 503, headers: { 'Retry-After': later } },
      { status: 503, headers: { 'Retry-After': '3600' } },
      { status: 408 },
      { status: 200 },
    ];
    const hook = await startWebhook((_h, i) => answers[i]!);
    const s = track(
      new PushSender({
        policy: LOOPBACK,
        clock,
        random: () => 0.5,
        baseDelayMs: 100,
        maxDelayMs: 10_000,
        maxRetryAfterMs: 5_000,
        maxAttempts: 5,
      }),
    );
    s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(hook.hits.length, 5);
    // Retry 4 has no Retry-After: random 0.5 × min(maxDelay, base·2^3 = 800) = 400.
    assert.deepEqual(clock.waits, [2_000, 3_000, 5_000, 400]);
    assert.equal(s.stats.delivered, 1);
    await s.close();
    await hook.close();
  },
);

test('§13.2 redirects are not followed and not retried', T, async () => {
  const target = await startWebhook();
  const hook = await startWebhook(() => ({ status: 307, headers: { Location: target.url } }));
  const outcomes: DeliveryOutcome[] = [];
  const s = sender({ onOutcome: (o) => outcomes.push(o) });
  s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(hook.hits.length, 1);
  assert.equal(target.hits.length, 0);
  assert.equal(outcomes[0]!.result, 'failed');
  assert.match(outcomes[0]!.error ?? '', /redirect/);
  await s.close();
  await hook.close();
  await target.close();
});

test('other 4xx are final: one attempt, counted as failed', T, async () => {
  const hook = await startWebhook(() => ({ status: 401 }));
  const s = sender();
  s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(hook.hits.length, 1);
  assert.deepEqual(s.stats, {
    delivered: 0,
    retried: 0,
    failed: 1,
    dropped: 0,
    queued: 0,
    inFlight: 0,
  });
  await s.close();
  await hook.close();
});

test('bounded queue: overflow drops the oldest pending event and logs it', T, async () => {
  const held = gate();
  const hook = await startWebhook(async (_h, i) => {
    if (i === 0) await held.promise;
    return { status: 200 };
  });
  const log = captureLogger();
  const s = sender({ maxQueuePerDestination: 2, logger: log });
  for (let i = 0; i < 5; i++) s.enqueue(cfg(hook.url), statusEvent('task-1', i));
  await hook.waitFor(1);
  assert.equal(s.stats.dropped, 2);
  held.open();
  assert.equal(await s.drain(SETTLE), true);
  assert.deepEqual(hook.hits.map(seqOf), [0, 3, 4]);
  assert.equal(log.entries.filter((e) => e.msg === 'push notification dropped').length, 2);
  await s.close();
  await hook.close();
});

test(
  '§13.2 timeout: a webhook that never answers fails the attempt and is retried up to maxAttempts',
  T,
  async () => {
    const never = gate();
    const hook = await startWebhook(async () => {
      await never.promise;
      return { status: 200 };
    });
    const outcomes: DeliveryOutcome[] = [];
    const s = sender({ timeoutMs: 50, maxAttempts: 2, onOutcome: (o) => outcomes.push(o) });
    s.enqueue(cfg(hook.url), statusEvent('task-1', 0));
    assert.equal(await s.drain(SETTLE), true);
    assert.deepEqual([outcomes[0]!.result, outcomes[0]!.attempts], ['failed', 2]);
    assert.match(outcomes[0]!.error ?? '', /ETIMEDOUT/);
    never.open();
    await s.close();
    await hook.close();
  },
);

test('close(): pending and in-flight events are dropped, later enqueues too', T, async () => {
  const never = gate();
  const hook = await startWebhook(async () => {
    await never.promise;
    return { status: 200 };
  });
  const s = sender();
  for (let i = 0; i < 3; i++) s.enqueue(cfg(hook.url), statusEvent('task-1', i));
  await hook.waitFor(1);
  await s.close();
  s.enqueue(cfg(hook.url), statusEvent('task-1', 9));
  assert.deepEqual(s.stats, {
    delivered: 0,
    retried: 0,
    failed: 0,
    dropped: 4,
    queued: 0,
    inFlight: 0,
  });
  never.open();
  await hook.close();
});

test(
  'connection is pinned to the address the guard checked; the name is resolved by the injected resolver only',
  T,
  async () => {
    const hook = await startWebhook();
    const resolved: string[] = [];
    const s = track(
      new PushSender({
        policy: {
          allowLoopback: true,
          resolve: async (host) => {
            resolved.push(host);
            return [{ address: '127.0.0.1', family: 4 }];
          },
        },
      }),
    );
    for (let i = 0; i < 3; i++)
      s.enqueue(cfg(`http://webhook.test:${hook.port}/pinned`), statusEvent('task-1', i));
    assert.equal(await s.drain(SETTLE), true);
    assert.deepEqual(
      resolved,
      ['webhook.test'],
      'resolved once: the checked answer is cached and reused',
    );
    assert.equal(hook.hits[0]!.headers.host, `webhook.test:${hook.port}`);
    assert.equal(hook.hits[0]!.path, '/pinned');
    assert.equal(s.stats.delivered, 3);
    await s.close();
    await hook.close();
  },
);

test(
  'the event is a snapshot at enqueue time: later changes to the object are not sent',
  T,
  async () => {
    const hook = await startWebhook();
    const s = sender();
    const ev = statusEvent('task-1', 0);
    s.enqueue(cfg(hook.url), ev);
    s.enqueue(cfg(hook.url, { id: 'cfg-2' }), ev);
    if ('statusUpdate' in ev) ev.statusUpdate.status.state = 'TASK_STATE_FAILED';
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(hook.hits.length, 2);
    for (const h of hook.hits)
      assert.equal(JSON.parse(h.body).statusUpdate.status.state, 'TASK_STATE_WORKING');
  },
);

test(
  'enqueue never throws: an unserialisable event is counted as failed, nothing is sent',
  T,
  async () => {
    const hook = await startWebhook();
    const s = sender();
    const ev = statusEvent('task-1', 0) as { statusUpdate: { metadata: Record<string, unknown> } };
    ev.statusUpdate.metadata.big = 10n;
    s.enqueue(cfg(hook.url), ev as never);
    assert.equal(await s.drain(SETTLE), true);
    assert.deepEqual([s.stats.failed, hook.hits.length], [1, 0]);
  },
);
