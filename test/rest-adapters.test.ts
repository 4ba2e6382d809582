/**
 * The agent server mounted in each kind of host: plain node:http, Express 5 (with and without
 * express.json() in front), Fastify 5, and the Web fetch adapter (called directly and served through
 * a tiny node server). Each host runs the same round: card, REST and JSON-RPC calls, an SSE stream,
 * and the error form.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { createAgentServer } from '../src/server/index.js';
import { BOUND_MS, message, optionsFor, readSse } from './rest-fixture.js';
import { a2aExpress } from '../src/server/adapters/express.js';
import { a2aFastify } from '../src/server/adapters/fastify.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';

const H = { 'a2a-version': '1.0', 'content-type': 'application/json' };
const cleanups: Array<() => Promise<unknown> | void> = [];
after(async () => {
  for (const c of cleanups.splice(0)) await c();
});

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
const net: Fetch = (input, init) =>
  fetch(input, { ...init, signal: AbortSignal.timeout(BOUND_MS) });

/** The same round for every host; `origin` is what the card must advertise. */
async function round(origin: string, f: Fetch = net): Promise<void> {
  const card = await (await f(`${origin}/.well-known/agent-card.json`)).json();
  assert.equal(card.supportedInterfaces[1].url, `${origin}/a2a/rest`);

  for (const type of ['application/json', 'application/a2a+json']) {
    const sent = await f(`${origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { ...H, 'content-type': type },
      body: JSON.stringify({ message: message('echo via host') }),
    });
    assert.equal(sent.status, 200, `${type}: ${await sent.clone().text()}`);
    assert.equal((await sent.json()).task.artifacts[0].parts[0].text, 'echo via host');
  }

  const rpc = await f(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ListTasks', params: { pageSize: 1 } }),
  });
  assert.equal((await rpc.json()).result.pageSize, 1);

  const stream = await f(`${origin}/a2a/rest/tenant-x/message:stream`, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ message: message('echo streamed') }),
  });
  assert.equal(stream.headers.get('content-type'), 'text/event-stream');
  const events = await readSse(stream);
  assert.ok(events.length >= 3 && events.every((e) => e.id !== undefined));
  assert.equal(JSON.parse(events.at(-1)!.data).statusUpdate.status.state, 'TASK_STATE_COMPLETED');

  const missing = await f(`${origin}/a2a/rest/tasks/nope`, { headers: H });
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.details[0].reason, 'TASK_NOT_FOUND');

  const wrong = await f(`${origin}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { ...H, 'content-type': 'text/csv' },
    body: 'a,b',
  });
  assert.equal(wrong.status, 415);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('hosts', () => {
  test('plain node:http with server.listener', async () => {
    const agent = createAgentServer(optionsFor('full'));
    const origin = await listen(createServer(agent.listener));
    await agent.prepare(origin);
    await round(origin);
  });

  test('Express 5 with express.json() in front: already-parsed bodies are used; other routes fall through', async () => {
    const agent = createAgentServer(optionsFor('full', { maxBodyBytes: 2048 }));
    const app = express();
    app.use(express.json());
    app.use(a2aExpress(agent, { allowedHosts: ['127.0.0.1'] })); // the card's origin: a checked Host, not any Host
    app.get('/health', (_req, res) => {
      res.send('ok');
    });
    const origin = await listen(createServer(app));
    await round(origin);
    assert.equal(await (await net(`${origin}/health`)).text(), 'ok');
    const big = await net(`${origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({ pad: 'x'.repeat(4096) }),
    });
    assert.equal(big.status, 413, 'the binding limit applies to a body express.json() read');
  });

  test('Express 5 without a body parser, listener mounted directly', async () => {
    const agent = createAgentServer(optionsFor('full'));
    const app = express();
    app.use(agent.listener);
    const origin = await listen(createServer(app));
    await agent.prepare(origin);
    await round(origin);
  });

  test('Fastify 5 plugin: bodies left to the bindings, the app’s own routes keep precedence', async () => {
    const agent = createAgentServer(optionsFor('full'));
    const app = Fastify();
    app.get('/health', async () => 'ok');
    await app.register(a2aFastify(agent, { allowedHosts: ['127.0.0.1'] }));
    const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(
      'localhost',
      '127.0.0.1',
    );
    cleanups.push(() => app.close());
    await round(origin);
    assert.equal(await (await net(`${origin}/health`)).text(), 'ok');
  });

  test('fetch adapter called directly with Request objects, streams included', async () => {
    const agent = createAgentServer(optionsFor('full'));
    cleanups.push(() => agent.close(100));
    const handle = toFetchHandler(agent, { origin: 'https://agent.example' });
    await round('https://agent.example', (input, init) => handle(new Request(input, init)));
  });

  test('fetch adapter: a client that leaves a stream does not disturb the agent', async () => {
    const agent = createAgentServer(optionsFor('full'));
    cleanups.push(() => agent.close(100));
    const handle = toFetchHandler(agent, { origin: 'http://a.test' });
    const post = (path: string, body: unknown) =>
      handle(
        new Request(`http://a.test/a2a/rest${path}`, {
          method: 'POST',
          headers: H,
          body: JSON.stringify(body),
        }),
      );
    const started = await (
      await post('/message:send', {
        message: message('slow'),
        configuration: { returnImmediately: true },
      })
    ).json();
    const sub = await post(`/tasks/${started.task.id}:subscribe`, {});
    assert.equal((await readSse(sub, 1)).length, 1);
    const canceled = await (await post(`/tasks/${started.task.id}:cancel`, {})).json();
    assert.equal(canceled.status.state, 'TASK_STATE_CANCELED');
  });

  test('fetch adapter served through a tiny node server (the shape of a Web-standard host)', async () => {
    const agent = createAgentServer(optionsFor('full', { allowedHosts: ['127.0.0.1'] }));
    cleanups.push(() => agent.close(100));
    const handle = toFetchHandler(agent);
    const forward = async (req: IncomingMessage, res: ServerResponse) => {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method!,
        headers: req.headers as Record<string, string>,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      });
      const answer = await handle(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (!answer.body) return void res.end();
      Readable.fromWeb(answer.body as never).pipe(res);
    };
    // A failure in the bridge resets the connection, so the client sees it (not an unhandled rejection).
    const server = createServer((req, res) => {
      forward(req, res).catch((err: unknown) => res.destroy(err as Error));
    });
    const origin = await listen(server);
    await round(origin);
  });
});
