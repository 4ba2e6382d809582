#!/usr/bin/env node
/**
 * a2a-kit vs @a2a-js/sdk vs bare node:http. Usage (after `npm run build`):
 *   node bench/run.mjs [--quick] [--runs N] [--duration S] [--warmup S] [--only id,id] [--servers …] [--no-memory] [--tasks N]
 * Every measurement starts a fresh server (core 0) and a fresh load process (core 1); servers are
 * interleaved per scenario (ours, sdk, bare, ours, sdk, bare, …). Writes bench/results/<date>.{md,json}.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { execFileSync } from 'node:child_process';
import {
  SERVERS,
  canNice,
  canPin,
  cliOptions,
  here,
  runLoad,
  startServer,
  stats,
  waitQuiet,
} from './lib.mjs';
import { SCENARIOS, SEND_RPC } from './scenarios.mjs';
import { renderMarkdown } from './report.mjs';

const USAGE =
  'node bench/run.mjs [--quick] [--runs N] [--duration S] [--warmup S] [--only id,id] [--servers ours,sdk,bare] [--no-memory] [--tasks N]';
const str = { type: 'string' };
const { values: o } = cliOptions(
  USAGE,
  {
    quick: { type: 'boolean' },
    runs: str,
    duration: str,
    warmup: str,
    tasks: str,
    only: str,
    servers: str,
    'no-memory': { type: 'boolean' },
  },
  { numbers: ['runs', 'duration', 'warmup', 'tasks'] },
);
const quick = Boolean(o.quick);
const cfg = {
  quick,
  runs: o.runs ?? (quick ? 1 : 5),
  duration: o.duration ?? (quick ? 2 : 4),
  warmup: o.warmup ?? (quick ? 0.5 : 1),
  tasks: o.tasks ?? (quick ? 5_000 : 20_000),
  flatRuns: quick ? 2 : 3,
  only: o.only ? o.only.split(',') : null,
  memory: !o['no-memory'],
  servers: o.servers ? o.servers.split(',') : SERVERS,
};
const unknown = [
  ...(cfg.only ?? []).filter((id) => !SCENARIOS.some((s) => s.id === id)),
  ...cfg.servers.filter((s) => !SERVERS.includes(s)),
];
if (unknown.length) {
  console.error(
    `unknown scenario or server: ${unknown.join(', ')}; scenarios are ${SCENARIOS.map((s) => s.id).join(', ')}; servers are ${SERVERS.join(', ')}`,
  );
  process.exit(2);
}
if (!(
  cfg.runs >= 1 &&
  cfg.runs <= 20 &&
  cfg.duration > 0 &&
  cfg.duration <= 60 &&
  cfg.warmup >= 0 &&
  cfg.warmup <= 60 &&
  cfg.tasks >= 1 &&
  cfg.tasks <= 200_000
)) {
  console.error('runs must be 1..20, duration 0..60 s, warmup 0..60 s, tasks 1..200000');
  process.exit(2);
}

const log = (s) => process.stderr.write(`${s}\n`);
const started = new Date();
log(
  `bench: ${cfg.runs} run(s) × ${cfg.duration} s (+${cfg.warmup} s warm-up), pinning ${canPin ? 'on (server core 0, load core 1)' : 'off'}, priority ${canNice ? 'raised' : 'normal'}`,
);

const results = { scenarios: {}, memory: {} };
const scenarios = SCENARIOS.filter((s) => !cfg.only || cfg.only.includes(s.id));

for (const sc of scenarios) {
  // Reference servers of one scenario only (e.g. the node:http2 bound of the gRPC rows) join the full comparison.
  const servers = [...cfg.servers, ...(o.servers ? [] : (sc.extraServers ?? []))];
  const per = Object.fromEntries(servers.map((s) => [s, []]));
  for (let run = 0; run < cfg.runs; run++) {
    // Each round starts with a different server, so none is always first after a quiet pause or last before one.
    const order = servers.map((_, i) => servers[(i + run) % servers.length]);
    for (const name of order) {
      const busy = await waitQuiet();
      const srv = await startServer(name, [], sc.transport === 'grpc' ? { BENCH_GRPC: '1' } : {});
      try {
        const load = await sc.prepare(srv);
        if (!load) {
          per[name].push({ na: true });
          continue;
        }
        const script =
          sc.transport === 'grpc'
            ? 'grpc-load.mjs'
            : sc.kind === 'stream'
              ? 'stream-load.mjs'
              : 'load.mjs';
        if (cfg.warmup > 0)
          await runLoad(script, { ...load, duration: cfg.warmup, warmup: 0 }, cfg.warmup + 40);
        const cpu0 = await srv.cpu();
        const r = await runLoad(
          script,
          { ...load, duration: cfg.duration, warmup: 0 },
          cfg.duration + 40,
        );
        const cpuUs = (await srv.cpu()) - cpu0;
        // Server CPU per request (per event for streams): the measure least disturbed by a busy machine.
        const units = sc.kind === 'stream' ? r.events : r.responses;
        per[name].push({
          ...r,
          cpuUs,
          cpuUsPerUnit: units ? cpuUs / units : null,
          cpuBusyBefore: busy,
        });
        const head =
          sc.kind === 'stream'
            ? `${Math.round(r.eventsPerS)} ev/s ttfe p50 ${r.ttfeMs.p50?.toFixed(1)} ms`
            : `${Math.round(r.throughputRps)} req/s p99 ${r.latency.p99} ms`;
        log(
          `  ${sc.id} run ${run + 1} ${name}: ${head}${busy !== null && busy > 0.25 ? ` (machine ${Math.round(busy * 100)} % busy before)` : ''}${r.errors ? ` — ${r.errors} ERRORS (invalid)` : ''}`,
        );
      } catch (e) {
        per[name].push({ failed: String(e?.message ?? e) });
        log(`  ${sc.id} run ${run + 1} ${name}: FAILED ${e?.message ?? e}`);
      } finally {
        await srv.stop();
      }
    }
  }
  results.scenarios[sc.id] = {
    title: sc.title,
    kind: sc.kind,
    latency: Boolean(sc.latency),
    runs: per,
    summary: summarize(sc, per),
  };
}

if (cfg.memory) {
  log(
    `memory: ${cfg.tasks} completed tasks per server, then ${cfg.flatRuns} × ${cfg.duration} s of GetTask`,
  );
  for (const name of cfg.servers) {
    try {
      results.memory[name] = await memoryRun(name);
      const m = results.memory[name];
      log(
        `  ${name}: ${m.bytesPerTaskRss?.toFixed(0) ?? 'n/a'} B/task (RSS), ${m.bytesPerTaskHeap?.toFixed(0) ?? 'n/a'} B/task (heap), flat drift ${(m.flatDriftRss / 1e6).toFixed(1)} MB`,
      );
    } catch (e) {
      results.memory[name] = { failed: String(e?.message ?? e) };
      log(`  ${name}: FAILED ${e?.message ?? e}`);
    }
  }
}

/**
 * bytes/task: ΔRSS (and Δheap) after GC over N completed tasks, then over N more (steady state: the young
 * generation no longer grows); flatness: RSS across repeated GetTask runs.
 */
