// Hot loop of the gRPC SendMessage path without the network: decode, dispatch, encode.
import { OperationDispatcher } from '../../dist/server/dispatch/dispatcher.js';
import { OPERATIONS } from '../../dist/protocol/index.js';
import { decodeMessage, encodeMessage, encodeFramed } from '../../dist/protocol/grpc/index.js';
import { echo, echoCard } from '../servers/harness.mjs';

const d = new OperationDispatcher({ card: echoCard('http://127.0.0.1:1'), executor: echo });
const op = OPERATIONS.find((o) => o.name === 'SendMessage');
const req = Buffer.from(encodeMessage('SendMessageRequest', { message: { messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } }));
const cc = { binding: 'GRPC', version: '1.0', requestedExtensions: [], activatedExtensions: new Set(), header: () => undefined, signal: new AbortController().signal };
const parts = { decode: 0, call: 0, encode: 0 };
async function one(t) {
  let a = performance.now();
  const params = decodeMessage('SendMessageRequest', req);
  let b = performance.now();
  const res = await d.call(op, params, cc);
  let c = performance.now();
  const out = encodeFramed('SendMessageResponse', res);
  let e = performance.now();
  if (t) { parts.decode += b - a; parts.call += c - b; parts.encode += e - c; }
  return out;
}
const N = Number(process.argv[2] ?? 100000);
for (let i = 0; i < 20000; i++) await one(false);
const t0 = performance.now();
for (let i = 0; i < N; i++) await one(true);
const dt = (performance.now() - t0) * 1000 / N;
console.log(`total ${dt.toFixed(2)} µs/call; decode ${(parts.decode*1000/N).toFixed(2)} call ${(parts.call*1000/N).toFixed(2)} encode ${(parts.encode*1000/N).toFixed(2)}`);
