/**
 * Issue 28, unread streams: 40 SubscribeToTask streams of a 15 MB task that never read took the RSS
 * from 477 to 1,392 MB. Here a real server runs a task of 12 MiB of artifacts while raw subscribers
 * that never read hang on it — HTTP/1.1 sockets that send the request and stop reading (HTTP+JSON
 * and JSON-RPC), and HTTP/2 gRPC streams with a tiny flow-control window — next to one fast reader.
 * What the server leaves unsent stays within each subscriber's bound (the send buffers' own
 * counters say so), every slow reader is dropped with a clear end (a SLOW_READER error event; gRPC
 * RESOURCE_EXHAUSTED), a reader that never drains loses its connection, and the fast reader gets
 * every event. The same holds for the grpc-js handlers and for a fetch host (a Web ReadableStream
 * nobody reads). The grace periods are the real ones (10 s), so this file takes about 45 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as connectTcp, type Socket } from 'node:net';
import {
  connect as connectH2,
  constants as h2,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
} from 'node:http2';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';
import { A2AError, SLOW_READER_REASON } from '../src/index.js';
import {
  GRPC_CODES,
  GRPC_METHODS,
  a2aErrorOfStatus,
  encodeMessage,
} from '../src/protocol/grpc/index.js';
import { A2AClient } from '../src/client/index.js';
import { statusFailure } from '../src/client/grpc/errors.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { streamBufferStats } from '../src/server/kernel/stream-buffer.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';
import { WEB, webRequest } from './fetch-fixture.js';
import { bindingsCard } from './core-fixture.js';

const BOUND_MS = 60_000;
const MAX = 512 * 1024;
const PART = 256 * 1024;
const PARTS = 48; // 12 MiB of artifacts
/** What one subscriber may leave unsent: the bound, or one event past an empty buffer. */
const PER_SUBSCRIBER = MAX + PART + 16 * 1024;

const card = (origin: string, grpcUrl?: string): AgentCard =>
  bindingsCard('slow-subscribers', 'a task of many large artifacts', origin, grpcUrl);

let release: () => void = () => undefined;
const released = new Promise<void>((r) => (release = r));

async function start(): Promise<{ server: AgentServer; origin: string; grpc: string }> {
  const server = createAgentServer({
    card: (o, g) => card(o, g?.url),
    maxStreamBufferBytes: MAX,
    sse: { keepAliveMs: 0 },
    grpc: { port: 0 },
    executor: async (_ctx, task) => {
      task.working('waiting for the subscribers');
      await Promise.race([released, new Promise((r) => setTimeout(r, BOUND_MS).unref())]);
      const text = 'x'.repeat(PART);
      // Paced, so that a reader that keeps up drains each event before the next.
      for (let i = 0; i < PARTS; i++) {
        task.addArtifact({ name: `part-${i}`, parts: [{ text }] });
        await new Promise((r) => setTimeout(r, 15));
      }
      task.complete('all parts sent');
    },
  });
  const origin = await server.listen(0);
  return { server, origin, grpc: server.grpc!.target };
}

/** An HTTP/1.1 subscriber on a raw socket: it sends the request, then reads nothing until told. */
class RawSubscriber {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  #chunks: Buffer[] = [];

