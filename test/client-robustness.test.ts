import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, isA2AClientError } from '../src/client/index.js';
import {
  makeCard,
  restCard,
  rpcResult,
  sendJson,
  sseEvent,
  startServer,
  startSse,
  task,
  userMessage,
  type TestServer,
} from './client-fixture.js';

const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

async function using(s: TestServer, fn: () => Promise<void>) {
  try {
    await fn();
  } finally {
    await s.close();
  }
}

test('a call that outlives its timeout fails with TIMEOUT (the server never answers)', async () => {
  const s = await startServer(() => undefined);
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url), { timeoutMs: 50 });
    await assert.rejects(client.getTask('t1'), (e: unknown) => {
      assert.ok(isA2AClientError(e));
      assert.equal(e.code, 'TIMEOUT');
      assert.match(e.message, /GetTask .* timed out after 50 ms/);
      return true;
    });
    // A stream waiting for its first event times out the same way.
    await assert.rejects(
      (async () => {
        for await (const _ of client.subscribeToTask('t1')) void _;
      })(),
      (e: unknown) => isA2AClientError(e) && e.code === 'TIMEOUT',
    );
  });
});

test("the caller's AbortSignal cancels a call with an AbortError", async () => {
  const s = await startServer(() => undefined);
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url));
    const ac = new AbortController();
    const p = client.getTask('t1', { signal: ac.signal });
    ac.abort();
    await assert.rejects(p, (e: any) => e.name === 'AbortError');
  });
});

test('GetTask is retried after a 503 and succeeds', async () => {
  let n = 0;
  const s = await startServer((req, res) =>
    n++ === 0
      ? sendJson(res, 503, { oops: 1 })
      : sendJson(res, 200, rpcResult(req.json.id, task('t1'))),
  );
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url), fast);
    assert.equal((await client.getTask('t1')).id, 't1');
    assert.equal(s.requests.length, 2);
    assert.deepEqual(
      s.requests.map((r) => r.json.method),
      ['GetTask', 'GetTask'],
    );
  });
});

test('GetTask retries are bounded; the last UNAVAILABLE error is thrown with its status', async () => {
  const s = await startServer((_req, res) => sendJson(res, 502, {}));
  await using(s, async () => {
    const client = new A2AClient(restCard(s.url), {
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    await assert.rejects(
      client.getTask('t1'),
      (e: unknown) => isA2AClientError(e) && e.code === 'UNAVAILABLE' && e.status === 502,
    );
    assert.equal(s.requests.length, 4);
  });
});

test('SendMessage and CancelTask are NOT retried after a 503 unless the caller opts in', async () => {
  const s = await startServer((_req, res) => sendJson(res, 503, {}));
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url), fast);
    await assert.rejects(
      client.sendMessage(userMessage('once')),
      (e: unknown) => isA2AClientError(e) && e.code === 'UNAVAILABLE',
    );
    assert.equal(s.requests.length, 1);
    await assert.rejects(
      client.cancelTask('t1'),
      (e: unknown) => isA2AClientError(e) && e.code === 'UNAVAILABLE',
    );
    assert.equal(s.requests.length, 2);

    const optIn = new A2AClient(makeCard(s.url), { ...fast, retrySend: true });
    await assert.rejects(optIn.sendMessage(userMessage('again')));
    assert.equal(s.requests.length, 5);
    // The same request (same messageId) is repeated, so an agent can deduplicate it.
    assert.deepEqual(s.requests[2]?.json.params, s.requests[4]?.json.params);
  });
});

test('a response body over maxResponseBytes fails with RESPONSE_TOO_LARGE', async () => {
  const big = { ...task('t1'), metadata: { pad: 'x'.repeat(5000) } };
  const s = await startServer((req, res) => sendJson(res, 200, rpcResult(req.json.id, big)));
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url), { maxResponseBytes: 1000 });
    await assert.rejects(
      client.getTask('t1'),
      (e: unknown) =>
        isA2AClientError(e) && e.code === 'RESPONSE_TOO_LARGE' && /1000 bytes/.test(e.message),
    );
    // Without Content-Length the cap still holds (streamed read).
    const s2 = await startServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(rpcResult(req.json.id, big)));
    });
    await using(s2, async () => {
      const c2 = new A2AClient(makeCard(s2.url), { maxResponseBytes: 1000 });
      await assert.rejects(
        c2.getTask('t1'),
        (e: unknown) => isA2AClientError(e) && e.code === 'RESPONSE_TOO_LARGE',
      );
    });
  });
});

test('a single SSE event over maxEventBytes fails with RESPONSE_TOO_LARGE; smaller events before it arrive', async () => {
  const s = await startServer((req, res) => {
    startSse(res);
    sseEvent(res, rpcResult(req.json.id, { task: task('t1') }));
    sseEvent(
      res,
      rpcResult(req.json.id, { task: { ...task('t1'), metadata: { pad: 'y'.repeat(20_000) } } }),
    );
    res.end();
  });
  await using(s, async () => {
    const client = new A2AClient(makeCard(s.url), { maxEventBytes: 4096 });
    const got: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of client.subscribeToTask('t1')) got.push(ev);
      })(),
      (e: unknown) =>
        isA2AClientError(e) && e.code === 'RESPONSE_TOO_LARGE' && /stream event/.test(e.message),
    );
    assert.equal(got.length, 1);
  });
});

test('a refused connection is a NETWORK error naming the URL', async () => {
  const s = await startServer(() => undefined);
  const url = s.url;
  await s.close();
  const client = new A2AClient(makeCard(url), { retry: false });
  await assert.rejects(
    client.getTask('t1'),
    (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK' && e.message.includes(url),
  );
});

test('an interface URL where nothing answers A2A (bare 404) says to check the URL, on both bindings', async () => {
  const s = await startServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  await using(s, async () => {
    for (const card of [makeCard(s.url), restCard(s.url)]) {
      await assert.rejects(new A2AClient(card).getTask('t1'), (e: unknown) => {
        assert.ok(isA2AClientError(e) && e.code === 'BAD_RESPONSE' && e.status === 404);
        assert.match(e.message, /interface URL\?/);
        return true;
      });
    }
  });
});
