/**
 * `grpcHandlers` and `A2A_SERVICE_DEFINITION` stay for applications that mount the A2AService on a
 * grpc-js Server of their own (next to their other services), now that `serveGrpc` answers on
 * node:http2 itself: a unary call, a stream and an error with details over such a server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { A2AError, silentLogger } from '../src/server/index.js';
import { A2A_SERVICE_DEFINITION, grpcHandlers } from '../src/server/grpc-js/index.js';
import { message, startAgent } from './rest-fixture.js';
import { closeRawClients, grpcCall } from './grpc-fixture.js';

let a: Awaited<ReturnType<typeof startAgent>>;
let server: Server;
let target: string;

before(async () => {
  a = await startAgent('full');
  server = new Server();
  server.addService(
    A2A_SERVICE_DEFINITION,
    grpcHandlers(a.server, { auth: () => ({}), logger: silentLogger }),
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  target = `127.0.0.1:${port}`;
});
after(async () => {
  closeRawClients();
  await new Promise<void>((r) => server.tryShutdown(() => r()));
  await a.close();
});

test('a grpc-js Server with the A2AService: unary, streaming, and errors with details', async () => {
  const sent = await grpcCall(target, 'SendMessage', { message: message('echo on grpc-js') });
  assert.equal(sent.result.task.status.state, 'TASK_STATE_COMPLETED');
  const streamed = await grpcCall(target, 'SendStreamingMessage', {
    message: message('echo streamed'),
  });
  assert.equal(streamed.status, 0);
  assert.ok((streamed.events as any[]).some((e) => e.artifactUpdate));
  const missing = await grpcCall(target, 'GetTask', { id: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.error?.kind, 'TaskNotFound');
});

test('grpcHandlers(agent) without options authenticates as the agent does over HTTP', async () => {
  const guarded = await startAgent('full', {
    authenticate: (req) => {
      if (req.headers.authorization !== 'Bearer good')
        throw new A2AError('Unauthenticated', 'send Bearer good');
      return { id: 'alice' };
    },
  });
  const own = new Server();
  own.addService(A2A_SERVICE_DEFINITION, grpcHandlers(guarded.server));
  const port = await new Promise<number>((resolve, reject) =>
    own.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  try {
    const at = `127.0.0.1:${port}`;
    const refused = await grpcCall(at, 'SendMessage', { message: message('no credentials') });
    assert.equal(refused.error?.kind, 'Unauthenticated');
    const sent = await grpcCall(
      at,
      'SendMessage',
      { message: message('with credentials') },
      { headers: { authorization: 'Bearer good' } },
    );
    assert.equal(sent.result.task.status.state, 'TASK_STATE_COMPLETED');
  } finally {
    await new Promise<void>((r) => own.tryShutdown(() => r()));
    await guarded.close();
  }
});
