/**
 * The gRPC ceiling: a plain @grpc/grpc-js server answering SendMessage and SendStreamingMessage with
 * protobuf bytes shaped like an A2A echo answer, made once at start; no A2A logic. What remains is the
 * cost of gRPC itself (HTTP/2, framing, grpc-js) on this machine.
 */
import grpc from '@grpc/grpc-js';
import { GRPC_METHODS, encodeMessage } from '../../dist/protocol/grpc/index.js';

const TASK_ID = '694a9cc2-3a25-41dd-acd1-30eb9d5cacc5';
const CTX_ID = '3ad71e54-dfdf-4ed7-919d-226cc189d7a6';
const TS = '2026-01-01T00:00:00.000Z';
const task = (state, withArtifact) => ({
  id: TASK_ID,
  contextId: CTX_ID,
  status: { state, timestamp: TS },
  history: [
    {
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      taskId: TASK_ID,
      contextId: CTX_ID,
    },
  ],
  ...(withArtifact
    ? {
        artifacts: [
          {
            name: 'echo',
            parts: [{ text: 'hello' }],
            artifactId: 'f17e9905-0228-4ce8-8997-39edb6648319',
          },
        ],
      }
    : {}),
});
const event = (e) => Buffer.from(encodeMessage('StreamResponse', e));
const status = (state) =>
  event({ statusUpdate: { taskId: TASK_ID, contextId: CTX_ID, status: { state, timestamp: TS } } });
const SEND = Buffer.from(
  encodeMessage('SendMessageResponse', { task: task('TASK_STATE_COMPLETED', true) }),
);
const FIRST = event({ task: task('TASK_STATE_SUBMITTED', false) });
const WORKING = status('TASK_STATE_WORKING');
const ARTIFACT = event({
  artifactUpdate: {
    taskId: TASK_ID,
    contextId: CTX_ID,
    artifact: { name: 'echo', parts: [{ text: 'stream' }], artifactId: 'a1' },
  },
});
const DONE = status('TASK_STATE_COMPLETED');
const STREAM_MARK = Buffer.from('stream:');

const pass = (b) => b;
const method = (m) => ({
  path: m.path,
  requestStream: false,
  responseStream: m.streaming,
  requestSerialize: pass,
  requestDeserialize: pass,
  responseSerialize: pass,
  responseDeserialize: pass,
});

/** Start the bare gRPC server on 127.0.0.1:0; resolves its target. */
export async function startBareGrpc() {
  const server = new grpc.Server();
  server.addService(
    {
      SendMessage: method(GRPC_METHODS.SendMessage),
      SendStreamingMessage: method(GRPC_METHODS.SendStreamingMessage),
    },
    {
      SendMessage: (_call, cb) => cb(null, SEND),
      SendStreamingMessage: (call) => {
        // The one concession to content, as in the HTTP ceiling: `stream:K` picks how many updates.
        const at = call.request.indexOf(STREAM_MARK);
        const k =
          at >= 0
            ? Number(
                /^\d+/.exec(call.request.subarray(at + 7, at + 14).toString('latin1'))?.[0] ?? 0,
              )
            : 0;
        call.write(FIRST);
        for (let i = 0; i <= k; i++) call.write(WORKING);
        call.write(ARTIFACT);
        call.write(DONE);
        call.end();
      },
    },
  );
  const port = await new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return `127.0.0.1:${port}`;
}
