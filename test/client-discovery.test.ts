import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CardCache,
  discoverAgentCard,
  resolveAgentCard,
  isA2AClientError,
} from '../src/client/index.js';
import { wellKnownCardUrl } from '../src/client/discovery.js';
import { makeCard, sendJson, startServer, type TestServer } from './client-fixture.js';

const CARD_PATH = '/.well-known/agent-card.json';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function withServer(
  handler: Parameters<typeof startServer>[0],
  fn: (s: TestServer) => Promise<void>,
) {
  const s = await startServer(handler);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

test('§8.2 the card is fetched from <base>/.well-known/agent-card.json exactly, with A2A-Version', async () => {
  await withServer(
    (req, res) =>
      req.path === CARD_PATH ? sendJson(res, 200, makeCard('http://x')) : sendJson(res, 404, {}),
    async (s) => {
      const card = await resolveAgentCard(`${s.url}/`, { cache: false });
      assert.equal(card.name, 'test-agent');
      assert.equal(s.requests.length, 1);
      assert.equal(s.requests[0]?.url, CARD_PATH);
      assert.equal(s.requests[0]?.headers['a2a-version'], '1.0');
    },
  );
});

test('wellKnownCardUrl keeps a path prefix, drops query, rejects non-URLs', () => {
  assert.equal(wellKnownCardUrl('http://h:1'), `http://h:1${CARD_PATH}`);
  assert.equal(wellKnownCardUrl('http://h:1/agents/a/?x=1'), `http://h:1/agents/a${CARD_PATH}`);
  assert.equal(wellKnownCardUrl(`http://h:1${CARD_PATH}`), `http://h:1${CARD_PATH}`);
  assert.throws(
    () => wellKnownCardUrl('localhost:41241'),
    (e) => isA2AClientError(e) && e.code === 'INVALID_ARGUMENT',
  );
});

test('§8.6.2 a card with max-age and ETag is reused while fresh, revalidated with If-None-Match when stale; 304 renews it', async () => {
  const c = clock();
  const cache = new CardCache({ now: c.now });
  const etag = '"v1"';
  await withServer(
    (req, res) => {
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ETag: etag, 'Cache-Control': 'max-age=120' });
        res.end();
        return;
      }
      sendJson(res, 200, makeCard('http://x'), { ETag: etag, 'Cache-Control': 'max-age=60' });
    },
    async (s) => {
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'network');
      c.advance(59_000);
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'cache');
      assert.equal(s.requests.length, 1);

      c.advance(2_000); // stale now
      const again = await discoverAgentCard(s.url, { cache });
      assert.equal(again.from, 'revalidated');
      assert.equal(again.card.name, 'test-agent');
      assert.equal(s.requests.length, 2);
      assert.equal(s.requests[1]?.headers['if-none-match'], etag);

      // The 304 said max-age=120: the card is fresh for another 120 s from now.
      c.advance(119_000);
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'cache');
      c.advance(2_000);
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'revalidated');
      assert.equal(s.requests.length, 3);
    },
  );
});

test('§8.6.2 Last-Modified is sent back as If-Modified-Since', async () => {
  const c = clock();
  const cache = new CardCache({ now: c.now });
  const lm = 'Wed, 01 Jan 2025 00:00:00 GMT';
  await withServer(
    (req, res) => {
      if (req.headers['if-modified-since'] === lm) {
        res.writeHead(304);
        res.end();
        return;
      }
      sendJson(res, 200, makeCard('http://x'), {
        'Last-Modified': lm,
        'Cache-Control': 'max-age=10',
      });
    },
    async (s) => {
      await resolveAgentCard(s.url, { cache });
      c.advance(11_000);
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'revalidated');
      assert.equal(s.requests[1]?.headers['if-modified-since'], lm);
      assert.equal(s.requests[1]?.headers['if-none-match'], undefined);
    },
  );
});

