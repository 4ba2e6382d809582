/**
 * The gRPC client transport against peers that misbehave on the wire, each a real node:http2 server
 * on 127.0.0.1 answering what the test scripts: every failure is a typed error that says what was
 * wrong (never a hang or a crash), a slow reader holds the agent back through flow control, and a
 * program that is done with its client can end without closing it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  createServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { GRPC_METHODS, encodeFramed, encodeStatus } from '../src/protocol/grpc/index.js';
import { isA2AClientError, isA2AError, neverReachedAgent } from '../src/client/index.js';
import { GrpcTransport } from '../src/client/grpc/index.js';

const servers: Http2Server[] = [];
const transports: GrpcTransport[] = [];
after(() => {
  for (const t of transports) t.close();
  for (const s of servers) s.close();
});

/** A transport closed after the tests (its idle connection would keep the peer's server open). */
function transport(url: string, options = {}): GrpcTransport {
  const t = new GrpcTransport(url, options);
  transports.push(t);
  return t;
}

/** A gRPC "agent" that answers every call with `answer`; resolves its URL. */
async function peer(
  answer: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void,
): Promise<string> {
  const server = createServer();
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    stream.resume();
    stream.on('end', () => answer(stream, headers));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const GRPC_OK = { ':status': 200, 'content-type': 'application/grpc' };
const task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
};
const getTask = (url: string, options = {}) =>
  transport(url, options).call('GetTask', { id: 't-1' }, {});
const clientError = (code: string, text?: RegExp) => (e: unknown) =>
  isA2AClientError(e) && e.code === code && (!text || text.test(e.message));

test('§10.2 a well-formed answer decodes, and the request carried the service parameters as metadata, and the deadline', async () => {
  let seen: IncomingHttpHeaders = {};
  const url = await peer((stream, headers) => {
    seen = headers;
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(encodeFramed('Task', task));
  });
  const t = transport(url);
  assert.deepEqual(
    await t.call(
      'GetTask',
      { id: 't-1' },
      { headers: { Authorization: 'Bearer x' }, extensions: ['https://e.test/x'], timeoutMs: 5000 },
    ),
    task,
  );
  assert.equal(seen[':path'], GRPC_METHODS.GetTask.path);
  assert.equal(seen['a2a-version'], '1.0');
  assert.equal(seen['a2a-extensions'], 'https://e.test/x');
  assert.equal(seen.authorization, 'Bearer x');
  assert.equal(seen.te, 'trailers');
  assert.match(String(seen['grpc-timeout']), /^\d+m$/);
  t.close();
});

test('§10.6 a status with a percent-encoded message and details is an A2AError of the kind its ErrorInfo names', async () => {
  const info = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'TASK_NOT_FOUND',
    domain: 'a2a-protocol.org',
  };
  const url = await peer((stream) =>
    stream.respond(
      {
        ...GRPC_OK,
        'grpc-status': '5',
        'grpc-message': 'T%C3%A2che t-1 introuvable',
        'grpc-status-details-bin': Buffer.from(
          encodeStatus({ code: 5, message: 'x', details: [info] }),
        ).toString('base64'),
      },
      { endStream: true },
    ),
  );
  await assert.rejects(
    getTask(url),
    (e: unknown) =>
      isA2AError(e) &&
      e.kind === 'TaskNotFound' &&
      e.message === 'Tâche t-1 introuvable' &&
      e.details.some((d) => (d as { reason?: string }).reason === 'TASK_NOT_FOUND'),
  );
});

test('an HTTP error without a gRPC status: 503 is UNAVAILABLE (retried), 404 is UNIMPLEMENTED', async () => {
  const busy = await peer((stream) => stream.respond({ ':status': 503 }, { endStream: true }));
  await assert.rejects(getTask(busy), clientError('UNAVAILABLE', /HTTP 503/));
  const none = await peer((stream) => stream.respond({ ':status': 404 }, { endStream: true }));
  await assert.rejects(getTask(none), (e: unknown) => isA2AError(e) && e.kind === 'MethodNotFound');
});

