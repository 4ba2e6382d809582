#!/usr/bin/env node
/**
 * Many readers of one large task (issue 28: encode once, send to many).
 *   node bench/readers.mjs [--readers N] [--bytes B] [--rounds R] [--dist DIR] [--compare DIR]
 * A task grows an artifact of B bytes (default 3,000,000); then, measured in the server:
 *   attach:  N subscribers (a third each over JSON-RPC SSE, HTTP+JSON SSE, gRPC) open on it; server CPU
 *            per attach until every one has the opening Task;
 *   fan-out: the agent adds a second artifact of B bytes, sent to all N; the longest event-loop stall;
 *   get:     N GetTask calls of the live task (JSON-RPC, HTTP+JSON, gRPC in turn) at once; CPU per call;
 *   getDone: the same once the task is finished (read from the store, in-memory here).
 * The readers read everything. `--compare DIR` runs the build in DIR too (e.g. a copy of dist before a
 * change, kept inside the repository: bench/results/ab/before), alternating, R rounds each.
 */
import { fork } from 'node:child_process';
import { TextDecoder } from 'node:util';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { cliOptions, here, stats } from './lib.mjs';

const { values: o } = cliOptions(
  'node bench/readers.mjs [--readers N] [--bytes B] [--rounds R] [--dist DIR] [--compare DIR]',
  {
    readers: { type: 'string' },
    bytes: { type: 'string' },
    rounds: { type: 'string' },
    dist: { type: 'string' },
    compare: { type: 'string' },
  },
  { numbers: ['readers', 'bytes', 'rounds'] },
);
const N = Math.max(3, Math.min(120, o.readers ?? 30));
const BYTES = Math.max(10_000, Math.min(12_000_000, o.bytes ?? 3_000_000));
const ROUNDS = Math.max(1, Math.min(10, o.rounds ?? 3));
const builds = [
  ...(o.compare ? [['before', resolve(o.compare)]] : []),
  ['after', resolve(o.dist ?? here('../dist'))],
];
const LIMIT_MS = 120_000;

const require = createRequire(import.meta.url);
const grpcJs = require('@grpc/grpc-js');
const { GRPC_METHODS, encodeMessage } = await import(
  pathToFileURL(here('../dist/protocol/grpc/index.js')).href
);

/** One message from the child that satisfies `pred`, within the bound. */
function reply(child, pred, what) {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`no ${what} from the server`)), LIMIT_MS);
    const on = (m) => {
      if (!pred(m)) return;
      clearTimeout(t);
      child.off('message', on);
      res(m);
    };
    child.on('message', on);
  });
}
const ask = (child, cmd, key) => {
  const p = reply(child, (m) => key in m, cmd);
  child.send(cmd);
  return p;
};

const signal = () => AbortSignal.timeout(LIMIT_MS);
const rpc = (origin, id, method, params) =>
  fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: signal(),
  });

/** An SSE reader that counts complete events; `events(n)` resolves once n have come. */
function sse(res) {
  let tail = '';
  let count = 0;
  const waiters = [];
  const done = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of res.body) {
      const text = tail + dec.decode(chunk, { stream: true });
      const frames = text.split('\n\n');
      tail = frames.pop();
      count += frames.filter((f) => f.includes('data:')).length;
      for (const w of waiters.splice(0)) (count >= w.n ? w.resolve : () => waiters.push(w))();
    }
  })().catch(() => undefined);
  return {
    events: (n) => new Promise((r) => (count >= n ? r() : waiters.push({ n, resolve: r }))),
    done,
  };
}

function grpcSub(client, id) {
  const m = GRPC_METHODS.SubscribeToTask;
  const md = new grpcJs.Metadata();
  md.set('a2a-version', '1.0');
  const call = client.makeServerStreamRequest(
    m.path,
    (b) => b,
    (b) => b,
    encodeMessage(m.request, { id }),
    md,
    { deadline: Date.now() + LIMIT_MS },
  );
  let count = 0;
  const waiters = [];
  call.on('data', () => {
    count++;
    for (const w of waiters.splice(0)) (count >= w.n ? w.resolve : () => waiters.push(w))();
  });
  call.on('error', () => undefined);
  const done = new Promise((r) => call.on('status', r));
  return {
    events: (n) => new Promise((r) => (count >= n ? r() : waiters.push({ n, resolve: r }))),
    done,
  };
}