test('§8.6.2 without caching headers the default freshness applies; no-store is never cached; no-cache always revalidates', async () => {
  const c = clock();
  const cache = new CardCache({ now: c.now, defaultMaxAgeMs: 30_000 });
  const mode: Record<string, string | undefined> = {
    '/plain': undefined,
    '/nostore': 'no-store',
    '/nocache': 'no-cache',
  };
  await withServer(
    (req, res) => {
      const prefix = req.path.replace(CARD_PATH, '');
      if (req.headers['if-none-match'] === '"n"') {
        res.writeHead(304);
        res.end();
        return;
      }
      const cc = mode[prefix];
      sendJson(res, 200, makeCard('http://x'), {
        ...(cc ? { 'Cache-Control': cc } : {}),
        ETag: '"n"',
      });
    },
    async (s) => {
      const count = (p: string) => s.requests.filter((r) => r.path.startsWith(p)).length;
      await resolveAgentCard(`${s.url}/plain`, { cache });
      c.advance(29_000);
      await resolveAgentCard(`${s.url}/plain`, { cache });
      assert.equal(count('/plain'), 1);
      c.advance(2_000);
      await resolveAgentCard(`${s.url}/plain`, { cache });
      assert.equal(count('/plain'), 2);

      await resolveAgentCard(`${s.url}/nostore`, { cache });
      const second = await discoverAgentCard(`${s.url}/nostore`, { cache });
      assert.equal(second.from, 'network');
      assert.equal(count('/nostore'), 2);
      assert.equal(
        s.requests.filter((r) => r.path.startsWith('/nostore'))[1]?.headers['if-none-match'],
        undefined,
      );

      await resolveAgentCard(`${s.url}/nocache`, { cache });
      assert.equal((await discoverAgentCard(`${s.url}/nocache`, { cache })).from, 'revalidated');
      assert.equal(count('/nocache'), 2);
    },
  );
});

test('Age is subtracted from max-age', async () => {
  const c = clock();
  const cache = new CardCache({ now: c.now });
  await withServer(
    (_req, res) =>
      sendJson(res, 200, makeCard('http://x'), { 'Cache-Control': 'max-age=60', Age: '50' }),
    async (s) => {
      await resolveAgentCard(s.url, { cache });
      c.advance(11_000);
      assert.equal((await discoverAgentCard(s.url, { cache })).from, 'network');
    },
  );
});

test('an invalid card fails with CARD_INVALID naming each problem', async () => {
  const bad = {
    ...makeCard('http://x'),
    supportedInterfaces: [{ url: 'not a url', protocolBinding: 'JSONRPC' }],
  };
  await withServer(
    (_req, res) => sendJson(res, 200, bad),
    async (s) => {
      await assert.rejects(resolveAgentCard(s.url, { cache: false }), (e: unknown) => {
        assert.ok(isA2AClientError(e));
        assert.equal(e.code, 'CARD_INVALID');
        assert.match(e.message, /supportedInterfaces\[0\]\.url/);
        assert.match(e.message, /supportedInterfaces\[0\]\.protocolVersion/);
        return true;
      });
    },
  );
});

test('a 404, a non-JSON body and a refused connection each get an actionable error', async () => {
  await withServer(
    (req, res) => {
      if (req.path.startsWith('/html')) {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>hello</html>');
      } else sendJson(res, 404, { error: 'nope' });
    },
    async (s) => {
      await assert.rejects(resolveAgentCard(s.url, { cache: false }), (e: unknown) => {
        assert.ok(isA2AClientError(e) && e.code === 'CARD_FETCH_FAILED' && e.status === 404);
        assert.match(e.message, /well-known\/agent-card\.json/);
        return true;
      });
      await assert.rejects(resolveAgentCard(`${s.url}/html`, { cache: false }), (e: unknown) => {
        assert.ok(isA2AClientError(e) && e.code === 'CARD_INVALID');
        assert.match(e.message, /not JSON \(text\/html\)/);
        return true;
      });
    },
  );
  const gone = await startServer(() => undefined);
  const url = gone.url;
  await gone.close();
  await assert.rejects(
    resolveAgentCard(url, { cache: false, retry: { retries: 0 } }),
    (e: unknown) => {
      assert.ok(isA2AClientError(e) && e.code === 'NETWORK');
      assert.match(e.message, /ECONNREFUSED.*is the agent running/);
      return true;
    },
  );
});

