/**
 * Issue 28, amplification: a request full of mistakes gets a bounded answer on every binding and
 * version. The reproductions — 200,000 empty parts in 0.6 MB of JSON-RPC (a 40 MB answer after
 * seconds), 10,000 in 30 KB of HTTP+JSON (a 2 MB error), 1,000 empty parts in 2 KB of gRPC (a
 * 242 KB status header that never completed), 3 MB of `{}` parts (202 MB) — each answer with the
 * first violations listed and the rest counted, in a few KiB. Our gRPC client settles its call even
 * when a server never finishes a status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createH2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '../src/protocol/index.js';
import { MAX_ERROR_MESSAGE, MAX_LIST_ITEMS, MAX_VIOLATIONS } from '../src/protocol/bounds.js';
import { A2AClient, A2AError, isA2AClientError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { bindingsCard } from './core-fixture.js';

/** The most an error answer may weigh, whatever the request: 20 violations and clamped texts. */
const MAX_ERROR_ANSWER = 16 * 1024;
const BOUND_MS = 30_000;

const card = (origin: string, grpcUrl?: string): AgentCard =>
  bindingsCard('amplify', 'the agent the amplification attacks are sent to', origin, grpcUrl);

async function start(): Promise<{ server: AgentServer; origin: string; grpc: string }> {
  const server = createAgentServer({
    card: (o, g) => card(o, g?.url),
    executor: (_ctx, task) => task.complete('done'),
    grpc: { port: 0 },
    compat: { v03: true },
  });
  const origin = await server.listen(0);
  return { server, origin, grpc: server.grpc!.url };
}

const parts = (n: number, part = '{}'): string => Array<string>(n).fill(part).join(',');
const message = (ps: string, extra = '') =>
  `{"messageId":"m","role":${extra ? '"user"' : '"ROLE_USER"'},"parts":[${ps}]${extra}}`;

/** POSTs `body` and returns the status and the answer's text. */
async function post(
  url: string,
  body: string,
  version = '1.0',
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': version },
    body,
    signal: AbortSignal.timeout(BOUND_MS),
  });
  return { status: res.status, text: await res.text() };
}

/** The error of a JSON-RPC or HTTP+JSON answer (1.0 or 0.3), with its BadRequest violations. */
function errorOf(text: string): { message: string; violations: unknown[] } {
  type Err = { message: string; data?: unknown; details?: unknown };
  const body = JSON.parse(text) as { error?: Err } & Err;
  // 1.0 carries google.rpc details in a list; 0.3 has `data: { fieldViolations }`, and its
  // HTTP+JSON answers are the error object itself.
  const error = body.error ?? body;
  const data = error.data ?? error.details ?? [];
  const details = (Array.isArray(data) ? data : [data]) as Array<{ fieldViolations?: unknown[] }>;
  const bad = details.find((d) => Array.isArray(d?.fieldViolations));
  return { message: error.message, violations: bad?.fieldViolations ?? [] };
}

