/**
 * Several agent instances that act as one: each a real AgentServer on 127.0.0.1:0, all on one shared
 * task store and one Redis (a key prefix per test run, deleted afterwards). The store comes from
 * `clusterStore()`: one shared in-memory store for in-process instances by default, or the database named
 * by A2A_CLUSTER_STORE: `postgres://…` (schema A2A_CLUSTER_SCHEMA) or `sqlite:/path/file.db`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createAgentServer,
  silentLogger,
  InMemoryTaskStore,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
  type TaskStore,
} from '../src/server/index.js';
import { redisEvents, type RedisEventsOptions } from '../src/server/events/redis.js';
import { BOUND_MS, card } from './core-fixture.js';
import { mustHave, REDIS } from './service-fixture.js';

export const REDIS_URL = process.env.A2A_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/**
 * Undefined when Redis answers; else the reason to skip (a test `skip` message naming the service and
 * how to start it), which under CI=true is also a failing test (see `mustHave`).
 */
export async function redisMissing(url = REDIS_URL): Promise<string | undefined> {
  const err = await redisDown(url);
  return (
    err &&
    mustHave(`Redis is not reachable at ${url} (${err.message}); start it with: ${REDIS.start}`)
  );
}

/** Undefined when Redis at `url` answers PING; else why not. */
async function redisDown(url: string): Promise<Error | undefined> {
  const r = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let first: Error | undefined;
  r.on('error', (e: Error) => (first ??= e));
  try {
    await r.connect();
    await r.ping();
    return undefined;
  } catch (err) {
    return first ?? (err as Error);
  } finally {
    r.disconnect();
  }
}

/** A fresh key prefix for one test run. */
export function testPrefix(): string {
  return `a2a-test-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/** Delete every key under `prefix` (bounded scan). */
export async function dropPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  r.on('error', () => undefined);
  try {
    let cursor = '0';
    for (let i = 0; i < 10_000; i++) {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await r.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    r.disconnect();
  }
}

/** The store the instances share (see the module comment). */
export async function clusterStore(): Promise<TaskStore> {
  const spec = process.env.A2A_CLUSTER_STORE ?? 'memory';
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    const { postgresStore } = await import('../src/server/store/postgres/index.js');
    return postgresStore(spec, { schema: process.env.A2A_CLUSTER_SCHEMA ?? 'public' });
  }
  if (spec.startsWith('sqlite:')) {
    const { SqliteTaskStore } = await import('../src/server/store/sqlite.js');
    return new SqliteTaskStore({ path: spec.slice('sqlite:'.length) });
  }
  return new InMemoryTaskStore();
}

export interface Instance {
  origin: string;
  url: string;
  server: AgentServer;
  close(): Promise<void>;
}

/** Start `n` instances of `executor` on one store and one bus prefix. */
export async function startCluster(
  n: number,
  executor: AgentExecutor,
  opts: {
    prefix: string;
    store: TaskStore;
    bus?: RedisEventsOptions;
    redisUrl?: string;
    server?: Partial<AgentServerOptions>;
  },
): Promise<Instance[]> {
  const out: Instance[] = [];
  for (let i = 0; i < n; i++) {
    const server = createAgentServer({
      executor,
      store: opts.store,
      card: (o) => card(o, { streaming: true, pushNotifications: true }),
      // Instances are stopped and cut off on purpose: the default stderr lines would be noise here.
      logger: silentLogger,
      events: redisEvents(opts.redisUrl ?? REDIS_URL, {
        prefix: opts.prefix,
        lease: { ttlMs: 1000, scanMs: 200 },
        ...opts.bus,
      }),
      ...opts.server,
    });
    const origin = await server.listen(0);
    out.push({ origin, url: `${origin}/rpc`, server, close: () => server.close(500) });
  }
  return out;
}

/** A redis-server of the test's own (no persistence), which the test kills and restarts empty. */
export class OwnRedis {
  #proc: ChildProcess | undefined;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Start it and wait (bounded) until it answers. */
  async start(): Promise<void> {
    this.#proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + BOUND_MS;
    while (await redisDown(this.url)) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kill it (SIGKILL: everything it held is gone). */
  async stop(): Promise<void> {
    const r = this.#proc;
    this.#proc = undefined;
    if (!r || r.exitCode !== null) return;
    const exited = new Promise((res) => r.once('exit', res));
    r.kill('SIGKILL');
    await exited;
  }
}
