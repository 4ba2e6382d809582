/**
 * Several instances on one Redis: (1) the time from an event on instance A to its delivery to a
 * subscriber on instance B (p50/p99, against a subscriber on A itself); (2) K=50 streams on one
 * instance without a bus, one with the Redis bus, and two with it (load split over both), with server
 * CPU µs per event and the Redis server's CPU µs per event (from /proc of redis-server; the shared
 * Redis may serve others meanwhile). Every phase is bounded in time. Needs `npm run build` and Redis.
 * Results: bench/results/<date>-cluster.md (and the JSON next to it).
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { cliOptions, here, runLoad, startServer, waitQuiet } from './lib.mjs';

const usage =
  'node bench/cluster.mjs [--redis URL] [--postgres URL] [--seconds S] [--concurrency C] [--tasks T] [--ticks N] [--out FILE]';
const { values } = cliOptions(
  usage,
  {
    redis: { type: 'string' },
    postgres: { type: 'string' },
    seconds: { type: 'string' },
    concurrency: { type: 'string' },
    tasks: { type: 'string' },
    ticks: { type: 'string' },
    out: { type: 'string' },
  },
  { numbers: ['seconds', 'concurrency', 'tasks', 'ticks'] },
);
const REDIS = values.redis ?? 'redis://127.0.0.1:6379';
/** With --postgres the instances share a PostgreSQL database (a schema per phase, dropped at the end), else a SQLite file. */
const PG = values.postgres;
const schemas = [];
const dbFor = (name) => {
  if (!PG) return path.join(dir, `${name}.db`);
  const schema = `a2a_bench_${process.pid}_${name.replace(/[^a-z0-9]/gi, '_')}`;
  schemas.push(schema);
  return `${PG}#${schema}`;
};
const SECONDS = values.seconds ?? 8;
const CONCURRENCY = values.concurrency ?? 8;
const TASKS = values.tasks ?? 20;
const TICKS = values.ticks ?? 50;
const K = 50;
const prefix = `a2a-bench-${process.pid}`;
const dir = mkdtempSync(path.join(tmpdir(), 'a2a-cluster-bench-'));
const date = new Date().toISOString().slice(0, 10);

const info = spawnSync('redis-cli', ['-u', REDIS, 'info', 'server'], { encoding: 'utf8' });
const redisPid = Number(/process_id:(\d+)/.exec(info.stdout ?? '')?.[1]);
if (!redisPid) {
  process.stderr.write(
    `Redis is not reachable at ${REDIS} (redis-cli info server failed); start it first\n`,
  );
  process.exit(1);
}
const TICK_HZ =
  Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
/** CPU (user + system) µs a process has used, from /proc/<pid>/stat. */
function procCpuUs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / TICK_HZ;
}

const q = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;
const r2 = (x) => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(0));

function rpc(url, method, params) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  }).then((r) => r.json());
}

/** Subscribe on `url` to task `id`; `onEvent(result, receivedAtMs)` per event; resolves at the end (bounded). */
function subscribe(url, id, onEvent) {
  const u = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id } });
  return new Promise((resolve) => {
    let buf = '';
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        timeout: 30_000,
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const at = performance.timeOrigin + performance.now();
          buf += chunk;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('');
            if (data) onEvent(JSON.parse(data).result, at);
          }
        });
        res.on('end', resolve);
        res.on('error', resolve);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', resolve);
    req.end(body);
  });
}

/** Event-to-delivery times (ms) of tick tasks sent to `pub` and followed on `sub`. */
async function latency(pub, sub) {
  const samples = [];
  for (let t = 0; t < TASKS; t++) {
    const sent = await rpc(pub, 'SendMessage', {
      message: {
        messageId: `lat-${t}-${Date.now()}`,
        role: 'ROLE_USER',
        parts: [{ text: `tick:${TICKS}:5` }],
      },
      configuration: { returnImmediately: true },
    });
    const id = sent.result?.task?.id;
    if (!id) throw new Error(`tick task not created: ${JSON.stringify(sent)}`);
    await subscribe(sub, id, (r, at) => {
      const stamp = Number(r?.statusUpdate?.status?.message?.parts?.[0]?.text);
      if (Number.isFinite(stamp) && stamp > 1e12) samples.push(at - stamp);
    });
  }
  return samples.sort((a, b) => a - b);
}

async function instances(n, withBus, db) {
  const env = { BENCH_DB: db, ...(withBus ? { BENCH_REDIS: REDIS, BENCH_PREFIX: prefix } : {}) };
  const out = [];
  for (let i = 0; i < n; i++) out.push(await startServer('cluster', [], env));
  return out;
}

