/**
 * The bus going away: an unreachable Redis at start, Redis stopping mid-run (open streams end with an
 * error, new work is refused as Unavailable) and coming back (work resumes without a restart). Runs its
 * own redis-server on a free port it probes (the shared one on 6379 is left alone) and stops it itself.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { createAgentServer, InMemoryTaskStore, type AgentServer } from '../src/server/index.js';
import { redisEvents } from '../src/server/events/redis.js';
import { card, msg, openStream, probe, rpc, scripted, BOUND_MS } from './core-fixture.js';
import { OwnRedis } from './cluster-fixture.js';
import { commandMissing, freePort } from './service-fixture.js';

const PORT = await freePort();
const URL_ = `redis://127.0.0.1:${PORT}`;
const missing = commandMissing('redis-server', 'redis-server');
const redis = new OwnRedis(PORT);
const startRedis = (): Promise<void> => redis.start();
const stopRedis = (): Promise<void> => redis.stop();
const servers: AgentServer[] = [];

after(async () => {
  await Promise.allSettled(servers.map((s) => s.close(200)));
  await stopRedis();
});

const opts = { skip: missing };

test(
  'Redis unreachable at start: listen fails with an error naming the URL, password masked',
  opts,
  async () => {
    const server = createAgentServer({
      executor: scripted(probe()),
      card: (o) => card(o),
      events: redisEvents(`redis://:s3cret@127.0.0.1:${PORT}`, { connectTimeoutMs: 1000 }),
    });
    await assert.rejects(server.listen(0), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(`event bus at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${PORT}\\b`),
      );
      assert.doesNotMatch(err.message, /s3cret/);
      return true;
    });
    await server.close(0);
  },
);

test(
  'Redis down: open streams end with an error, new work is refused as Unavailable; back up: work resumes',
  opts,
  async () => {
    await startRedis();
    const store = new InMemoryTaskStore();
    const p = probe();
    const make = () => {
      const s = createAgentServer({
        executor: scripted(p),
        store,
        card: (o) => card(o),
        events: redisEvents(URL_, { prefix: 'faults', lease: { ttlMs: 1000 } }),
      });
      servers.push(s);
      return s;
    };
    const a = `${await make().listen(0)}/rpc`;
    const b = `${await make().listen(0)}/rpc`;
    const task = (
      await rpc(a, 'SendMessage', {
        message: msg('gate f1'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    const sub = await openStream(b, 'SubscribeToTask', { id: task.id });
    assert.ok(await sub.next());

    await stopRedis();
    const rest = await sub.rest(); // ends instead of hanging (rest() is bounded)
    const last = rest.at(-1);
    assert.equal(
      last?.data.error?.code,
      -32012,
      `the stream ends with an Unavailable error: ${JSON.stringify(rest)}`,
    );
    const refused = await rpc(a, 'SendMessage', { message: msg('echo hi') });
    assert.equal(refused.body.error?.code, -32012);
    assert.match(
      refused.body.error.message,
      new RegExp(`event bus \\(redis://127\\.0\\.0\\.1:${PORT}/?\\) is unreachable`),
    );

    await startRedis();
    const deadline = Date.now() + BOUND_MS;
    let answer;
    for (let i = 0; i < 500; i++) {
      answer = await rpc(a, 'SendMessage', { message: msg('echo again') });
      if (answer.body.result || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(
      answer?.body.result?.task.status.state,
      'TASK_STATE_COMPLETED',
      JSON.stringify(answer?.body),
    );
    p.gate('f1').open();
  },
);
