#!/usr/bin/env node
/**
 * SendMessage's own work without a network, in one process: the request decoded, the dispatcher and
 * task manager with the echo agent and the in-memory store, the answer encoded — what a server adds
 * on top of its transport. Prints µs per call for each part; with --alloc, the bytes allocated per call
 * by function (V8's sampling heap profiler, collected objects included), the first thing to look at
 * when the collector shows up in a profile.
 *   node bench/hot-path.mjs [--binding grpc|jsonrpc] [--calls N] [--alloc] [--top N]   (after `npm run build`)
 */
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { cliOptions } from './lib.mjs';
import { echo, echoCard } from './servers/harness.mjs';

const dist = new URL('../dist/', import.meta.url).href;
const { OperationDispatcher } = await import(`${dist}server/dispatch/dispatcher.js`);
const { OPERATIONS } = await import(`${dist}protocol/index.js`);
const { resultJson } = await import(`${dist}server/tasks/json.js`);

const { values: o } = cliOptions(
  'node bench/hot-path.mjs [--binding grpc|jsonrpc] [--calls N] [--alloc] [--top N]',
  {
    binding: { type: 'string' },
    calls: { type: 'string' },
    alloc: { type: 'boolean' },
    top: { type: 'string' },
  },
  { numbers: ['calls', 'top'] },
);
const binding = o.binding ?? 'grpc';
const calls = Math.max(1000, Math.min(1_000_000, o.calls ?? 100_000));
if (binding !== 'grpc' && binding !== 'jsonrpc') {
  console.error('--binding is grpc or jsonrpc');
  process.exit(2);
}

const dispatcher = new OperationDispatcher({
  card: echoCard('http://127.0.0.1:1'),
  executor: echo,
});
const op = OPERATIONS.find((x) => x.name === 'SendMessage');
const context = {
  binding: binding === 'grpc' ? 'GRPC' : 'JSONRPC',
  version: '1.0',
  requestedExtensions: [],
  activatedExtensions: new Set(),
  header: () => undefined,
};
const message = { messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] };

let decode;
let encode;
if (binding === 'grpc') {
  const { decodeMessage, encodeFramed, encodeMessage } = await import(
    `${dist}protocol/grpc/index.js`
  );
  const bytes = encodeMessage('SendMessageRequest', { message });
  decode = () => decodeMessage('SendMessageRequest', bytes);
  encode = (result) => encodeFramed('SendMessageResponse', result);
} else {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message },
  });
  decode = () => JSON.parse(body).params;
  encode = (result) =>
    Buffer.from(`{"jsonrpc":"2.0","id":1,"result":${resultJson('SendMessage', result)}}`);
}

const spent = { decode: 0, dispatch: 0, encode: 0 };
async function one(timed) {
  const t0 = performance.now();
  const params = decode();
  const t1 = performance.now();
  const result = await dispatcher.call(op, params, context);
  const t2 = performance.now();
  encode(result);
  if (timed) {
    spent.decode += t1 - t0;
    spent.dispatch += t2 - t1;
    spent.encode += performance.now() - t2;
  }
}

for (let i = 0; i < 20_000; i++) await one(false);

if (o.alloc) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < calls; i++) await one(false);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const byFunction = new Map();
  let total = 0;
  const walk = (node) => {
    total += node.selfSize;
    const f = node.callFrame;
    const where = `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/')}:${f.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c);
  };
  walk(profile.head);
  console.log(
    `${binding}: ~${Math.round(total / calls)} bytes allocated per SendMessage; by function:`,
  );
  for (const [where, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, o.top ?? 25)) {
    if (bytes / calls >= 1)
      console.log(`${String(Math.round(bytes / calls)).padStart(7)}  ${where}`);
  }
} else {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await one(true);
  const us = (ms) => ((ms * 1000) / calls).toFixed(2);
  console.log(
    `${binding}: ${us(performance.now() - t0)} µs per SendMessage — decode ${us(spent.decode)}, dispatch ${us(spent.dispatch)}, encode ${us(spent.encode)} (${calls} calls after 20,000 to warm up)`,
  );
}