  constructor(port: number, path: string, body: string) {
    this.socket = connectTcp(port, '127.0.0.1');
    this.socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: text/event-stream\r\nA2A-Version: 1.0\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    this.socket.pause();
    this.socket.on('data', (c: Buffer) => this.#chunks.push(c));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((r) => this.socket.once('close', () => r()));
  }

  /** Start reading: resolves with everything the server sent once it ended the response. */
  async readToEnd(): Promise<string> {
    const END = '\r\n0\r\n\r\n'; // the zero-length chunk that ends a chunked response
    const ended = () => this.#chunks.at(-1)?.toString('latin1').endsWith(END) ?? false;
    const done = new Promise<void>((r) => {
      const check = () => (ended() ? r() : undefined);
      this.socket.on('data', check);
      check();
    });
    this.socket.resume();
    await Promise.race([this.closed, done]);
    const text = Buffer.concat(this.#chunks).toString('latin1');
    assert.ok(text.endsWith(END), 'the response ended (not cut off)');
    return text;
  }

  /** Start reading: resolves with everything that came once the connection is closed. */
  async readToClose(): Promise<string> {
    this.socket.resume();
    await this.closed;
    return Buffer.concat(this.#chunks).toString('latin1');
  }
}

/** A gRPC stream on its own HTTP/2 connection whose window is tiny and never reopened. */
class GrpcSubscriber {
  readonly session: ClientHttp2Session;
  readonly stream: ClientHttp2Stream;
  readonly trailers: Promise<IncomingHttpHeaders | undefined>;
  readonly closed: Promise<number>;

  constructor(
    target: string,
    method: 'SubscribeToTask' | 'SendStreamingMessage',
    request: Record<string, unknown>,
  ) {
    this.session = connectH2(`http://${target}`, { settings: { initialWindowSize: 1024 } });
    this.session.on('error', () => undefined);
    const body = encodeMessage(GRPC_METHODS[method].request, request);
    const framed = Buffer.alloc(5 + body.length);
    framed.writeUInt32BE(body.length, 1);
    Buffer.from(body).copy(framed, 5);
    this.stream = this.session.request({
      ':method': 'POST',
      ':path': GRPC_METHODS[method].path,
      'content-type': 'application/grpc',
      te: 'trailers',
      'a2a-version': '1.0',
    });
    this.stream.on('error', () => undefined);
    this.stream.end(framed);
    this.stream.pause();
    this.trailers = new Promise((r) => {
      this.stream.once('trailers', (t) => r(t));
      this.stream.once('close', () => r(undefined));
    });
    this.closed = new Promise((r) => this.stream.once('close', () => r(this.stream.rstCode ?? 0)));
  }
}

/** Sample the send buffers' total every few ms while `run` goes on; resolves with the peak. */
async function peakWhile(run: Promise<unknown>): Promise<number> {
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, streamBufferStats().waitingBytes)), 5);
  try {
    await run;
  } finally {
    clearInterval(sample);
  }
  return Math.max(peak, streamBufferStats().waitingBytes);
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('issue 28: subscribers that never read stay bounded, are dropped with a clear end, and a fast reader gets everything', async () => {
  const { server, origin, grpc } = await start();
  const port = Number(new URL(origin).port);
  const sessions: ClientHttp2Session[] = [];
  const sockets: Socket[] = [];
  try {
    // The fast reader starts the task and reads as it goes.
    const client = A2AClient.fromCard(card(origin), { bindings: ['HTTP+JSON'] });
    const stream = client.sendStreamingMessage({
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
    });
    const first = await stream.next();
    const taskId = (first.value as { task: { id: string } }).task.id;
    const fast: StreamResponse[] = [first.value as StreamResponse];
    const reading = (async () => {
      for await (const ev of stream) fast.push(ev);
    })();

    const before = streamBufferStats();
    const rest = Array.from(
      { length: 3 },
      () => new RawSubscriber(port, `/a2a/rest/tasks/${taskId}:subscribe`, '{}'),
    );
    const jsonrpc = Array.from(
      { length: 3 },
      (_, i) =>
        new RawSubscriber(
          port,
          '/a2a/jsonrpc',
          JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'SubscribeToTask',
            params: { id: taskId },
          }),
        ),
    );
    const grpcs = Array.from(
      { length: 2 },
      () => new GrpcSubscriber(grpc, 'SubscribeToTask', { id: taskId }),
    );
    sockets.push(...[...rest, ...jsonrpc].map((s) => s.socket));
    sessions.push(...grpcs.map((g) => g.session));
    const slow = rest.length + jsonrpc.length + grpcs.length;
    await until(
      'every subscriber to be attached',
      () => streamBufferStats().subscribers >= before.subscribers + slow,
    );

    release();
    const peak = await peakWhile(reading);
    // Whatever the task sent, the server held at most each subscriber's bound (plus one event).
    assert.ok(
      peak <= (slow + 1) * PER_SUBSCRIBER,
      `peak unsent ${peak} bytes for ${slow + 1} subscribers (bound ${PER_SUBSCRIBER} each)`,
    );

    // The fast reader got every artifact and the completion, in order.
    const artifacts = fast.filter((e) => 'artifactUpdate' in e);
    assert.equal(artifacts.length, PARTS);
    const last = fast.at(-1) as { statusUpdate?: { status: { state: string } } };
    assert.equal(last.statusUpdate?.status.state, 'TASK_STATE_COMPLETED');

    // Every slow reader was dropped.
    await until(
      'every slow reader to be dropped',
      () => streamBufferStats().dropped >= before.dropped + slow,
    );

    // A reader that comes back finds the reason as its last event, and the stream ended.
    const g = grpcs[0]!;
    g.stream.resume();
    const [restText, rpcText, trailers] = await Promise.all([
      rest[0]!.readToEnd(),
      jsonrpc[0]!.readToEnd(),
      g.trailers,
    ]);
    const restEvent = lastData(restText);
    assert.equal(restEvent.error.code, 503);
    assert.equal(restEvent.error.details[0].reason, SLOW_READER_REASON);
    const restErr = A2AError.fromHttp(restEvent.error.code, restEvent);
    assert.equal(restErr.kind, 'Unavailable');
    assert.match(restErr.message, /dropped this stream because the client read too slowly/);

    const rpcEvent = lastData(rpcText);
    assert.equal(rpcEvent.error.code, -32012);
    assert.equal(rpcEvent.error.data[0].reason, SLOW_READER_REASON);
    assert.equal(A2AError.fromJsonRpc(rpcEvent.error).kind, 'Unavailable');

    assert.ok(trailers, 'the gRPC stream ended with a status');
    assert.equal(trailers['grpc-status'], String(GRPC_CODES.RESOURCE_EXHAUSTED));
    const grpcErr = statusFailure(
      {
        code: Number(trailers['grpc-status']),
        message: String(trailers['grpc-message']),
        metadata: trailers,
      },
      'SubscribeToTask',
      grpc,
    );
    assert.ok(grpcErr instanceof A2AError, 'a typed A2A error, not a transport failure');
    assert.equal(
      grpcErr.kind,
      'Unavailable',
      'RESOURCE_EXHAUSTED of a slow reader is no InvalidRequest',
    );
    assert.match(grpcErr.message, /read too slowly/);

    // Those that never read lose their connection (their stream, on HTTP/2) after the grace period.
    // Those that never read lose their connection (their stream, on HTTP/2) after the grace period:
    // the server lets go of what they left unread whatever the client does.
    const never = [rest[1]!, rest[2]!, jsonrpc[1]!, jsonrpc[2]!];
    await until(
      'the connections that never drained to be destroyed',
      () => streamBufferStats().destroyed >= before.destroyed + never.length + 1,
    );
    assert.equal(await grpcs[1]!.closed, h2.NGHTTP2_CANCEL);
    const cut = await never[0]!.readToClose();
    assert.ok(!cut.endsWith('\r\n0\r\n\r\n'), 'the response was cut off, not completed');
    assert.equal(streamBufferStats().waitingBytes, 0);
  } finally {
    for (const s of sockets) s.destroy();
    for (const s of sessions) s.destroy();
    await server.close(100);
  }
});

