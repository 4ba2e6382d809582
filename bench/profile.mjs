#!/usr/bin/env node
/**
 * CPU profile of a server under one scenario (default: JSON-RPC SendMessage at 32 connections):
 *   node bench/profile.mjs [--duration S] [--server ours|sdk|bare] [--scenario id] [--top N]
 * Starts the server with --cpu-prof, drives it from the pinned load process, stops it, and prints
 * self time per function and per file. The .cpuprofile is kept in bench/results/prof/ (not committed).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS, cliOptions, here, runLoad, startServer, waitQuiet } from './lib.mjs';
import { SCENARIOS } from './scenarios.mjs';

const { values: o } = cliOptions(
  'node bench/profile.mjs [--duration S] [--server ours|sdk|bare] [--scenario id] [--top N]',
  {
    duration: { type: 'string' },
    server: { type: 'string' },
    scenario: { type: 'string' },
    top: { type: 'string' },
  },
  { numbers: ['duration', 'top'] },
);
const duration = Math.min(60, o.duration ?? 8);
const server = o.server ?? 'ours';
const top = o.top ?? 30;
const sc = SCENARIOS.find((x) => x.id === (o.scenario ?? 'rpc-send-c32'));
if (!sc || !(SERVERS.includes(server) || sc.extraServers?.includes(server))) {
  console.error(
    `unknown scenario or server; scenarios are ${SCENARIOS.map((x) => x.id).join(', ')}, servers ${SERVERS.join(', ')}`,
  );
  process.exit(2);
}
const dir = here(`./results/prof/${server}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

await waitQuiet();
const srv = await startServer(
  server,
  ['--cpu-prof', '--cpu-prof-dir', dir],
  sc.transport === 'grpc' ? { BENCH_GRPC: '1' } : {},
);
let load;
try {
  const cfg = await sc.prepare(srv);
  if (!cfg) throw new Error(`${sc.id} is n/a for ${server}`);
  load = await runLoad(
    sc.transport === 'grpc'
      ? 'grpc-load.mjs'
      : sc.kind === 'stream'
        ? 'stream-load.mjs'
        : 'load.mjs',
    { ...cfg, duration, warmup: 1 },
    duration + 45,
  );
} finally {
  await srv.stop();
}
const rate =
  sc.kind === 'stream'
    ? `${Math.round(load.eventsPerS)} events/s`
    : `${Math.round(load.throughputRps)} req/s, p99 ${load.latency.p99} ms`;
console.log(`${server}, ${sc.id}: ${rate}, errors ${load.errors} (under the profiler)`);

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
const prof = JSON.parse(readFileSync(join(dir, file), 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const perFile = new Map();
let total = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const n = byId.get(prof.samples[i]);
  const dt = prof.timeDeltas[i] ?? 0;
  total += dt;
  const cf = n.callFrame;
  const url = cf.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/work\/main\//, '')
    .replace(/^.*node_modules\//, 'node_modules/');
  const key = `${cf.functionName || '(anonymous)'}  ${url ? `${url}:${cf.lineNumber + 1}` : ''}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const group = url
    ? url.startsWith('node:')
      ? url
      : url
          .split('/')
          .slice(0, url.startsWith('node_modules') ? 3 : 3)
          .join('/')
    : cf.functionName;
  perFile.set(group, (perFile.get(group) ?? 0) + dt);
}
const show = (m, n) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, v]) =>
        `${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`,
    )
    .join('\n');
console.log(
  `\nself time, top ${top} functions (total ${(total / 1000).toFixed(0)} ms sampled):\n${show(self, top)}`,
);
console.log(`\nself time by file / group:\n${show(perFile, 25)}`);
console.log(`\nprofile: ${join(dir, file)}`);