test('§3.3.2 amplification over JSON-RPC and HTTP+JSON, 1.0 and 0.3: bounded errors (issue 28)', async () => {
  const { server, origin } = await start();
  try {
    const rpc = (method: string, msg: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"message":${msg}}}`;
    const cases: Array<[string, string, string, string]> = [
      [
        'JSON-RPC, 200,000 empty parts',
        '/a2a/jsonrpc',
        rpc('SendMessage', message(parts(200_000))),
        '1.0',
      ],
      [
        'HTTP+JSON, 10,000 empty parts',
        '/a2a/rest/message:send',
        `{"message":${message(parts(10_000))}}`,
        '1.0',
      ],
      [
        'JSON-RPC, 3 MB of {} parts',
        '/a2a/jsonrpc',
        rpc('SendMessage', message(parts(1_000_000))),
        '1.0',
      ],
      [
        'JSON-RPC 0.3, 200,000 empty parts',
        '/a2a/jsonrpc',
        rpc('message/send', message(parts(200_000), ',"kind":"message"')),
        '',
      ],
      [
        'HTTP+JSON 0.3, 10,000 empty parts',
        '/a2a/rest/v1/message:send',
        `{"message":${message(parts(10_000), ',"kind":"message"')}}`,
        '',
      ],
    ];
    for (const [what, path, body, version] of cases) {
      const a = await post(`${origin}${path}`, body, version);
      assert.ok(a.text.length <= MAX_ERROR_ANSWER, `${what}: ${a.text.length} bytes answered`);
      const e = errorOf(a.text);
      assert.match(e.message, new RegExp(`at most ${MAX_LIST_ITEMS} are accepted`), what);
      assert.equal(e.violations.length, 1, what);
    }
  } finally {
    await server.close(1000);
  }
});

test('an error lists the first 20 violations and counts the rest, on every binding and version', async () => {
  const { server, origin, grpc } = await start();
  try {
    const n = MAX_LIST_ITEMS;
    const rpc = (method: string, msg: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"message":${msg}}}`;
    const answers = [
      await post(`${origin}/a2a/jsonrpc`, rpc('SendMessage', message(parts(n)))),
      await post(`${origin}/a2a/rest/message:send`, `{"message":${message(parts(n))}}`),
      await post(
        `${origin}/a2a/jsonrpc`,
        rpc('message/send', message(parts(n), ',"kind":"message"')),
        '',
      ),
    ];
    for (const a of answers) {
      assert.ok(a.text.length <= MAX_ERROR_ANSWER, `${a.text.length} bytes answered`);
      const e = errorOf(a.text);
      assert.equal(e.violations.length, MAX_VIOLATIONS);
      assert.match(e.message, new RegExp(`\\(and ${n - MAX_VIOLATIONS} more\\)$`));
    }
    // gRPC: 1,000 empty parts are 2 KB on the wire; the status is a few KiB and our client settles.
    const client = await A2AClient.connect(origin, {
      transports: { GRPC: grpcTransport() },
      timeoutMs: BOUND_MS,
    });
    assert.equal(client.interface.url, grpc);
    for (const count of [n, 200_000]) {
      const empty = Array.from({ length: count }, () => ({}));
      await assert.rejects(
        client.sendMessage({
          message: { messageId: 'm', role: 'ROLE_USER', parts: empty },
        } as never),
        (err: unknown) => {
          assert.ok(err instanceof A2AError, String(err));
          assert.equal(err.kind, 'InvalidParams');
          assert.ok(err.message.length <= MAX_ERROR_MESSAGE);
          return true;
        },
      );
    }
  } finally {
    await server.close(1000);
  }
});

test('a peer text echoed in an error is clamped (a 1 MB media type refused as ContentTypeNotSupported)', async () => {
  const { server, origin } = await start();
  try {
    const mediaType = `x/${'y'.repeat(1_000_000)}`;
    const body = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":${message(`{"text":"a","mediaType":"${mediaType}"}`)}}}`;
    const a = await post(`${origin}/a2a/jsonrpc`, body);
    assert.ok(a.text.length <= MAX_ERROR_ANSWER, `${a.text.length} bytes answered`);
    assert.match(errorOf(a.text).message, /does not accept x\/y+…/);
  } finally {
    await server.close(1000);
  }
});

test('our gRPC client settles a call whose status never completes, and its next call works', async () => {
  // A server that answers with a 242 KB header block, as ours once did: it never completes.
  let calls = 0;
  const wedging: Http2Server = createH2Server({
    maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
  });
  wedging.on('stream', (stream) => {
    calls++;
    stream.on('error', () => undefined);
    stream.resume();
    stream.on('end', () =>
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': '3',
          'grpc-message': 'x'.repeat(80_000),
          'grpc-status-details-bin': 'A'.repeat(160_000),
        },
        { endStream: true },
      ),
    );
  });
  wedging.on('sessionError', () => undefined);
  await new Promise<void>((r) => wedging.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(wedging.address() as AddressInfo).port}`;
  const grpcCard = {
    ...card('http://127.0.0.1:1'),
    supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
  };
  const client = new A2AClient(grpcCard, { transports: { GRPC: grpcTransport() }, timeoutMs: 300 });
  try {
    for (let i = 0; i < 2; i++) {
      const settled = await Promise.race([
        client.getTask('t1').then(
          () => 'answered',
          (err: unknown) => (isA2AClientError(err) ? err.code : String(err)),
        ),
        new Promise((r) => setTimeout(r, BOUND_MS, 'never settled')),
      ]);
      assert.equal(settled, 'TIMEOUT', `call ${i + 1}`);
    }
    assert.equal(calls, 2, 'the second call went out on a fresh connection');
  } finally {
    wedging.close();
  }
});