test('a card fetch is retried after 503', async () => {
  let n = 0;
  await withServer(
    (_req, res) =>
      n++ === 0
        ? sendJson(res, 503, {}, { 'Retry-After': '0' })
        : sendJson(res, 200, makeCard('http://x')),
    async (s) => {
      const card = await resolveAgentCard(s.url, { cache: false, retry: { baseDelayMs: 1 } });
      assert.equal(card.name, 'test-agent');
      assert.equal(s.requests.length, 2);
    },
  );
});

test('{ cardUrl } and { card } sources; a card given inline is validated too', async () => {
  await withServer(
    (_req, res) => sendJson(res, 200, makeCard('http://x')),
    async (s) => {
      await resolveAgentCard({ cardUrl: `${s.url}/custom/card.json` }, { cache: false });
      assert.equal(s.requests[0]?.path, '/custom/card.json');
    },
  );
  const d = await discoverAgentCard({ card: makeCard('http://x') });
  assert.equal(d.from, 'inline');
  await assert.rejects(
    discoverAgentCard({ card: { name: 1 } }),
    (e: unknown) => isA2AClientError(e) && e.code === 'CARD_INVALID',
  );
});

test('a verify hook that throws rejects the card with CARD_SIGNATURE_INVALID and nothing is cached', async () => {
  const cache = new CardCache();
  await withServer(
    (_req, res) => sendJson(res, 200, makeCard('http://x'), { 'Cache-Control': 'max-age=60' }),
    async (s) => {
      await assert.rejects(
        resolveAgentCard(s.url, {
          cache,
          verify: () => {
            throw new Error('untrusted key');
          },
        }),
        (e: unknown) =>
          isA2AClientError(e) &&
          e.code === 'CARD_SIGNATURE_INVALID' &&
          /untrusted key/.test(e.message),
      );
      assert.equal(cache.get(wellKnownCardUrl(s.url)), undefined);
    },
  );
});

test('a card served from a shared cache is still checked against the trust of each caller', async () => {
  const cache = new CardCache();
  await withServer(
    (_req, res) => sendJson(res, 200, makeCard('http://x'), { 'Cache-Control': 'max-age=600' }),
    async (s) => {
      await resolveAgentCard(s.url, { cache });
      await assert.rejects(
        discoverAgentCard(s.url, { cache, trust: { keys: [], requireSignature: true } }),
        (e: unknown) =>
          isA2AClientError(e) &&
          e.code === 'CARD_SIGNATURE_INVALID' &&
          /unsigned|signature/i.test(e.message),
      );
      assert.equal(s.requests.length, 1);
    },
  );
});

test('§8.4.3 a signed card verifies against a trusted key; a tampered one is rejected', async () => {
  const { generateKeyPair } = await import('jose');
  const { signAgentCard } = await import('../src/server/index.js');
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const signed = await signAgentCard(makeCard('http://x'), [
    { kid: 'k1', alg: 'ES256', privateKey },
  ]);
  const trust = { keys: [{ kid: 'k1', key: publicKey }], requireSignature: true };
  assert.equal((await discoverAgentCard({ card: signed }, { trust })).card.name, 'test-agent');
  await assert.rejects(
    discoverAgentCard({ card: { ...signed, name: 'impostor' } }, { trust }),
    (e: unknown) => isA2AClientError(e) && e.code === 'CARD_SIGNATURE_INVALID',
  );
});