async function memoryRun(name) {
  await waitQuiet();
  const srv = await startServer(name);
  try {
    const load = {
      url: `${srv.origin}/a2a/jsonrpc`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      connections: 32,
      verify: 'send-jsonrpc',
      expectStatus: 200,
    };
    // A short warm-up so JIT code and connection buffers are not counted as per-task memory.
    await runLoad('load.mjs', { ...load, body: SEND_RPC, amount: 3000, maxSeconds: 60 }, 90);
    const before = await srv.mem();
    const send =
      name === 'bare'
        ? null
        : await runLoad(
            'load.mjs',
            { ...load, body: SEND_RPC, amount: cfg.tasks, maxSeconds: 300 },
            330,
          );
    const after = await srv.mem();
    // A second batch of the same size: the first one also pays, once, for V8 touching the pages of its
    // young generation (~16 MB, first used sooner by a server that allocates more per request, i.e. often
    // during the warm-up), so the second batch's growth is what stored tasks cost.
    const send2 =
      name === 'bare'
        ? null
        : await runLoad(
            'load.mjs',
            { ...load, body: SEND_RPC, amount: cfg.tasks, maxSeconds: 300 },
            330,
          );
    const after2 = name === 'bare' ? after : await srv.mem();
    const created = name === 'bare' ? 0 : 2 * cfg.tasks + 3000;
    const r = await fetch(load.url, {
      method: 'POST',
      headers: load.headers,
      body: SEND_RPC,
      signal: AbortSignal.timeout(10_000),
    });
    const id = (await r.json()).result.task.id;
    const get = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } });
    const flat = [];
    let flatErrors = 0;
    for (let i = 0; i < cfg.flatRuns; i++) {
      const g = await runLoad(
        'load.mjs',
        { ...load, body: get, verify: 'get-jsonrpc', duration: cfg.duration, warmup: 0 },
        cfg.duration + 40,
      );
      flatErrors += g.errors;
      flat.push((await srv.mem()).rss);
    }
    return {
      tasks: name === 'bare' ? 0 : cfg.tasks,
      createdTotal: created,
      sendErrors: (send?.errors ?? 0) + (send2?.errors ?? 0),
      rssBefore: before.rss,
      rssAfter: after.rss,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      bytesPerTaskRss: name === 'bare' ? null : (after.rss - before.rss) / cfg.tasks,
      bytesPerTaskHeap:
        name === 'bare'
          ? null
          : (after.heapUsed + after.external - before.heapUsed - before.external) / cfg.tasks,
      rssAfter2: after2.rss,
      bytesPerTaskRssSteady: name === 'bare' ? null : (after2.rss - after.rss) / cfg.tasks,
      bytesPerTaskHeapSteady:
        name === 'bare'
          ? null
          : (after2.heapUsed + after2.external - after.heapUsed - after.external) / cfg.tasks,
      flatRss: flat,
      flatDriftRss: Math.max(...flat) - Math.min(...flat),
      flatGrowthRss: flat.at(-1) - flat[0],
      flatErrors,
    };
  } finally {
    await srv.stop();
  }
}

