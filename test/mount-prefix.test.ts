/**
 * Prefix mounts: Express `app.use('/reporter', …)` and Fastify `register(…, { prefix })`. The card
 * must advertise URLs below the prefix and the server must answer exactly those; our own client
 * discovers the card at the prefix and calls what it advertises over both bindings. (Before, the card
 * was served under the prefix but advertised root URLs that answered 404.)
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import express, { type ErrorRequestHandler } from 'express';
import Fastify from 'fastify';
import { createAgentServer, silentLogger } from '../src/server/index.js';
import { a2aExpress } from '../src/server/adapters/express.js';
import { a2aFastify } from '../src/server/adapters/fastify.js';
import { bothBindings, closeAll, get, listenOn, options, roundTrip } from './mount-fixture.js';

after(closeAll);

/** Turns errors passed to `next` into a JSON 500 (instead of Express printing them to stderr). */
const errorsAsJson: ErrorRequestHandler = (err: Error & { status?: number }, _req, res, _next) => {
  res.status(err.status ?? 500).json({ message: err.message });
};

test('Express app.use("/reporter", a2aExpress(server, { origin })): the card advertises and the server serves /reporter/…', async () => {
  const app = express();
  const { origin } = await listenOn(createServer(app));
  app.use('/reporter', a2aExpress(createAgentServer(options()), { origin }));
  app.get('/health', (_req, res) => void res.send('ok'));
  const urls = await roundTrip(`${origin}/reporter`);
  assert.deepEqual(urls, [`${origin}/reporter/a2a/jsonrpc`, `${origin}/reporter/a2a/rest`]);
  assert.equal(
    (await get(`${origin}/.well-known/agent-card.json`)).status,
    404,
    'nothing of the agent at the root',
  );
  assert.equal((await get(`${origin}/a2a/rest/tasks/x`)).status, 404);
  assert.equal(await (await get(`${origin}/health`)).text(), 'ok');
});

test('Express app.use("/reporter", agent.listener): the raw listener takes the mount path too', async () => {
  const app = express();
  app.use('/reporter', createAgentServer(options({ allowedHosts: ['127.0.0.1'] })).listener);
  const { origin } = await listenOn(createServer(app));
  const urls = await roundTrip(`${origin}/reporter`);
  assert.deepEqual(urls, [`${origin}/reporter/a2a/jsonrpc`, `${origin}/reporter/a2a/rest`]);
});

test('Express under a prefix with a card object whose URLs are outside it: refused, naming the entry', async () => {
  const app = express();
  const { origin } = await listenOn(createServer(app));
  // The configuration error is logged on purpose; the line would be noise here.
  const agent = createAgentServer(options({ card: bothBindings(origin), logger: silentLogger }));
  app.use('/reporter', a2aExpress(agent));
  app.use(errorsAsJson);
  const r = await get(`${origin}/reporter/.well-known/agent-card.json`);
  assert.equal(r.status, 500);
  assert.match(
    (await r.json()).message,
    /supportedInterfaces\[0\] \(JSONRPC at http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc\) is outside the mount path \/reporter/,
  );
});

test('Fastify register(a2aFastify(server), { prefix: "/reporter" }): advertised and served below the prefix', async () => {
  const app = Fastify();
  app.get('/health', async () => 'ok');
  await app.register(a2aFastify(createAgentServer(options()), { allowedHosts: ['127.0.0.1'] }), {
    prefix: '/reporter',
  });
  const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(
    'localhost',
    '127.0.0.1',
  );
  after(() => app.close());
  const urls = await roundTrip(`${origin}/reporter`);
  assert.deepEqual(urls, [`${origin}/reporter/a2a/jsonrpc`, `${origin}/reporter/a2a/rest`]);
  assert.equal(await (await get(`${origin}/health`)).text(), 'ok');
});

test('Fastify with a prefix and a card object outside it: register() rejects at start, naming the entry', async () => {
  const app = Fastify();
  after(() => app.close());
  const agent = createAgentServer(options({ card: bothBindings('http://127.0.0.1:8080') }));
  await assert.rejects(async () => {
    await app.register(a2aFastify(agent), { prefix: '/reporter' });
  }, /supportedInterfaces\[0\] \(JSONRPC at http:\/\/127\.0\.0\.1:8080\/a2a\/jsonrpc\) is outside the mount path \/reporter/);
});

test('Fastify: a server already prepared at the root refuses to be registered under a prefix', async () => {
  const agent = createAgentServer(options());
  await agent.prepare('http://127.0.0.1:8080');
  const app = Fastify();
  after(() => app.close());
  await assert.rejects(async () => {
    await app.register(a2aFastify(agent), { prefix: '/reporter' });
  }, /prepared for the mount path "" .* under "\/reporter"/);
});

test('Express: a listener prepared for the root, then mounted under /reporter, refuses instead of advertising root URLs', async () => {
  const app = express();
  const { origin } = await listenOn(createServer(app));
  // The configuration error is logged on purpose; the line would be noise here.
  const agent = createAgentServer(options({ logger: silentLogger }));
  await agent.prepare(origin);
  app.use('/reporter', agent.listener);
  app.use(errorsAsJson);
  const r = await get(`${origin}/reporter/.well-known/agent-card.json`);
  assert.equal(r.status, 500);
  assert.match((await r.json()).message, /prepared for the mount path "" .* under "\/reporter"/);
});
