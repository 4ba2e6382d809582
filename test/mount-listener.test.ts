/**
 * The raw listener mounted without `prepare()`: it prepares itself on the first request (it used to
 * answer 404 on every path), and when it cannot — a card function and no trustworthy origin — it says
 * so in the log and answers 500 instead of a silent 404.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import express from 'express';
import { createAgentServer } from '../src/server/index.js';
import {
  bothBindings,
  closeAll,
  get,
  listenOn,
  options,
  recordingLogger,
  roundTrip,
} from './mount-fixture.js';

after(closeAll);

test('http.createServer(agent.listener) without prepare(): a card function with `origin` is built on first use', async () => {
  const http = createServer();
  const { origin } = await listenOn(http);
  const agent = createAgentServer(options({ origin }));
  http.on('request', agent.listener);
  const urls = await roundTrip(origin);
  assert.deepEqual(urls, [`${origin}/a2a/jsonrpc`, `${origin}/a2a/rest`]);
  assert.equal(agent.prepared, true);
});

test('a card object needs no origin: the listener serves it as it is, without prepare()', async () => {
  const http = createServer();
  const { origin } = await listenOn(http);
  const agent = createAgentServer(options({ card: bothBindings(origin) }));
  http.on('request', agent.listener);
  await roundTrip(origin);
});

test('Express app.use(agent.listener) without prepare(): served, and other routes still fall through', async () => {
  const agent = createAgentServer(options({ allowedHosts: ['127.0.0.1'] }));
  const app = express();
  app.use(agent.listener);
  app.get('/health', (_req, res) => void res.send('ok'));
  const { origin } = await listenOn(createServer(app));
  await roundTrip(origin);
  assert.equal(await (await get(`${origin}/health`)).text(), 'ok');
});

test('a card function with no origin: every request gets a 500 and the log says what to pass, until prepare(origin)', async () => {
  const logger = recordingLogger();
  const agent = createAgentServer(options({ logger }));
  const { origin } = await listenOn(agent.listener);
  for (const path of ['/.well-known/agent-card.json', '/a2a/jsonrpc']) {
    const r = await get(`${origin}${path}`);
    assert.equal(r.status, 500, `${path} is refused loudly, not a silent 404`);
    assert.match(
      (await r.json()).error.message,
      /no origin was given: pass `origin`/,
      'the answer says what to change',
    );
  }
  assert.equal(logger.errors.length, 1, 'logged once, not per request');
  assert.match(logger.errors[0]!, /no origin was given: pass `origin`.*allowedHosts/);
  await agent.prepare(origin);
  await roundTrip(origin);
});

test('prepare() without an origin for a card function rejects instead of inventing http://localhost', async () => {
  const agent = createAgentServer(options());
  await assert.rejects(agent.prepare(), /no origin was given/);
  assert.equal(agent.prepared, false);
  const card = await agent.prepare('http://127.0.0.1:1/base');
  assert.equal(
    card.supportedInterfaces[0]!.url,
    'http://127.0.0.1:1/base/a2a/jsonrpc',
    'a base URL with a path is the mount path',
  );
  assert.equal(agent.mountPath, '/base');
});
