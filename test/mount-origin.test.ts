/**
 * Host-header poisoning (issue 15.7): a card that is a function of its URL is never built from a Host
 * header nobody checked. Without `origin` or `allowedHosts` the adapters refuse at mount time; with
 * `allowedHosts`, a first request for `Host: evil.example` gets a 400 and the card keeps our host.
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, test } from 'node:test';
import express, { type ErrorRequestHandler } from 'express';
import Fastify from 'fastify';

import { a2aExpress } from '../src/server/adapters/express.js';
import { a2aFastify } from '../src/server/adapters/fastify.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';
import { BOUND_MS, agentMaker, listenOn } from './mount-fixture.js';

const agent = agentMaker();

/** GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  origin: string,
  path: string,
  host: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers: { host }, timeout: BOUND_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

const CARD = '/.well-known/agent-card.json';
const errorsAsJson: ErrorRequestHandler = (err: Error & { status?: number }, _req, res, _next) => {
  res.status(err.status ?? 500).json({ message: err.message });
};

/** The poisoning attempt first, then a legitimate request: the card must carry only the legitimate host. */
async function poisonThenLegit(origin: string): Promise<void> {
  const evil = await getWithHost(origin, CARD, 'evil.example');
  assert.equal(evil.status, 400, evil.body);
  assert.doesNotMatch(evil.body, /"supportedInterfaces"/);
  const good = await getWithHost(origin, CARD, new URL(origin).host);
  assert.equal(good.status, 200, good.body);
  const card = JSON.parse(good.body);
  assert.equal(card.supportedInterfaces[0].url, `${origin}/a2a/jsonrpc`);
  const again = await getWithHost(origin, CARD, 'evil.example:80');
  assert.equal(again.status, 400, 'a Host outside the list stays refused after the card is built');
}

test('15.7 adapters without origin or allowedHosts refuse at mount time instead of trusting the first Host', () => {
  const message = /no origin was given: pass `origin`.*`allowedHosts`.*Host header/;
  assert.throws(() => a2aExpress(agent()), message);
  assert.throws(() => a2aFastify(agent()), message);
  assert.throws(() => toFetchHandler(agent()), message);
});

test('15.7 Express with allowedHosts: Host: evil.example first gets 400 and does not poison the card', async () => {
  const app = express();
  app.use(a2aExpress(agent(), { allowedHosts: ['127.0.0.1'] }));
  app.use(errorsAsJson);
  await poisonThenLegit((await listenOn(createServer(app))).origin);
});

test('15.7 Fastify with allowedHosts: Host: evil.example first gets 400 and does not poison the card', async () => {
  const app = Fastify();
  after(() => app.close());
  await app.register(a2aFastify(agent(), { allowedHosts: ['127.0.0.1'] }));
  const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(
    'localhost',
    '127.0.0.1',
  );
  await poisonThenLegit(origin);
});

test('15.7 raw listener with the server’s allowedHosts: the same rule', async () => {
  await poisonThenLegit((await listenOn(agent({ allowedHosts: ['127.0.0.1'] }).listener)).origin);
});

test('15.7 fetch adapter with the server’s allowedHosts: a foreign Host never reaches the card', async () => {
  const handle = toFetchHandler(agent({ allowedHosts: ['agent.test'] }));
  const evil = await handle(new Request(`http://evil.example${CARD}`)).catch((e: unknown) => e);
  assert.ok(!(evil instanceof Response && evil.ok), 'refused');
  const good = await handle(new Request(`http://agent.test${CARD}`));
  assert.equal((await good.json()).supportedInterfaces[0].url, 'http://agent.test/a2a/jsonrpc');
});

test('15.7 with an explicit origin, the Host header never shapes the card', async () => {
  const app = express();
  app.use(a2aExpress(agent(), { origin: 'https://agent.example.com' }));
  const { origin } = await listenOn(createServer(app));
  const first = await getWithHost(origin, CARD, 'evil.example');
  assert.equal(
    JSON.parse(first.body).supportedInterfaces[0].url,
    'https://agent.example.com/a2a/jsonrpc',
  );
});

test('15.7 listen() with allowedHosts answers only those hosts (DNS rebinding)', async () => {
  const a = agent({ allowedHosts: ['127.0.0.1', 'localhost'] });
  const origin = await a.listen(0);
  assert.equal((await getWithHost(origin, CARD, 'rebound.example')).status, 400);
  assert.equal((await getWithHost(origin, CARD, `localhost:${new URL(origin).port}`)).status, 200);
});

test('allowedHosts entries: a bare host allows any port, host:port one port; malformed Host values never match', async () => {
  const { hostAllowed } = await import('../src/server/mount/origin-policy.js');
  assert.equal(hostAllowed('Agent.Example.com:8443', ['agent.example.com']), true);
  assert.equal(hostAllowed('localhost:3001', ['localhost:3000']), false);
  assert.equal(hostAllowed('[::1]:3000', ['[::1]']), true);
  for (const bad of [
    undefined,
    '',
    'evil.example/x',
    'a@agent.example.com',
    'agent.example.com extra',
  ]) {
    assert.equal(hostAllowed(bad, ['agent.example.com']), false, String(bad));
  }
});
