/**
 * One instance of the cluster tests' agent, as its own process: `node --import tsx test/cluster-server.ts`
 * with A2A_CLUSTER_STORE (e.g. `sqlite:/tmp/x.db`), A2A_TEST_REDIS and A2A_BUS_PREFIX set. Prints
 * `{"origin": …}` on stdout once it listens. `slow` works until canceled; anything else completes at once.
 */
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { redisEvents } from '../src/server/events/redis.js';
import { card } from './core-fixture.js';
import { REDIS_URL, clusterStore } from './cluster-fixture.js';

const agent: AgentExecutor = async (ctx, task) => {
  if (ctx.text === 'stall') {
    task.working('stalling');
    await new Promise((r) => setTimeout(r, 200)); // stored by now
    // The event loop stops for longer than the lease TTL: to the others this instance looks dead.
    const until = Date.now() + 2500;
    while (Date.now() < until) {
      // busy on purpose
    }
    await new Promise((r) => setTimeout(r, 600)); // the lease renewal runs meanwhile and finds the task adopted
  } else if (ctx.text !== 'slow') {
    task.complete(`done: ${ctx.text}`);
    return;
  }
  task.working('on it');
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 60_000);
    const aborted = (): void => {
      clearTimeout(t);
      process.stdout.write(`${JSON.stringify({ aborted: ctx.taskId })}\n`); // the test reads it
      resolve();
    };
    if (ctx.signal.aborted) aborted();
    else ctx.signal.addEventListener('abort', aborted);
  });
};

const server = createAgentServer({
  executor: agent,
  store: await clusterStore(),
  card: (o) => card(o, { streaming: true }),
  events: redisEvents(REDIS_URL, {
    prefix: process.env.A2A_BUS_PREFIX ?? 'a2a-test',
    lease: { ttlMs: 1000, scanMs: 250 },
  }),
});
const origin = await server.listen(Number(process.env.PORT ?? 0));
process.stdout.write(`${JSON.stringify({ origin })}\n`);
process.on('SIGTERM', () => void server.close(500).then(() => process.exit(0)));
