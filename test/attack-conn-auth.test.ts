/**
 * Issue 28, bodies read before authentication: calls without credentials on an agent that requires
 * them are refused from their headers, before their body is read. Reproduction: one HTTP/2 connection
 * opens 150 gRPC calls, each announcing a 4 MiB message it never finishes; every call must be answered
 * UNAUTHENTICATED while its message is still unfinished (before the fix, the server waited for the
 * body and held it: +584 MB). The HTTP bindings do the same for a 1.0 request: 401 before the body.
 * The client here only writes what flow control lets through, so the memory measured is the server's.
 */
import assert from 'node:assert/strict';
import { connect as h2connect, type ClientHttp2Stream } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { after, before, test } from 'node:test';
import type { AgentCard } from '../src/protocol/index.js';
import { staticBearerTokens } from '../src/server/index.js';
import { serveGrpc, type GrpcServerHandle } from '../src/server/grpc/index.js';
import { start, type Running } from './auth-fixture.js';

const BOUND_MS = 20_000;
const SECURED: Partial<AgentCard> = {
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};
const verifiers = { bearer: staticBearerTokens({ 'token-alice': 'alice' }) };
const MIB = 1024 * 1024;

let agent: Running;
let grpc: GrpcServerHandle;
before(async () => {
  agent = await start(SECURED, { auth: { verifiers } });
  grpc = await serveGrpc(agent.server, { auth: { verifiers } });
});
after(async () => {
  await grpc.close(200);
  await agent.close();
});

/**
 * Announce a message of `announced` bytes and write up to `sent` of it as flow control allows, never
 * finishing it; resolves with the status once the server answers (or undefined at the bound).
 */
function unfinishedCall(
  stream: ClientHttp2Stream,
  announced: number,
  sent: number,
): Promise<{ status: string | undefined; written: number }> {
  return new Promise((resolve) => {
    let written = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(announced, 1);
    stream.write(prefix);
    const pump = (): void => {
      while (!answered && written + chunk.length <= sent) {
        written += chunk.length;
        if (!stream.write(chunk)) return;
      }
    };
    stream.on('drain', pump);
    stream.on('error', () => {});
    const bound = setTimeout(() => finish(undefined), BOUND_MS);
    const finish = (status: string | undefined): void => {
      if (answered) return;
      answered = true;
      clearTimeout(bound);
      resolve({ status, written });
    };
    stream.on('response', (h) => {
      if (h['grpc-status'] !== undefined) finish(String(h['grpc-status']));
    });
    stream.on('trailers', (t) => finish(String(t['grpc-status'])));
    stream.on('close', () => finish(undefined));
    pump();
  });
}

test('issue 28: 150 unauthenticated gRPC calls × 4 MiB unfinished on one connection are refused from their headers', async () => {
  const session = h2connect(grpc.url);
  session.on('error', () => {});
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const calls = Array.from({ length: 150 }, () =>
      unfinishedCall(
        session.request({
          ':method': 'POST',
          ':path': '/lf.a2a.v1.A2AService/SendMessage',
          'content-type': 'application/grpc',
          'a2a-version': '1.0',
          te: 'trailers',
        }),
        4 * MIB - 16,
        4 * MIB - 64 * 1024,
      ),
    );
    const results = await Promise.all(calls);
    const statuses = new Set(results.map((r) => r.status));
    assert.deepEqual([...statuses], ['16'], 'every call is UNAUTHENTICATED, none left waiting');
    // Flow control let each call send a window's worth at most before its answer.
    const written = results.reduce((n, r) => n + r.written, 0);
    assert.ok(written < 150 * MIB, `the client got ${written} bytes out before the refusals`);
  } finally {
    clearInterval(sampler);
    session.destroy();
  }
  assert.ok(
    peak - rssBefore < 200 * MIB,
    `RSS grew by ${Math.round((peak - rssBefore) / MIB)} MiB (before the fix: 600 MiB held)`,
  );
  // The connection is gone: the listener holds no session for it any more.
  const sessions = await new Promise<number>((resolve) =>
    grpc.server.getConnections((_e, n) => resolve(n)),
  );
  assert.ok(sessions <= 1, `connections left: ${sessions}`);
});

/** Send headers announcing a body of `length` bytes, then `sent` bytes of it; resolves with the answer's status line. */
function unfinishedHttp(path: string, headers: string, length: number, sent: number) {
  const { hostname, port } = new URL(agent.origin);
  return new Promise<string>((resolve) => {
    let received = '';
    const socket = netConnect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\n` +
          `${headers}content-length: ${length}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(sent, 0x20));
    });
    const bound = setTimeout(() => done(), 5000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      received += d;
      if (received.includes('\r\n')) done();
    });
    socket.on('error', () => {});
    socket.on('close', () => done());
    function done(): void {
      clearTimeout(bound);
      socket.destroy();
      resolve(received.split('\r\n')[0] ?? '');
    }
  });
}

test('issue 28: an unauthenticated 1.0 HTTP request is answered 401 before its body arrives', async () => {
  const v1 = 'a2a-version: 1.0\r\n';
  assert.match(await unfinishedHttp('/a2a/jsonrpc', v1, 4 * MIB - 1, 1024), / 401 /);
  assert.match(await unfinishedHttp('/a2a/rest/message:send', v1, 4 * MIB - 1, 1024), / 401 /);
  // With credentials the server waits for the body (the answer comes only at the bound).
  const authed = `${v1}authorization: Bearer token-alice\r\n`;
  assert.equal(await unfinishedHttp('/a2a/jsonrpc', authed, 4 * MIB - 1, 1024), '');
});