test('an answer that is not gRPC (HTML with 200) is BAD_RESPONSE naming the content-type', async () => {
  const url = await peer((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'text/html' });
    stream.end('<html>hello</html>');
  });
  await assert.rejects(getTask(url), clientError('BAD_RESPONSE', /content-type text\/html/));
});

test('a message over maxResponseBytes is refused from its prefix, before it is read', async () => {
  const url = await peer((stream) => {
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(encodeFramed('Task', { ...task, metadata: { big: 'x'.repeat(100_000) } }));
  });
  await assert.rejects(
    getTask(url, { maxResponseBytes: 10_000 }),
    clientError('RESPONSE_TOO_LARGE', /over the limit of 10000/),
  );
});

test('broken framing and endings: a cut-off message, no grpc-status, a compressed message, two answers', async () => {
  const framed = encodeFramed('Task', task);
  const cases: Array<[string, (s: ServerHttp2Stream) => void]> = [
    [
      'ended inside a message',
      (s) => {
        s.respond(GRPC_OK, { waitForTrailers: true });
        s.on('wantTrailers', () => s.sendTrailers({ 'grpc-status': '0' }));
        s.end(framed.subarray(0, 9));
      },
    ],
    [
      'without a grpc-status',
      (s) => {
        s.respond(GRPC_OK);
        s.end(framed);
      },
    ],
    [
      'compressed message',
      (s) => {
        const c = Buffer.from(framed);
        c[0] = 1;
        s.respond(GRPC_OK, { waitForTrailers: true });
        s.on('wantTrailers', () => s.sendTrailers({ 'grpc-status': '0' }));
        s.end(c);
      },
    ],
    [
      '2 messages',
      (s) => {
        s.respond(GRPC_OK, { waitForTrailers: true });
        s.on('wantTrailers', () => s.sendTrailers({ 'grpc-status': '0' }));
        s.end(Buffer.concat([framed, framed]));
      },
    ],
  ];
  for (const [text, answer] of cases) {
    const url = await peer(answer);
    await assert.rejects(getTask(url), clientError('BAD_RESPONSE', new RegExp(text)), text);
  }
});

test('a stream the agent refuses (RST_STREAM REFUSED_STREAM) is UNAVAILABLE, one it resets otherwise is NETWORK', async () => {
  const refused = await peer((stream) => stream.close(7));
  await assert.rejects(getTask(refused), clientError('UNAVAILABLE', /refused/));
  const reset = await peer((stream) => stream.close(2));
  await assert.rejects(getTask(reset), clientError('NETWORK', /NGHTTP2_INTERNAL_ERROR/));
});

