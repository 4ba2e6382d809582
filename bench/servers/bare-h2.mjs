/**
 * The node:http2 ceiling for gRPC unary calls: answers SendMessage with fixed bytes (the same echo
 * answer as bare-grpc.mjs) the way our gRPC server answers — headers, one message, `grpc-status` as
 * trailers — with no A2A logic. BARE_H2_MODE=direct submits the trailers through node's internal stream handle, skipping the setImmediate
 * that `sendTrailers` adds (an experiment only: it relies on node internals).
 */
import http2 from 'node:http2';
import { GRPC_METHODS, encodeFramed } from '../../dist/protocol/grpc/index.js';
import { report } from './harness.mjs';

const TASK_ID = '694a9cc2-3a25-41dd-acd1-30eb9d5cacc5';
const CTX_ID = '3ad71e54-dfdf-4ed7-919d-226cc189d7a6';
const TS = '2026-01-01T00:00:00.000Z';
const task = {
  id: TASK_ID,
  contextId: CTX_ID,
  status: { state: 'TASK_STATE_COMPLETED', timestamp: TS },
  history: [
    {
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      taskId: TASK_ID,
      contextId: CTX_ID,
    },
  ],
  artifacts: [
    {
      name: 'echo',
      parts: [{ text: 'hello' }],
      artifactId: 'f17e9905-0228-4ce8-8997-39edb6648319',
    },
  ],
};
const SEND = encodeFramed('SendMessageResponse', { task });
const PATH = GRPC_METHODS.SendMessage.path;
const MODE = process.env.BARE_H2_MODE ?? 'trailers';
const OK = { 'grpc-status': '0' };
// Experiment only: the trailers submitted at once, without node's setImmediate hop.
const OK_LIST = ['grpc-status\u00000\u0000\u0000', 1];
let kHandle;
const handleOf = (s) =>
  s[(kHandle ??= Object.getOwnPropertySymbols(s).find((x) => x.description === 'kHandle'))];

const server = http2.createServer({
  maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
  maxSessionMemory: Number.MAX_SAFE_INTEGER,
});
server.on('connection', (s) => s.setNoDelay(true));
server.on('stream', (stream, headers) => {
  stream.on('error', () => undefined);
  if (headers[':path'] !== PATH) {
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
      { endStream: true },
    );
    return;
  }
  const chunks = [];
  stream.on('data', (c) => chunks.push(c));
  stream.on('end', () => {
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc' },
      { waitForTrailers: true },
    );
    if (MODE === 'direct') stream.once('wantTrailers', () => handleOf(stream).trailers(OK_LIST));
    else stream.once('wantTrailers', () => stream.sendTrailers(OK));
    stream.end(SEND);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  report(`http://127.0.0.1:${port}`, { grpc: `127.0.0.1:${port}` });
});
