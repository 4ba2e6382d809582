/**
 * Slowloris (issue 15.7): `listen` closes connections that trickle their headers or their body, and
 * idle keep-alive connections, after the configured timeouts — while a stream that lasts longer than
 * the request timeout is left alone (node applies it only while the request is being received).
 * Waits are bounded; the assertions are about what happened, not how long it took.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, test } from 'node:test';
import {
  A2AConfigError,
  createAgentServer,
  type AgentExecutor,
  type AgentServer,
} from '../src/server/index.js';
import { A2AClient, userMessage } from '../src/client/index.js';
import { BOUND_MS, options } from './mount-fixture.js';

const servers: AgentServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close(200);
});

const SHORT = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 };

async function start(extra: Parameters<typeof options>[0] = {}): Promise<string> {
  const s = createAgentServer(options({ ...SHORT, ...extra }));
  servers.push(s);
  return s.listen(0);
}

/** Open a raw connection, write `send`, keep writing `trickle` every 100 ms; resolves with what came back once the server closes (or after the bound). */
function slowClient(
  origin: string,
  send: string,
  trickle?: string,
): Promise<{ closed: boolean; received: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(send));
    const timer = trickle
      ? setInterval(() => socket.writable && socket.write(trickle), 100)
      : undefined;
    const bound = setTimeout(() => finish(false), 4000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    function finish(closed: boolean): void {
      clearTimeout(bound);
      clearInterval(timer);
      socket.destroy();
      resolve({ closed, received });
    }
  });
}

test('15.7 a request whose headers never finish is closed (408) after headersTimeoutMs', async () => {
  const origin = await start();
  const r = await slowClient(
    origin,
    'POST /a2a/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\n',
    'X-Slow: 1\r\n',
  );
  assert.equal(r.closed, true, 'the server closed the connection');
  assert.match(r.received, /^HTTP\/1\.1 408/);
});

test('15.7 a connection that sends nothing at all is closed too', async () => {
  const origin = await start();
  const r = await slowClient(origin, '');
  assert.equal(r.closed, true);
});

test('15.7 a body trickled after complete headers is closed (408) after requestTimeoutMs', async () => {
  const origin = await start();
  const head =
    'POST /a2a/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';
  const r = await slowClient(origin, head, ' ');
  assert.equal(r.closed, true);
  assert.match(r.received, /^HTTP\/1\.1 408/);
});

test('15.7 an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
  const origin = await start();
  const r = await slowClient(
    origin,
    'GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  );
  assert.equal(r.closed, true);
  assert.match(r.received, /^HTTP\/1\.1 200/, 'the request itself was answered');
});

test('a stream that lasts longer than requestTimeoutMs is not cut: it carries the task to COMPLETED', async () => {
  // Working, then a pause of 2.5× the request timeout (several of node's timeout checks), then done.
  const slow: AgentExecutor = async (_ctx, task) => {
    task.working('thinking');
    await new Promise((r) => setTimeout(r, SHORT.requestTimeoutMs * 2.5));
    task.addArtifact({ name: 'late', parts: [{ text: 'done' }] });
    task.complete();
  };
  const origin = await start({ executor: slow });
  for (const binding of ['JSONRPC', 'HTTP+JSON']) {
    const client = await A2AClient.connect(origin, {
      bindings: [binding],
      cache: false,
      resume: false,
      timeoutMs: BOUND_MS,
    });
    const states: string[] = [];
    for await (const ev of client.sendStreamingMessage({
      message: userMessage('take your time'),
    })) {
      if ('statusUpdate' in ev) states.push(ev.statusUpdate.status.state);
    }
    assert.deepEqual(states, ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'], binding);
  }
});

test('timeouts: documented defaults, and inconsistent values are refused at listen()', async () => {
  const { DEFAULT_HTTP_TIMEOUTS } = await import('../src/server/agent-server.js');
  assert.deepEqual(
    { ...DEFAULT_HTTP_TIMEOUTS },
    { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 },
  );
  const { serverTimeouts } = await import('../src/server/mount/http-listen.js');
  const applied = serverTimeouts({});
  assert.deepEqual(applied, {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1000,
  });
  const s = createAgentServer(options({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 }));
  await assert.rejects(
    s.listen(0),
    /headersTimeoutMs \(5000\) must not exceed requestTimeoutMs \(1000\)/,
  );
  await assert.rejects(
    createAgentServer(options({ keepAliveTimeoutMs: -1 })).listen(0),
    (err: unknown) => err instanceof A2AConfigError && err.option === 'keepAliveTimeoutMs',
  );
});