function grpcGet(client, id) {
  const m = GRPC_METHODS.GetTask;
  const md = new grpcJs.Metadata();
  md.set('a2a-version', '1.0');
  return new Promise((res, rej) =>
    client.makeUnaryRequest(
      m.path,
      (b) => b,
      (b) => b,
      encodeMessage(m.request, { id }),
      md,
      { deadline: Date.now() + LIMIT_MS },
      (err, v) => (err ? rej(err) : res(v.length)),
    ),
  );
}

async function once(dist) {
  const child = fork(here('servers/readers-server.mjs'), [], {
    env: { ...process.env, BENCH_OURS_DIST: dist, ARTIFACT_BYTES: String(BYTES) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { origin, grpc } = await reply(child, (m) => 'origin' in m, 'start');
    const client = new grpcJs.Client(
      grpc.replace(/^https?:\/\//, ''),
      grpcJs.credentials.createInsecure(),
      { 'grpc.max_receive_message_length': -1 },
    );
    const started = await (
      await rpc(origin, 0, 'SendMessage', {
        message: { messageId: `m${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'big' }] },
        configuration: { returnImmediately: true },
      })
    ).json();
    const id = started.result.task.id;
    for (let i = 0; i < 600; i++) {
      const t = await (await rpc(origin, 1, 'GetTask', { id, historyLength: 0 })).json();
      if (t.result?.artifacts?.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 200));

    await ask(child, 'reset', 'reset');
    const subs = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        if (i % 3 === 0) return sse(await rpc(origin, 100 + i, 'SubscribeToTask', { id }));
        if (i % 3 === 1)
          return sse(
            await fetch(`${origin}/a2a/rest/tasks/${id}:subscribe`, {
              headers: { 'a2a-version': '1.0' },
              signal: signal(),
            }),
          );
        return grpcSub(client, id);
      }),
    );
    await Promise.all(subs.map((s) => s.events(1)));
    const attach = await ask(child, 'stats', 'cpuMs');

    await ask(child, 'reset', 'reset');
    await ask(child, 'release', 'released');
    await Promise.all(subs.map((s) => s.events(2)));
    const fanout = await ask(child, 'stats', 'cpuMs');

    const getAll = () =>
      Promise.all(
        Array.from({ length: N }, async (_, i) => {
          if (i % 3 === 0) return (await rpc(origin, 200 + i, 'GetTask', { id })).arrayBuffer();
          if (i % 3 === 1)
            return (
              await fetch(`${origin}/a2a/rest/tasks/${id}`, {
                headers: { 'a2a-version': '1.0' },
                signal: signal(),
              })
            ).arrayBuffer();
          return grpcGet(client, id);
        }),
      );
    await ask(child, 'reset', 'reset');
    await getAll();
    const get = await ask(child, 'stats', 'cpuMs');

    await ask(child, 'release', 'released');
    await Promise.all(subs.map((s) => s.done));
    await ask(child, 'reset', 'reset');
    await getAll();
    const getDone = await ask(child, 'stats', 'cpuMs');
    client.close();
    return {
      attachCpuMs: attach.cpuMs / N,
      attachStallMs: attach.maxStallMs,
      fanoutStallMs: fanout.maxStallMs,
      fanoutCpuMs: fanout.cpuMs,
      getCpuMs: get.cpuMs / N,
      getStallMs: get.maxStallMs,
      getDoneCpuMs: getDone.cpuMs / N,
      getDoneStallMs: getDone.maxStallMs,
    };
  } finally {
    child.send('stop');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

const results = Object.fromEntries(builds.map(([label]) => [label, []]));
for (let r = 0; r < ROUNDS; r++)
  for (const [label, dist] of builds) {
    const got = await once(dist);
    results[label].push(got);
    console.log(
      `round ${r + 1} ${label}: ` +
        Object.entries(got)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join('  '),
    );
  }
console.log(
  `\n${N} readers of a task of ${(BYTES / 1e6).toFixed(1)} MB, medians over ${ROUNDS} rounds:`,
);
const keys = Object.keys(results[builds[0][0]][0]);
console.log(`| measure | ${builds.map(([l]) => l).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---:').join('|')}|`);
for (const k of keys)
  console.log(
    `| ${k} | ${builds.map(([l]) => stats(results[l].map((x) => x[k])).median.toFixed(1)).join(' | ')} |`,
  );