/** K=50 streams against `servers` (the load split evenly), with CPU of the servers and of Redis. */
async function streams(servers) {
  await waitQuiet();
  const cpu0 = await Promise.all(servers.map((s) => s.cpu()));
  const redis0 = procCpuUs(redisPid);
  const per = Math.max(1, Math.floor(CONCURRENCY / servers.length));
  const loads = await Promise.all(
    servers.map((s) =>
      runLoad(
        'stream-load.mjs',
        {
          url: `${s.origin}/a2a/jsonrpc`,
          concurrency: per,
          k: K,
          duration: SECONDS,
          warmup: 1,
          maxStreams: 1_000_000,
        },
        SECONDS + 60,
      ),
    ),
  );
  const redisUs = procCpuUs(redisPid) - redis0;
  const cpu1 = await Promise.all(servers.map((s) => s.cpu()));
  const events = loads.reduce((a, l) => a + l.events, 0);
  const serverUs = cpu1.reduce((a, c, i) => a + c - cpu0[i], 0);
  return {
    eventsPerS: loads.reduce((a, l) => a + l.eventsPerS, 0),
    ttfeP50: Math.max(...loads.map((l) => l.ttfeMs.p50)),
    ttfeP99: Math.max(...loads.map((l) => l.ttfeMs.p99)),
    errors: loads.reduce((a, l) => a + l.errors, 0),
    // Warm-up events are not counted, their CPU is: a slight overestimate, the same for every row.
    serverUsPerEvent: serverUs / events,
    redisUsPerEvent: redisUs / events,
  };
}

const results = {
  date,
  loadBefore: loadavg()[0],
  redis: REDIS,
  seconds: SECONDS,
  concurrency: CONCURRENCY,
  k: K,
  tasks: TASKS,
  ticks: TICKS,
};
try {
  const pair = await instances(2, true, dbFor('lat'));
  try {
    const [a, b] = pair.map((s) => `${s.origin}/a2a/jsonrpc`);
    const local = await latency(a, a);
    const remote = await latency(a, b);
    results.latency = {
      sameInstance: { n: local.length, p50: q(local, 50), p99: q(local, 99), max: local.at(-1) },
      crossInstance: {
        n: remote.length,
        p50: q(remote, 50),
        p99: q(remote, 99),
        max: remote.at(-1),
      },
    };
  } finally {
    await Promise.all(pair.map((s) => s.stop()));
  }
  results.streams = {};
  for (const [name, n, bus] of [
    ['one instance, no bus', 1, false],
    ['one instance + Redis bus', 1, true],
    ['two instances + Redis bus', 2, true],
  ]) {
    const servers = await instances(n, bus, dbFor(`${n}-${bus}`));
    try {
      results.streams[name] = await streams(servers);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  for (const schema of schemas)
    spawnSync('psql', [PG, '-qc', `DROP SCHEMA IF EXISTS ${schema} CASCADE`]);
  const keys = spawnSync('redis-cli', ['-u', REDIS, '--scan', '--pattern', `${prefix}:*`], {
    encoding: 'utf8',
  })
    .stdout.split('\n')
    .filter(Boolean);
  for (let i = 0; i < keys.length; i += 500)
    spawnSync('redis-cli', ['-u', REDIS, 'del', ...keys.slice(i, i + 500)]);
}

const L = results.latency;
const lines = [
  `# Cluster bench, ${date}`,
  '',
  `\`node bench/cluster.mjs${PG ? ' --postgres …' : ''}\` — Redis ${REDIS}; ${PG ? 'PostgreSQL' : 'SQLite'} store shared by the instances; 2-core machine shared with other work`,
  `(1-min load average ${results.loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after: p99s on a loaded machine measure the scheduler as much as the bus).`,
  '',
  `## Event on A → delivered to a subscriber (${TASKS} tasks × ${TICKS} updates, 5 ms apart)`,
  '',
  '| subscriber on | samples | p50 ms | p99 ms | max ms |',
  '|---|---|---|---|---|',
  `| A (same instance) | ${L.sameInstance.n} | ${r2(L.sameInstance.p50)} | ${r2(L.sameInstance.p99)} | ${r2(L.sameInstance.max)} |`,
  `| B (other instance, via Redis) | ${L.crossInstance.n} | ${r2(L.crossInstance.p50)} | ${r2(L.crossInstance.p99)} | ${r2(L.crossInstance.max)} |`,
  '',
  `Target: cross-instance p99 ≤ 10 ms — ${L.crossInstance.p99 <= 10 ? 'met' : 'MISSED'}.`,
  '',
  `## K=${K} streams, ${CONCURRENCY} concurrent, ${SECONDS} s`,
  '',
  '| setup | events/s | first event p50 / p99 ms | server CPU µs/event | Redis CPU µs/event | errors |',
  '|---|---|---|---|---|---|',
  ...Object.entries(results.streams).map(
    ([name, s]) =>
      `| ${name} | ${s.eventsPerS.toFixed(0)} | ${r2(s.ttfeP50)} / ${r2(s.ttfeP99)} | ${r2(s.serverUsPerEvent)} | ${r2(s.redisUsPerEvent)} | ${s.errors} |`,
  ),
  '',
];
const out = values.out ?? here(`./results/${date}-cluster.md`);
writeFileSync(out, lines.join('\n'));
writeFileSync(out.replace(/\.md$/, '.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${lines.join('\n')}\nwritten to ${out}\n`);
process.exit(0);