test('§5.2 nothing listening is NETWORK with ECONNREFUSED: the request certainly never reached an agent', async () => {
  const url = await peer(() => undefined);
  servers.pop()!.close();
  const err = await getTask(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(
    isA2AClientError(err) && err.code === 'NETWORK' && /ECONNREFUSED/.test(err.message),
    String(err),
  );
  assert.equal(neverReachedAgent(err), true);
});

test('the deadline ends a call the agent never answers: TIMEOUT, and the agent sees the reset', async () => {
  let reset: Promise<number> | undefined;
  const url = await peer((stream) => {
    reset = new Promise((r) => stream.on('close', () => r(stream.rstCode)));
  });
  const t = transport(url);
  await assert.rejects(
    t.call('GetTask', { id: 't-1' }, { timeoutMs: 150 }),
    clientError('TIMEOUT', /150 ms/),
  );
  assert.equal(await reset, 8); // NGHTTP2_CANCEL
  t.close();
});

test('metadata that gRPC cannot carry is refused before anything is sent', async () => {
  const t = transport('http://127.0.0.1:9');
  await assert.rejects(
    t.call('GetTask', { id: 't' }, { headers: { 'x-note': 'caf\u00e9' } }),
    clientError('INVALID_ARGUMENT', /printable ASCII/),
  );
  await assert.rejects(
    t.call('GetTask', { id: 't' }, { headers: { 'bad key': 'v' } }),
    clientError('INVALID_ARGUMENT', /"bad key"/),
  );
  t.close();
});

test('a slow reader of a stream holds the agent back through HTTP/2 flow control (no unbounded buffering)', async () => {
  const event = encodeFramed('StreamResponse', {
    statusUpdate: {
      taskId: 't-1',
      contextId: 'c-1',
      status: { state: 'TASK_STATE_WORKING' },
      metadata: { pad: 'p'.repeat(16_000) },
    },
  });
  let blocked: (sent: number) => void;
  const wasBlocked = new Promise<number>((r) => (blocked = r));
  const url = await peer((stream) => {
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    let sent = 0;
    const pump = (): void => {
      // 400 events (~6.4 MB): far more than the client may hold unread.
      while (sent < 400) {
        sent++;
        if (!stream.write(event)) {
          blocked(sent);
          stream.once('drain', pump);
          return;
        }
      }
      stream.end();
    };
    pump();
  });
  const t = transport(url);
  let read = 0;
  for await (const _ of t.stream('SubscribeToTask', { id: 't-1' }, {})) {
    if (read++ === 0) {
      // The agent hits flow control while the first event is still being handled.
      const sent = await Promise.race([
        wasBlocked,
        new Promise<number>((r) => setTimeout(() => r(-1), 5000).unref()),
      ]);
      assert.notEqual(sent, -1, 'the agent was never held back');
      assert.ok(sent < 400, `the agent could send ${sent} events without the reader`);
    }
  }
  assert.equal(read, 400);
  t.close();
});

test('a program that is done with its client ends by itself (the idle connection does not hold the process)', async () => {
  const url = await peer((stream) => {
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(encodeFramed('Task', task));
  });
  const entry = fileURLToPath(new URL('../src/client/grpc/index.ts', import.meta.url));
  const script = `const { GrpcTransport } = await import(${JSON.stringify(entry)}); const t = await new GrpcTransport(${JSON.stringify(url)}).call('GetTask', { id: 't-1' }, {}); console.log(t.id);`;
  const started = Date.now();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 20_000 },
  );
  assert.equal(stdout.trim(), 't-1');
  // Well below the idle timeout (5 minutes) that would otherwise have ended it.
  assert.ok(Date.now() - started < 20_000);
});

test('a connection idle for idleTimeoutMs is closed, and the next call opens a new one', async () => {
  const url = await peer((stream) => {
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(encodeFramed('Task', task));
  });
  const server = servers.at(-1)!;
  let opened = 0;
  const closed: Array<Promise<void>> = [];
  server.on('session', (session) => {
    opened++;
    closed.push(new Promise((r) => session.on('close', () => r())));
  });
  const t = transport(url, { idleTimeoutMs: 100 });
  await t.call('GetTask', { id: 't-1' }, {});
  await Promise.race([
    closed[0],
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the idle connection stayed open')), 5000).unref(),
    ),
  ]);
  assert.deepEqual(await t.call('GetTask', { id: 't-1' }, {}), task);
  assert.equal(opened, 2);
});

test('a large answer arriving in many small DATA frames decodes whole (its pieces are joined once)', async () => {
  const big = { ...task, metadata: { blob: 'z'.repeat(2_000_000) } };
  const url = await peer((stream) => {
    stream.respond(GRPC_OK, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    const bytes = encodeFramed('Task', big);
    // 3-byte pieces at first (the prefix itself split), then 1 KiB ones.
    for (let at = 0; at < bytes.length;) {
      const size = at < 12 ? 3 : 1024;
      stream.write(bytes.subarray(at, at + size));
      at += size;
    }
    stream.end();
  });
  assert.deepEqual(await getTask(url, { maxResponseBytes: 4_000_000 }), big);
});

test('numeric options are checked when the transport is made, naming the option', () => {
  for (const [name, value] of [
    ['idleTimeoutMs', Number.NaN],
    ['idleTimeoutMs', 0],
    ['maxResponseBytes', -1],
    ['maxResponseBytes', 1.5],
  ] as const) {
    assert.throws(
      () => new GrpcTransport('http://127.0.0.1:9', { [name]: value }),
      clientError('INVALID_ARGUMENT', new RegExp(`${name} must be a whole number above 0`)),
    );
  }
});