/** The JSON of the last `data:` line of a chunked SSE response. */
function lastData(raw: string): any {
  const at = raw.lastIndexOf('data: ');
  return JSON.parse(raw.slice(at + 6, raw.indexOf('\n', at)));
}

test('issue 28: the grpc-js handlers drop a reader that never reads (RESOURCE_EXHAUSTED, then a reset)', async () => {
  release();
  const { server } = await start();
  const { Server, ServerCredentials } = await import('@grpc/grpc-js');
  const { A2A_SERVICE_DEFINITION, grpcHandlers } = await import('../src/server/grpc-js/index.js');
  const own = new Server();
  own.addService(A2A_SERVICE_DEFINITION, grpcHandlers(server, { auth: () => ({}) }));
  const port = await new Promise<number>((resolve, reject) =>
    own.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const before = streamBufferStats();
  const send = { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'go' }] } };
  const readers = [0, 1].map(
    () => new GrpcSubscriber(`127.0.0.1:${port}`, 'SendStreamingMessage', send),
  );
  try {
    await until(
      'both readers to be dropped',
      () => streamBufferStats().dropped >= before.dropped + 2,
    );
    // One comes back: after what was queued, its status says why.
    readers[0]!.stream.resume();
    const trailers = await readers[0]!.trailers;
    assert.equal(trailers?.['grpc-status'], String(GRPC_CODES.RESOURCE_EXHAUSTED));
    const err = statusFailure(
      {
        code: Number(trailers['grpc-status']),
        message: decodeURIComponent(String(trailers['grpc-message'])),
        metadata: trailers,
      },
      'SendStreamingMessage',
      `127.0.0.1:${port}`,
    );
    assert.ok(err instanceof A2AError);
    assert.equal(err.kind, 'Unavailable');
    assert.equal((err.details[0] as { reason?: string }).reason, SLOW_READER_REASON);
    // The other never reads: its HTTP/2 stream is reset after the grace period.
    assert.equal(await readers[1]!.closed, h2.NGHTTP2_CANCEL);
  } finally {
    for (const r of readers) r.session.destroy();
    await new Promise<void>((r) => own.tryShutdown(() => r()));
    await server.close(100);
  }
});

