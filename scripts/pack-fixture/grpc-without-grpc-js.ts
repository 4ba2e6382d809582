/**
 * Without @grpc/grpc-js or protobufjs installed: `a2a-kit/server/grpc` type-checks (its .d.ts names no grpc-js), imports,
 * and `serveGrpc` answers a unary call over node:http2 — a task, then a missing one as NOT_FOUND.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { PROTOCOL_VERSION, type AgentCard } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { GRPC_METHODS, decodeMessage, encodeMessage, serveGrpc, type GrpcMethod } from 'a2a-kit/server/grpc';

for (const dep of ['@grpc/grpc-js', 'protobufjs']) assert.throws(() => import.meta.resolve(dep), `this check needs a project without ${dep}`);

const shout: AgentExecutor = (ctx, task) => {
  task.addArtifact({ name: 'loud', parts: [{ text: ctx.text.toUpperCase() }] });
  task.complete();
};
const card = (origin: string): AgentCard => ({
  name: 'shout', description: 'Repeats your text, louder', version: '1.0.0',
  supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: PROTOCOL_VERSION }],
  capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'shout', name: 'Shout', description: 'Upper-cases text', tags: ['demo'] }],
});

const agent = createAgentServer({ executor: shout, card });
await agent.listen(0, '127.0.0.1');
const grpc = await serveGrpc(agent);
const session = connect(grpc.url);

/** One unary call as raw gRPC over HTTP/2: its status and, when OK, the decoded answer. */
function call(method: GrpcMethod, request: object): Promise<{ status: string; answer?: Record<string, unknown> }> {
  const bytes = encodeMessage(method.request, request);
  const body = Buffer.alloc(5 + bytes.length);
  body.writeUInt32BE(bytes.length, 1);
  body.set(bytes, 5);
  const stream = session.request({ ':method': 'POST', ':path': method.path, 'content-type': 'application/grpc', te: 'trailers', 'a2a-version': '1.0' });
  stream.setTimeout(10_000, () => stream.close());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = '';
    stream.on('response', (headers) => (status = String(headers['grpc-status'] ?? status)));
    stream.on('trailers', (trailers) => (status = String(trailers['grpc-status'] ?? status)));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('close', () => {
      const all = Buffer.concat(chunks);
      resolve(status === '0' && all.length >= 5 ? { status, answer: decodeMessage(method.response, all.subarray(5, 5 + all.readUInt32BE(1))) } : { status });
    });
    stream.end(body);
  });
}

try {
  const sent = await call(GRPC_METHODS.SendMessage, { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'grpc' }] } });
  assert.equal(sent.status, '0');
  assert.equal((sent.answer?.task as { status: { state: string } }).status.state, 'TASK_STATE_COMPLETED');
  const missing = await call(GRPC_METHODS.GetTask, { id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.status, '5', 'a missing task is NOT_FOUND');
  console.log('grpc-without-grpc-js: ok (serveGrpc answered over node:http2; @grpc/grpc-js is not installed)');
} finally {
  session.close();
  await grpc.close(1000);
  await agent.close();
}
