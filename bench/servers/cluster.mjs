/**
 * One instance of the cluster bench's agent, from the built dist/: the echo agent of ours.mjs (with
 * `stream:K`), plus `tick:N:MS`, which sends N working updates MS apart, each stamped with the time it
 * was sent (performance.timeOrigin + now, in ms: comparable across processes of one machine).
 * BENCH_REDIS: the bus URL (none: a single instance); BENCH_PREFIX: its key prefix; BENCH_DB: a SQLite
 * file shared by the instances (none: in memory).
 */
import { performance } from 'node:perf_hooks';
import { echoCard, extraUpdates, report } from './harness.mjs';

const dist = new URL('../../dist/', import.meta.url).href;
const { createAgentServer } = await import(`${dist}server/index.js`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const agent = async (ctx, task) => {
  const tick = /^tick:(\d+):(\d+)$/.exec(ctx.text);
  if (tick) {
    task.working('starting');
    await sleep(100); // time for the subscriber on the other instance to attach
    for (let i = 0; i < Number(tick[1]); i++) {
      await sleep(Number(tick[2]));
      task.working(String(performance.timeOrigin + performance.now()));
    }
    task.complete();
    return;
  }
  task.working();
  for (let i = extraUpdates(ctx.text); i > 0; i--) task.working();
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

// BENCH_DB: a SQLite file, or `postgres://…#schema` (one schema per phase of the bench).
const db = process.env.BENCH_DB;
const store = !db
  ? undefined
  : /^postgres(ql)?:/.test(db)
    ? (await import(`${dist}server/store/postgres/index.js`)).postgresStore(db.split('#')[0], {
        schema: db.split('#')[1] ?? 'public',
      })
    : new (await import(`${dist}server/store/sqlite.js`)).SqliteTaskStore({ path: db });
const events = process.env.BENCH_REDIS
  ? (await import(`${dist}server/events/redis.js`)).redisEvents(process.env.BENCH_REDIS, {
      prefix: process.env.BENCH_PREFIX ?? 'a2a-bench',
    })
  : undefined;

const server = createAgentServer({
  executor: agent,
  ...(store ? { store } : {}),
  ...(events ? { events } : {}),
  card: (origin) => echoCard(origin, { name: 'cluster-bench', description: 'Echo and ticks' }),
});
report(await server.listen(Number(process.env.PORT ?? 0)));
