#!/usr/bin/env node
/**
 * Task stores under load: JSON-RPC SendMessage and GetTask with the echo agent on our memory, SQLite and
 * PostgreSQL stores, and on @a2a-js/sdk 1.3's DatabaseTaskStore (kysely + pg) on the same database.
 * Reports req/s, server CPU µs per request, PostgreSQL's CPU µs per request (utime+stime of the cluster's
 * processes from /proc, before/after) and statements sent to PostgreSQL per request.
 *
 *   node bench/store-pg.mjs [--seconds N] [--connections N] [--url postgres://…] [--async-commit] [--out FILE]
 *
 * Without --url it runs a throwaway PostgreSQL of its own (initdb in a temp dir, port 55433, as the
 * postgres user when run as root), so only the bench's own database work is counted. With --url every
 * process named postgres on the machine is counted (other users of that server add noise).
 */
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  chmodSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliOptions, here, runLoad, startServer, waitQuiet } from './lib.mjs';

const { values: o } = cliOptions(
  'node bench/store-pg.mjs [--seconds N] [--connections N] [--url postgres://…] [--async-commit] [--out FILE]',
  {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    url: { type: 'string' },
    out: { type: 'string' },
    'async-commit': { type: 'boolean' },
  },
  { numbers: ['seconds', 'connections'] },
);
const seconds = Math.min(30, Math.max(1, o.seconds ?? 4));
const connections = Math.min(256, Math.max(1, o.connections ?? 32));
const H = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const rpc = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const SEND = rpc('SendMessage', {
  message: { messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
});

/** Run a command as the postgres user when we are root (PostgreSQL refuses to run as root). */
function asPostgres(cmd, args) {
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args, {
    stdio: 'ignore',
    timeout: 60_000,
  });
}

let cluster;
let url = o.url;
if (!url) {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const data = join(dir, 'data');
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  asPostgres('pg_ctl', [
    '-D',
    data,
    '-w',
    '-t',
    '30',
    '-l',
    join(dir, 'log'),
    '-o',
    `-p 55433 -k ${dir} -c listen_addresses=127.0.0.1${o['async-commit'] ? ' -c synchronous_commit=off' : ''}`,
    'start',
  ]);
  cluster = { dir, data };
  url = 'postgres://postgres@127.0.0.1:55433/postgres';
}
const stopCluster = () => {
  if (!cluster) return;
  try {
    asPostgres('pg_ctl', ['-D', cluster.data, '-w', '-m', 'fast', 'stop']);
  } catch {
    // already stopped
  }
  rmSync(cluster.dir, { recursive: true, force: true });
  cluster = undefined;
};
process.on('exit', stopCluster);
process.on('SIGINT', () => process.exit(130));

/** CPU (µs) used so far by the database: the throwaway cluster's postmaster and its children, else every `postgres`. */
function pgCpuUs() {
  const tick = 1e6 / 100; // USER_HZ is 100 on Linux
  const root = cluster
    ? Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0])
    : undefined;
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(f[1]);
    const ours = root !== undefined ? Number(pid) === root || ppid === root : comm === 'postgres';
    if (ours) sum += (Number(f[11]) + Number(f[12])) * tick;
  }
  return sum;
}

// The SDK's table, made by its own migration tool (its store does not migrate on first use).
execFileSync(
  process.execPath,
  [
    here('../node_modules/@a2a-js/sdk/dist/cli/a2a_db.js'),
    'upgrade',
    '--url',
    url,
    '--store',
    'tasks',
  ],
  { stdio: 'ignore', timeout: 60_000 },
);

const sqliteDir = mkdtempSync(join(tmpdir(), 'a2a-bench-sqlite-'));
process.on('exit', () => rmSync(sqliteDir, { recursive: true, force: true }));
const STORES = [
  { id: 'memory', impl: 'ours', store: 'memory', pg: false },
  { id: 'sqlite', impl: 'ours', store: `sqlite:${join(sqliteDir, 'tasks.db')}`, pg: false },
  { id: 'postgres', impl: 'ours', store: url, pg: true },
  { id: 'sdk-postgres', impl: 'sdk', store: url, pg: true },
];

