/**
 * Issue 28.5: the first request used to pin the card. Behind Express or Fastify with
 * `allowedHosts: ['localhost']`, a stranger's `Host: localhost:1` became the origin every later client
 * was given; with Express `trust proxy`, so did a stranger's `X-Forwarded-Proto`. Now each request's
 * card is decided for that request (within `allowedHosts`) or fixed by `origin`, and forwarded headers
 * count only from a configured trusted proxy.
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { a2aExpress } from '../src/server/adapters/express.js';
import { a2aFastify } from '../src/server/adapters/fastify.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';
import { MAX_ORIGIN_SITES } from '../src/server/mount/mount.js';
import { BOUND_MS, agentMaker, bothBindings, listenOn } from './mount-fixture.js';

const CARD = '/.well-known/agent-card.json';
const agent = agentMaker();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET `path` with headers of our choosing (fetch does not let a caller set Host). */
function get(origin: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, timeout: BOUND_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** The first interface URL of the card a client sending `headers` is given. */
async function cardUrl(origin: string, headers: Record<string, string>): Promise<string> {
  const r = await get(origin, CARD, headers);
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { supportedInterfaces: Array<{ url: string }> })
    .supportedInterfaces[0]!.url;
}

/** A stranger's `Host: localhost:1` first, then a client on the real port: each is told its own origin. */
async function strangerFirst(origin: string): Promise<void> {
  const port = new URL(origin).port;
  assert.equal(await cardUrl(origin, { host: 'localhost:1' }), 'http://localhost:1/a2a/jsonrpc');
  assert.equal(
    await cardUrl(origin, { host: `localhost:${port}` }),
    `http://localhost:${port}/a2a/jsonrpc`,
    'the second client is told its own origin, not the stranger’s',
  );
  assert.equal(await cardUrl(origin, { host: 'localhost:1' }), 'http://localhost:1/a2a/jsonrpc');
}

test('28.5 Express with allowedHosts: a stranger’s first Host does not become everyone’s origin', async () => {
  const app = express();
  app.use(a2aExpress(agent(), { allowedHosts: ['localhost'] }));
  await strangerFirst((await listenOn(createServer(app))).origin);
});

test('28.5 Fastify with allowedHosts: a stranger’s first Host does not become everyone’s origin', async () => {
  const app = Fastify();
  after(() => app.close());
  await app.register(a2aFastify(agent(), { allowedHosts: ['localhost'] }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  await strangerFirst(`http://127.0.0.1:${port}`);
});

test('28.5 the raw listener with the server’s allowedHosts: the same', async () => {
  await strangerFirst((await listenOn(agent({ allowedHosts: ['localhost'] }).listener)).origin);
});

test('28.5 the fetch adapter with allowedHosts: the same', async () => {
  const handle = toFetchHandler(agent({ allowedHosts: ['agent.test'] }));
  const url = async (origin: string) =>
    (await (await handle(new Request(`${origin}${CARD}`))).json()).supportedInterfaces[0]
      .url as string;
  assert.equal(await url('http://agent.test:1'), 'http://agent.test:1/a2a/jsonrpc');
  assert.equal(await url('https://agent.test'), 'https://agent.test/a2a/jsonrpc');
});

test('28.5 Express `trust proxy`: a stranger’s X-Forwarded-Proto/Host are ignored without trustedProxies', async () => {
  const app = express();
  app.set('trust proxy', true);
  app.use(a2aExpress(agent(), { allowedHosts: ['localhost', 'public.example'] }));
  const { origin, port } = await listenOn(createServer(app));
  const forged = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' };
  const local = `http://localhost:${port}/a2a/jsonrpc`;
  assert.equal(await cardUrl(origin, { host: `localhost:${port}`, ...forged }), local);
  assert.equal(await cardUrl(origin, { host: `localhost:${port}` }), local);
});

test('28.5 forwarded headers count from a trusted proxy, per request, and the forwarded host must be allowed', async () => {
  const trusted = agent({
    allowedHosts: ['localhost', 'public.example'],
    trustedProxies: ['127.0.0.1/8', '::1'],
  });
  const { origin, port } = await listenOn(trusted.listener);
  const host = `localhost:${port}`;
  const viaProxy = { host, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' };
  assert.equal(await cardUrl(origin, viaProxy), 'https://public.example/a2a/jsonrpc');
  assert.equal(await cardUrl(origin, { host }), `http://${host}/a2a/jsonrpc`, 'not pinned');
  // The nearest proxy's value is the last one: what the client put before it does not count.
  const chained = { ...viaProxy, 'x-forwarded-proto': 'https, http' };
  assert.equal(await cardUrl(origin, chained), 'http://public.example/a2a/jsonrpc');
  const foreign = await get(origin, CARD, { host, 'x-forwarded-host': 'evil.example' });
  assert.equal(foreign.status, 400, 'a forwarded host outside allowedHosts is refused like a Host');
  assert.doesNotMatch(foreign.body, /supportedInterfaces/);

  const elsewhere = agent({
    allowedHosts: ['localhost', 'public.example'],
    trustedProxies: ['10.0.0.1'],
  });
  const other = await listenOn(elsewhere.listener);
  const otherHost = `localhost:${other.port}`;
  assert.equal(
    await cardUrl(other.origin, { ...viaProxy, host: otherHost }),
    `http://${otherHost}/a2a/jsonrpc`,
    'headers from an address that is not a trusted proxy are ignored',
  );
});

test('28.5 a card per origin: its own ETag, so one origin’s validator never revalidates another’s card', async () => {
  const { origin, port } = await listenOn(agent({ allowedHosts: ['localhost'] }).listener);
  const one = await get(origin, CARD, { host: 'localhost:1' });
  const etag = one.headers.etag as string;
  assert.ok(etag, 'the card has an ETag');
  const same = await get(origin, CARD, { host: 'localhost:1', 'if-none-match': etag });
  assert.equal(same.status, 304);
  const other = await get(origin, CARD, { host: `localhost:${port}`, 'if-none-match': etag });
  assert.equal(other.status, 200, 'another origin’s card is not “not modified”');
  assert.notEqual(other.headers.etag, etag);
});

test(`28.5 many origins (an allowed host on any port): at most ${MAX_ORIGIN_SITES} cards are kept, each still right`, async () => {
  let calls = 0;
  const a = agent({
    allowedHosts: ['localhost'],
    card: (base) => {
      calls++;
      return bothBindings(base);
    },
  });
  const { origin } = await listenOn(a.listener);
  const ports = Array.from({ length: MAX_ORIGIN_SITES + 6 }, (_, i) => 2000 + i);
  for (const p of ports) {
    assert.equal(
      await cardUrl(origin, { host: `localhost:${p}` }),
      `http://localhost:${p}/a2a/jsonrpc`,
    );
  }
  assert.equal(calls, ports.length, 'one card per origin');
  assert.equal(
    await cardUrl(origin, { host: 'localhost:2000' }),
    'http://localhost:2000/a2a/jsonrpc',
  );
  assert.equal(
    calls,
    ports.length + 1,
    'the oldest was dropped, and is built again when asked for',
  );
  assert.equal(
    await cardUrl(origin, { host: `localhost:${ports.at(-1)}` }),
    `http://localhost:${ports.at(-1)}/a2a/jsonrpc`,
  );
  assert.equal(calls, ports.length + 1, 'a recent one is kept');
});
