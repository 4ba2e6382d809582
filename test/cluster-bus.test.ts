/**
 * Several in-process instances on one store and one Redis: a task sent to A is followed from B, canceled
 * through C, resumed on another instance with Last-Event-ID, and notified once per webhook. Real HTTP
 * servers on 127.0.0.1:0, real Redis (a fresh key prefix, deleted afterwards); no mocks.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { Redis } from 'ioredis';
import { redisEvents, type RedisEventBus } from '../src/server/events/redis.js';
import {
  card,
  msg,
  openStream,
  probe,
  rpc,
  scripted,
  stateOf,
  waitForTask,
  Gate,
  BOUND_MS,
} from './core-fixture.js';
import {
  REDIS_URL,
  clusterStore,
  dropPrefix,
  redisMissing,
  startCluster,
  testPrefix,
  type Instance,
} from './cluster-fixture.js';
import { closeAll, startWebhook } from './push-fixture.js';

const missing = await redisMissing();
const prefix = testPrefix();
const p = probe();
const instances: Instance[] = [];
let A: Instance, B: Instance, C: Instance;

before(async () => {
  if (missing) return;
  const store = await clusterStore();
  instances.push(
    ...(await startCluster(3, scripted(p), {
      prefix,
      store,
      server: { push: { policy: { allowLoopback: true } } },
    })),
  );
  [A, B, C] = instances as [Instance, Instance, Instance];
});

after(async () => {
  await closeAll();
  await Promise.allSettled(instances.map((i) => i.close()));
  if (!missing) await dropPrefix(prefix);
});

const opts = { skip: missing };

test(
  'send on A, subscribe on B: every later event once, in order, then the end',
  opts,
  async () => {
    const task = (
      await rpc(A.url, 'SendMessage', {
        message: msg('gate g1'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(A.url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    const sub = await openStream(B.url, 'SubscribeToTask', { id: task.id });
    const first = await sub.next();
    assert.equal(first?.data.result.task.id, task.id, 'a subscription opens with the task');
    p.gate('g1').open();
    const rest = await sub.rest();
    assert.deepEqual(rest.map(stateOf).filter(Boolean), ['TASK_STATE_COMPLETED']);
    const ids = [first, ...rest].map((e) => Number(e.id));
    assert.deepEqual(
      [...ids].sort((x, y) => x - y),
      ids,
      'ids grow',
    );
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    assert.ok(sub.cleanEnd);
  },
);

test(
  'a streamed message on A is followed live from B and C with the same events and ids',
  opts,
  async () => {
    const stream = await openStream(A.url, 'SendStreamingMessage', { message: msg('gate g2') });
    const head = await stream.next();
    const id = head!.data.result.task.id as string;
    await waitForTask(B.url, id, () => true); // stored: another instance can subscribe to it
    const onB = await openStream(B.url, 'SubscribeToTask', { id });
    const onC = await openStream(C.url, 'SubscribeToTask', { id });
    assert.ok(await onB.next());
    assert.ok(await onC.next());
    p.gate('g2').open();
    const fromA = await stream.rest();
    const fromB = await onB.rest();
    const fromC = await onC.rest();
    const tail = (l: typeof fromA) =>
      l.slice(-fromB.length).map((e) => [e.id, JSON.stringify(e.data.result)]);
    assert.ok(fromB.length >= 1);
    assert.deepEqual(
      fromB.map((e) => [e.id, JSON.stringify(e.data.result)]),
      tail(fromA),
      'B sees what A sent, same ids',
    );
    assert.deepEqual(
      fromC.map((e) => [e.id, JSON.stringify(e.data.result)]),
      tail(fromA),
    );
  },
);

test('Last-Event-ID resume on another instance loses and repeats nothing', opts, async () => {
  const stream = await openStream(A.url, 'SendStreamingMessage', { message: msg('gate g3') });
  const seen = [(await stream.next())!];
  const id = seen[0]!.data.result.task.id as string;
  seen.push((await stream.next())!); // WORKING
  await stream.cancel(); // the client drops
  p.gate('g3').open();
  await waitForTask(A.url, id, (t) => t.status.state === 'TASK_STATE_COMPLETED');
  const resumed = await openStream(
    B.url,
    'SubscribeToTask',
    { id },
    { 'A2A-Version': '1.0', 'Last-Event-ID': seen.at(-1)!.id! },
  );
  const rest = await resumed.rest();
  const all = [...seen, ...rest];
  assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'no event repeated');
  assert.equal(stateOf(rest.at(-1)!), 'TASK_STATE_COMPLETED');
  assert.ok(
    rest.some((e) => e.data.result.artifactUpdate),
    'the artifact sent after the drop arrives',
  );
  const ids = all.map((e) => Number(e.id));
  assert.deepEqual(
    [...ids].sort((x, y) => x - y),
    ids,
  );
});

test(
  '§3.1.5 CancelTask through C aborts the executor signal on A and answers CANCELED',
  opts,
  async () => {
    const task = (
      await rpc(A.url, 'SendMessage', {
        message: msg('polite c1'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    await waitForTask(A.url, task.id, (t) => t.status.state === 'TASK_STATE_WORKING');
    const r = await rpc(C.url, 'CancelTask', { id: task.id });
    assert.equal(r.body.result?.status.state, 'TASK_STATE_CANCELED', JSON.stringify(r.body));
    await Promise.race([
      p.aborted.get(task.id)?.opened ?? new Gate().opened,
      timeout('the executor on A was not aborted'),
    ]);
    for (const i of instances)
      assert.equal(
        (await rpc(i.url, 'GetTask', { id: task.id })).body.result.status.state,
        'TASK_STATE_CANCELED',
      );
  },
);

test(
  'INPUT_REQUIRED on A continues on B; A then answers from the store, not from its old run',
  opts,
  async () => {
    const streamed = await openStream(A.url, 'SendStreamingMessage', { message: msg('ask') }); // A keeps the run for resumes
    const events = await streamed.rest();
    const task = events[0]!.data.result.task as Task;
    assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_INPUT_REQUIRED');
    const r = await rpc(B.url, 'SendMessage', {
      message: msg('blue', { taskId: task.id, contextId: task.contextId }),
    });
    assert.equal(r.body.result?.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(r.body));
    assert.equal(
      (await rpc(A.url, 'GetTask', { id: task.id })).body.result.status.state,
      'TASK_STATE_COMPLETED',
    );
    assert.equal(
      (await rpc(A.url, 'CancelTask', { id: task.id })).body.error?.code,
      -32002,
      'TaskNotCancelable, not a CANCELED over COMPLETED',
    );
  },
);

test('a push webhook receives each event once with three instances', opts, async () => {
  const hook = await startWebhook();
  const task = (
    await rpc(A.url, 'SendMessage', {
      message: msg('gate g4'),
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { url: hook.url, id: 'w1' },
      },
    })
  ).body.result.task as Task;
  const sub = await openStream(C.url, 'SubscribeToTask', { id: task.id });
  await sub.next();
  p.gate('g4').open();
  await sub.rest();
  await waitForTask(B.url, task.id, (t) => t.status.state === 'TASK_STATE_COMPLETED');
  // Every notification of the task is queued by now; once no sender has anything queued or in flight,
  // every one that will ever be sent has reached the webhook (a duplicate included).
  for (const i of instances) assert.ok(await i.server.service.pushSender.drain(BOUND_MS));
  const bodies = hook.hits.map((h) => h.body);
  assert.ok(bodies.length >= 2, `got ${bodies.length} notifications`);
  assert.equal(new Set(bodies).size, bodies.length, 'no notification twice');
  assert.equal(bodies.filter((b) => b.includes('TASK_STATE_COMPLETED')).length, 1);
});

test(
  'an instance that stops renewing its leases: a survivor fails its task, or re-runs it when the executor is resumable',
  opts,
  async () => {
    // Separate instances on the same bus: the lost one's bus is closed under it (its leases expire, as
    // after a kill -9, see cluster-process.test.ts), and the survivor adopts its task.
    const store = await clusterStore();
    const own = testPrefix(); // A, B and C scan the leases of `prefix` too, but do not share this store
    const gate = new Gate();
    const started = new Map<string, number>();
    const agent: AgentExecutor = async (ctx, task) => {
      started.set(ctx.taskId, (started.get(ctx.taskId) ?? 0) + 1);
      task.working();
      if (started.get(ctx.taskId)! > 1) return task.complete('done on the survivor');
      await Promise.race([gate.opened, new Promise((r) => setTimeout(r, BOUND_MS).unref())]);
    };
    const make = () =>
      createAgentServer({
        executor: agent,
        store,
        card: (o) => card(o),
        events: redisEvents(REDIS_URL, { prefix: own, lease: { ttlMs: 600, scanMs: 100 } }),
      });
    const survivor = make();
    const survivorUrl = `${await survivor.listen(0)}/rpc`;
    const servers = [survivor];
    const loseOne = async (): Promise<string> => {
      const lost = make();
      servers.push(lost);
      const url = `${await lost.listen(0)}/rpc`;
      const t = (
        await rpc(url, 'SendMessage', {
          message: msg('work'),
          configuration: { returnImmediately: true },
        })
      ).body.result.task as Task;
      await waitForTask(url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');
      await lost.service.tasks.options.bus!.close();
      return t.id;
    };
    try {
      const t1 = await loseOne();
      const failed = await waitForTask(
        survivorUrl,
        t1,
        (t) => t.status.state !== 'TASK_STATE_WORKING',
      );
      assert.equal(failed.status.state, 'TASK_STATE_FAILED');
      assert.match(JSON.stringify(failed.status.message), /instance .* was lost/);
      agent.resumable = true;
      const t2 = await loseOne();
      const rerun = await waitForTask(
        survivorUrl,
        t2,
        (t) => t.status.state !== 'TASK_STATE_WORKING',
      );
      assert.equal(rerun.status.state, 'TASK_STATE_COMPLETED');
      assert.equal(started.get(t2), 2);
    } finally {
      gate.open();
      await Promise.allSettled(servers.map((s) => s.close(200)));
      await dropPrefix(own);
    }
  },
);

test(
  'push retries pending on a lost instance are delivered by a survivor, each once',
  opts,
  async () => {
    const store = await clusterStore();
    const own = testPrefix();
    let healthy = false;
    const ok = new Map<string, number>();
    const hook = await startWebhook((hit) => {
      if (!healthy) return { status: 503 };
      ok.set(hit.body, (ok.get(hit.body) ?? 0) + 1);
      return { status: 200 };
    });
    const make = () =>
      createAgentServer({
        executor: scripted(probe()),
        store,
        card: (o) => card(o, { streaming: true, pushNotifications: true }),
        push: {
          policy: { allowLoopback: true },
          sender: { maxAttempts: 200, baseDelayMs: 20, maxDelayMs: 40 },
        },
        events: redisEvents(REDIS_URL, { prefix: own, lease: { ttlMs: 600, scanMs: 100 } }),
      });
    const lost = make();
    const survivor = make();
    try {
      const url = `${await lost.listen(0)}/rpc`;
      await survivor.listen(0);
      const r = await rpc(url, 'SendMessage', {
        message: msg('echo hi'),
        configuration: { taskPushNotificationConfig: { url: hook.url, id: 'w' } },
      });
      assert.equal(
        r.body.result?.task.status.state,
        'TASK_STATE_COMPLETED',
        JSON.stringify(r.body),
      );
      await hook.waitFor(2); // failing attempts: the notifications wait for a retry on the lost instance
      await lost.service.tasks.options.bus!.close(); // stops beating, as after a kill -9
      await lost.service.pushSender.close();
      healthy = true;
      const deadline = Date.now() + BOUND_MS;
      while (
        ![...ok.keys()].some((b) => b.includes('TASK_STATE_COMPLETED')) &&
        Date.now() < deadline
      )
        await new Promise((res) => setTimeout(res, 50));
      // A second copy could only come from an outbox entry: once the lost instance's outbox is worked
      // off and the survivor's sender is idle, every copy there will be has arrived.
      const outbox = `${own}:push:${(lost.service.tasks.options.bus as RedisEventBus).instanceId}`;
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      try {
        while ((await redis.xlen(outbox)) > 0 && Date.now() < deadline)
          await new Promise((res) => setTimeout(res, 20));
        assert.equal(await redis.xlen(outbox), 0, 'the lost outbox was worked off');
      } finally {
        redis.disconnect();
      }
      assert.ok(await survivor.service.pushSender.drain(BOUND_MS));
      assert.ok(
        [...ok.keys()].some((b) => b.includes('TASK_STATE_COMPLETED')),
        'the final notification arrives',
      );
      for (const [body, n] of ok) assert.equal(n, 1, `delivered once: ${body}`);
    } finally {
      await Promise.allSettled([lost.close(100), survivor.close(100)]);
      await dropPrefix(own);
    }
  },
);

test(
  'a resume after the retention window: the events are gone, so a finished task is refused as for a new subscription',
  opts,
  async () => {
    const own = testPrefix();
    const store = await clusterStore();
    const pp = probe();
    const make = () =>
      createAgentServer({
        executor: scripted(pp),
        store,
        card: (o) => card(o),
        events: redisEvents(REDIS_URL, { prefix: own, retention: { ms: 300 } }),
      });
    const servers = [make(), make()];
    try {
      const [a, b] = await Promise.all(servers.map(async (s) => `${await s.listen(0)}/rpc`));
      const stream = await openStream(a!, 'SendStreamingMessage', { message: msg('gate r1') });
      const head = (await stream.next())!;
      const id = head.data.result.task.id as string;
      await stream.cancel();
      pp.gate('r1').open();
      await waitForTask(a!, id, (t) => t.status.state === 'TASK_STATE_COMPLETED');
      const within = await openStream(
        b!,
        'SubscribeToTask',
        { id },
        { 'A2A-Version': '1.0', 'Last-Event-ID': head.id! },
      );
      assert.equal(
        stateOf((await within.rest()).at(-1)!),
        'TASK_STATE_COMPLETED',
        'within the window: resumed',
      );
      // Past retention.ms Redis expires the task's stream: wait (bounded) until it has.
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      try {
        const deadline = Date.now() + BOUND_MS;
        while ((await redis.exists(`${own}:ev:::${id}`)) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
      } finally {
        redis.disconnect();
      }
      const late = await rpc(
        b!,
        'SubscribeToTask',
        { id },
        { 'A2A-Version': '1.0', 'Last-Event-ID': head.id! },
      );
      assert.equal(late.body.error?.code, -32004, JSON.stringify(late.body));
    } finally {
      await Promise.allSettled(servers.map((s) => s.close(100)));
      await dropPrefix(own);
    }
  },
);

function timeout(why: string): Promise<never> {
  return new Promise((_, rej) => setTimeout(() => rej(new Error(why)), BOUND_MS).unref());
}

test(
  'an instance that stops cleanly with nothing left to deliver leaves nothing behind in Redis',
  opts,
  async () => {
    const store = await clusterStore();
    const [D] = await startCluster(1, scripted(p), { prefix, store });
    const { Redis } = await import('ioredis');
    const r = new Redis(REDIS_URL);
    try {
      const before = await r.smembers(`${prefix}:instances`);
      await D!.close();
      const after = await r.smembers(`${prefix}:instances`);
      const gone = before.filter((id) => !after.includes(id));
      assert.equal(gone.length, 1, 'the stopped instance is no longer listed');
      assert.equal(
        await r.exists(`${prefix}:push:${gone[0]}`, `${prefix}:alive:${gone[0]}`),
        0,
        'nor its outbox or heartbeat',
      );
    } finally {
      r.disconnect();
    }
  },
);