test('issue 28: on a fetch host, a reader that never reads is dropped, and what it left queued is discarded', async () => {
  release();
  const { server } = await start();
  const handle = toFetchHandler(server, { origin: WEB });
  const before = streamBufferStats();
  const res = await webRequest(
    handle,
    'rest',
    'SendStreamingMessage',
    { message: { messageId: 'm3', role: 'ROLE_USER', parts: [{ text: 'go' }] } },
    { signal: new AbortController().signal },
  );
  try {
    await until('the reader to be dropped', () => streamBufferStats().dropped > before.dropped);
    await until(
      'what it left queued to be discarded',
      () => streamBufferStats().destroyed > before.destroyed,
    );
    // The body was errored: nothing of the queued megabytes is kept for a reader that may never come.
    const reader = res.body!.getReader();
    await assert.rejects(async () => {
      for (let i = 0; i < 10_000; i++) if ((await reader.read()).done) return;
    }, /read too slowly/);
  } finally {
    await server.close(100);
  }
});

test('maxStreamBufferBytes is checked when the server is made, naming the option', () => {
  for (const bad of [0, 512, 1.5, -1, '4MiB']) {
    assert.throws(
      () =>
        createAgentServer({
          card: (o) => card(o),
          executor: (_c, t) => t.complete(),
          maxStreamBufferBytes: bad as number,
        }),
      (e: Error & { option?: string }) =>
        e.name === 'A2AConfigError' &&
        e.option === 'maxStreamBufferBytes' &&
        /whole number of bytes ≥ 1024/.test(e.message),
    );
  }
  // The deprecated per-transport name still counts when the option is unset, and is checked too.
  assert.throws(
    () =>
      createAgentServer({
        card: (o) => card(o),
        executor: (_c, t) => t.complete(),
        sse: { maxBufferedBytes: 10 },
      }),
    /sse\.maxBufferedBytes must be/,
  );
});

test("the clients map a slow reader's end to Unavailable on every binding", () => {
  const info = [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: SLOW_READER_REASON,
      domain: 'a2a-kit',
    },
  ];
  const body = { error: { code: 503, status: 'UNAVAILABLE', message: 'dropped', details: info } };
  assert.equal(A2AError.fromHttp(503, body).kind, 'Unavailable');
  assert.equal(A2AError.fromHttp(503, {}).kind, 'Unavailable');
  assert.equal(
    A2AError.fromJsonRpc({ code: -32012, message: 'dropped', data: info }).kind,
    'Unavailable',
  );
  assert.equal(
    a2aErrorOfStatus(GRPC_CODES.RESOURCE_EXHAUSTED, 'dropped', info).kind,
    'Unavailable',
  );
  // Without the reason, RESOURCE_EXHAUSTED stays what it was (a message over the size limit).
  assert.equal(
    a2aErrorOfStatus(GRPC_CODES.RESOURCE_EXHAUSTED, 'too big', []).kind,
    'InvalidRequest',
  );
});
