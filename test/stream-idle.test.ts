/**
 * `streamIdleTimeoutMs` (issue 25, §3.1.2/§3.1.6): a stream of a task that stays WORKING ends cleanly
 * once it has carried no task event for that long — SSE with a last comment saying why, gRPC with OK
 * and a message saying why — while keep-alive comments do not keep it alive. Every wait is bounded.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { after, test } from 'node:test';
import { decodeMessage, encodeFramed } from '../src/protocol/grpc/index.js';
import { createAgentServer, type AgentExecutor, type AgentServer } from '../src/server/index.js';
import { BOUND_MS, cardWith, jsonrpc, rest } from './mount-fixture.js';

const servers: AgentServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close(200);
});

/** Works on a task and returns without finishing it: the task stays WORKING. */
const stays: AgentExecutor = (_ctx, task) => {
  task.working('on it');
};

async function start(idle: number | undefined): Promise<{ origin: string; grpc: string }> {
  let grpcUrl = '';
  const s = createAgentServer({
    executor: stays,
    card: (base, g) => {
      grpcUrl = g!.url;
      return cardWith([
        jsonrpc(`${base}/a2a/jsonrpc`),
        rest(`${base}/a2a/rest`),
        { url: g!.url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ]);
    },
    grpc: { port: 0 },
    // Keep-alives far more often than the idle bound: they must not count as events.
    sse: { keepAliveMs: 40 },
    unfinishedTaskWarningMs: 0,
    ...(idle === undefined ? {} : { streamIdleTimeoutMs: idle }),
  });
  servers.push(s);
  const origin = await s.listen(0);
  return { origin, grpc: grpcUrl };
}

const msg = (text: string) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
});

/** Reads a response body to its end, or gives up after the bound (then `ended` is false). */
async function readAll(res: Response): Promise<{ ended: boolean; text: string }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const bound = setTimeout(() => void reader.cancel(), BOUND_MS);
  try {
    for (let i = 0; i < 10_000; i++) {
      const { done, value } = await reader.read();
      if (done) return { ended: true, text };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { ended: false, text };
  } finally {
    clearTimeout(bound);
  }
  return { ended: false, text };
}

test('streamIdleTimeoutMs ends a JSON-RPC stream of a WORKING task with a comment saying why', async () => {
  const { origin } = await start(400);
  const res = await fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: msg('x'),
    }),
  });
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const { ended, text } = await readAll(res);
  assert.ok(ended, 'the stream ended');
  assert.match(text, /TASK_STATE_WORKING/);
  assert.match(text, /: keep-alive/, 'keep-alives were sent meanwhile');
  assert.match(text, /: No task event for 400 ms[^\n]*SubscribeToTask[^\n]*\n\n$/);
});

test('streamIdleTimeoutMs ends an HTTP+JSON SubscribeToTask stream the same way', async () => {
  const { origin } = await start(300);
  const sent = await fetch(`${origin}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ ...msg('y'), configuration: { returnImmediately: true } }),
  });
  const { task } = (await sent.json()) as { task: { id: string; status: { state: string } } };
  assert.equal(task.status.state, 'TASK_STATE_WORKING');
  const res = await fetch(`${origin}/a2a/rest/tasks/${task.id}:subscribe`, {
    method: 'POST',
    headers: { 'a2a-version': '1.0' },
  });
  assert.equal(res.status, 200);
  const { ended, text } = await readAll(res);
  assert.ok(ended, 'the stream ended');
  assert.match(text, /"id":"/);
  assert.match(text, /: No task event for 300 ms/);
});

test('without streamIdleTimeoutMs the stream of a WORKING task stays open past that time', async () => {
  const { origin } = await start(undefined);
  const ac = new AbortController();
  const res = await fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    signal: ac.signal,
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: msg('z'),
    }),
  });
  const reader = res.body!.getReader();
  // Read until a few keep-alives went by (the idle bound of the other tests passed many times over).
  let text = '';
  for (let i = 0; i < 200 && (text.match(/keep-alive/g) ?? []).length < 15; i++) {
    const { done, value } = await reader.read();
    assert.equal(done, false, 'the stream is still open');
    text += new TextDecoder().decode(value);
  }
  assert.doesNotMatch(text, /No task event/);
  ac.abort();
});

test('streamIdleTimeoutMs ends a gRPC SendStreamingMessage with OK and a message saying why', async () => {
  const { grpc } = await start(300);
  const session = connect(grpc);
  session.on('error', () => {});
  try {
    const stream = session.request({
      ':method': 'POST',
      ':path': '/lf.a2a.v1.A2AService/SendStreamingMessage',
      'content-type': 'application/grpc',
      te: 'trailers',
      'a2a-version': '1.0',
    });
    stream.end(encodeFramed('SendMessageRequest', msg('g')));
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const trailers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const bound = setTimeout(() => reject(new Error('no status within the bound')), BOUND_MS);
      stream.on('response', (h) => {
        if (h['grpc-status'] !== undefined) resolve(h);
      });
      stream.on('trailers', (t) => {
        clearTimeout(bound);
        resolve(t as Record<string, unknown>);
      });
    });
    assert.equal(
      trailers['grpc-status'],
      '0',
      decodeURIComponent(String(trailers['grpc-message'])),
    );
    assert.match(decodeURIComponent(String(trailers['grpc-message'])), /No task event for 300 ms/);
    const body = Buffer.concat(chunks);
    assert.ok(body.length > 5, 'events came before the end');
    const first = decodeMessage('StreamResponse', body.subarray(5, 5 + body.readUInt32BE(1)));
    assert.ok(first.task, 'the stream opened with the task');
  } finally {
    session.destroy();
  }
});