/** ours (or `of`) ÷ other within the same interleaved round, so drift in machine load cancels out. */
function paired(per, other, f, of = 'ours') {
  const o = per[of] ?? [];
  const x = per[other] ?? [];
  const ok = (r) => r && !r.na && !r.failed && r.errors === 0;
  const v = [];
  for (let i = 0; i < Math.min(o.length, x.length); i++)
    if (ok(o[i]) && ok(x[i]) && f(x[i])) v.push(f(o[i]) / f(x[i]));
  return stats(v);
}

function summarize(sc, per) {
  const out = {};
  const keys =
    sc.kind === 'stream'
      ? {
          eventsPerS: (r) => r.eventsPerS,
          ttfeP50: (r) => r.ttfeMs.p50,
          ttfeP99: (r) => r.ttfeMs.p99,
          cpu: (r) => r.cpuUsPerUnit,
        }
      : {
          rps: (r) => r.throughputRps,
          mean: (r) => r.latency.mean,
          p50: (r) => r.latency.p50,
          p99: (r) => r.latency.p99,
          cpu: (r) => r.cpuUsPerUnit,
        };
  out.paired = {};
  for (const other of ['sdk', 'bare', 'bare-h2']) {
    if (per[other])
      out.paired[other] = Object.fromEntries(
        Object.entries(keys).map(([k, f]) => [k, paired(per, other, f)]),
      );
  }
  // How far the transport alone gets against the SDK: the most any server on it could show.
  if (per['bare-h2'] && per.sdk)
    out.paired.h2OverSdk = { rps: paired(per, 'sdk', keys.rps ?? keys.eventsPerS, 'bare-h2') };
  for (const [name, runs] of Object.entries(per)) {
    if (name === 'paired') continue;
    if (runs.length && runs.every((r) => r.na)) {
      out[name] = { na: true };
      continue;
    }
    const valid = runs.filter((r) => !r.na && !r.failed && r.errors === 0);
    const invalid = runs.length - valid.length;
    const pick = (f) => stats(valid.map(f));
    out[name] =
      sc.kind === 'stream'
        ? {
            eventsPerS: pick((r) => r.eventsPerS),
            ttfeP50: pick((r) => r.ttfeMs.p50),
            ttfeP99: pick((r) => r.ttfeMs.p99),
            cpu: pick((r) => r.cpuUsPerUnit),
            invalid,
            total: runs.length,
          }
        : {
            rps: pick((r) => r.throughputRps),
            mean: pick((r) => r.latency.mean),
            p50: pick((r) => r.latency.p50),
            p99: pick((r) => r.latency.p99),
            max: pick((r) => r.latency.max),
            cpu: pick((r) => r.cpuUsPerUnit),
            invalid,
            total: runs.length,
          };
  }
  return out;
}

const git = (...a) => {
  try {
    return execFileSync('git', a, {
      cwd: here('..'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
};
const meta = {
  date: started.toISOString(),
  commit: git('rev-parse', '--short', 'HEAD'),
  srcDirty: Boolean(git('status', '--porcelain', '--', 'src')),
  finished: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  pinned: canPin,
  raisedPriority: canNice,
  config: cfg,
};
const md = renderMarkdown(meta, results);
// Only a default run (full or --quick) owns the date's file name; anything narrower is marked partial.
const partial = ['only', 'servers', 'runs', 'duration', 'warmup', 'tasks', 'no-memory'].some(
  (k) => o[k] !== undefined,
);
const stamp =
  started.toISOString().slice(0, 10) + (quick ? '-quick' : '') + (partial ? '-partial' : '');
const dir = here('./results');
mkdirSync(dir, { recursive: true });
// A later run of the same day takes the next free name (…-2, …-3): a saved result is never overwritten.
let name = stamp;
for (let n = 2; existsSync(`${dir}/${name}.md`) || existsSync(`${dir}/${name}.json`); n++)
  name = `${stamp}-${n}`;
writeFileSync(`${dir}/${name}.md`, md);
writeFileSync(`${dir}/${name}.json`, JSON.stringify({ meta, results }, null, 2));
process.stdout.write(md);
log(`written: bench/results/${name}.md and .json`);