const rows = [];
for (const s of STORES) {
  const srv = await startServer('store-echo', [], { BENCH_IMPL: s.impl, BENCH_STORE: s.store });
  try {
    const endpoint = `${srv.origin}/a2a/jsonrpc`;
    const first = await (
      await fetch(endpoint, {
        method: 'POST',
        headers: H,
        body: SEND,
        signal: AbortSignal.timeout(10_000),
      })
    ).json();
    const id = first.result?.task?.id;
    if (!id)
      throw new Error(`${s.id}: SendMessage answered ${JSON.stringify(first).slice(0, 300)}`);
    for (const [op, body, verify] of [
      ['SendMessage', SEND, 'send-jsonrpc'],
      ['GetTask', rpc('GetTask', { id }), 'get-jsonrpc'],
    ]) {
      const cfg = {
        url: endpoint,
        method: 'POST',
        headers: H,
        body,
        connections,
        verify,
        expectStatus: 200,
      };
      await runLoad('load.mjs', { ...cfg, duration: 1 }, 30); // warm-up (JIT, pool connections, statement caches)
      // The warm-up's last requests may still be in the server: let them finish before counting.
      for (let last = -1, i = 0; i < 50; i++) {
        const q = (await srv.ask('queries')).queries;
        if (q === last) break;
        last = q;
        await new Promise((r) => setTimeout(r, 200));
      }
      await waitQuiet();
      const before = {
        cpu: await srv.cpu(),
        pg: s.pg ? pgCpuUs() : 0,
        q: (await srv.ask('queries')).queries,
      };
      const r = await runLoad('load.mjs', { ...cfg, duration: seconds }, seconds + 30);
      const after = {
        cpu: await srv.cpu(),
        pg: s.pg ? pgCpuUs() : 0,
        q: (await srv.ask('queries')).queries,
      };
      const n = Math.max(1, r.responses);
      const row = {
        store: s.id,
        op,
        rps: Math.round(r.throughputRps),
        errors: r.errors,
        serverCpuUs: Math.round((after.cpu - before.cpu) / n),
        pgCpuUs: s.pg ? Math.round((after.pg - before.pg) / n) : null,
        queries: s.pg ? +((after.q - before.q) / n).toFixed(2) : null,
        p50: r.latency.p50,
        p99: r.latency.p99,
      };
      rows.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
    }
  } finally {
    await srv.stop();
  }
}
stopCluster();

const fmt = (v, suffix = '') => (v === null || v === undefined ? '—' : `${v}${suffix}`);
const lines = [
  `# Task stores under load (${new Date().toISOString().slice(0, 10)})`,
  '',
  `Echo agent, JSON-RPC, ${connections} connections, ${seconds} s per row after a 1 s warm-up; server pinned to core 0, load to core 1.`,
  `PostgreSQL 15: ${o.url ? 'the given server (every postgres process counted)' : 'a throwaway cluster of the bench (its processes only)'}, synchronous_commit=${o['async-commit'] ? 'off' : 'on'}; pools of 10 connections on both sides.`,
  'Statements per request: every pg Client#query of the server process (SQLite and memory make none).',
  '',
  '| store | operation | req/s | server CPU µs/req | PostgreSQL CPU µs/req | statements/req | p50 ms | p99 ms | errors |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.store} | ${r.op} | ${r.rps} | ${r.serverCpuUs} | ${fmt(r.pgCpuUs)} | ${fmt(r.queries)} | ${r.p50} | ${r.p99} | ${r.errors} |`,
  ),
];
const ours = rows.find((r) => r.store === 'postgres' && r.op === 'SendMessage');
const sdk = rows.find((r) => r.store === 'sdk-postgres' && r.op === 'SendMessage');
if (ours && sdk)
  lines.push(
    '',
    `PostgreSQL SendMessage: ours ${ours.rps} req/s vs the SDK's DatabaseTaskStore ${sdk.rps} req/s = ${(ours.rps / Math.max(1, sdk.rps)).toFixed(2)}× (target ≥ 3×); ${ours.queries} statements per SendMessage (target ≤ 2).`,
  );
const out = o.out ?? here(`./results/${new Date().toISOString().slice(0, 10)}-store-pg.md`);
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\nwritten to ${out}\n`);
