import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, isA2AError, type UnauthorizedInfo } from '../src/client/index.js';
import { applyCredentials } from '../src/client/auth.js';
import type { AgentCard, SecurityScheme } from '../src/protocol/index.js';
import {
  makeCard,
  restCard,
  rpcResult,
  sendJson,
  sseEvent,
  startServer,
  startSse,
  task,
  type Recorded,
} from './client-fixture.js';

const bearerCard = (base: string, build = makeCard): AgentCard =>
  build(base, {
    securitySchemes: { token: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { token: { list: [] } } }],
  });

/** JSON-RPC agent that only accepts `Bearer fresh`. */
const guarded = (req: Recorded, res: import('node:http').ServerResponse) => {
  if (req.headers.authorization !== 'Bearer fresh') {
    res.writeHead(401, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
      'Content-Type': 'text/plain',
    });
    return res.end('token expired');
  }
  if (req.json?.method === 'SubscribeToTask') {
    startSse(res);
    sseEvent(res, rpcResult(req.json.id, { task: task('t1', 'TASK_STATE_COMPLETED') }));
    return res.end();
  }
  sendJson(res, 200, rpcResult(req.json.id, task('t1')));
};

test('§7.3 the bearer token goes in Authorization on every call', async () => {
  const s = await startServer(guarded);
  try {
    const client = new A2AClient(bearerCard(s.url), { credentials: { token: 'fresh' } });
    await client.getTask('t1');
    for await (const _ of client.subscribeToTask('t1')) void _;
    assert.deepEqual(
      s.requests.map((r) => r.headers.authorization),
      ['Bearer fresh', 'Bearer fresh'],
    );
  } finally {
    await s.close();
  }
});

test('a 401 calls onUnauthorized once; its new credentials are used for a single retry (unary and stream)', async () => {
  const s = await startServer(guarded);
  try {
    const seen: UnauthorizedInfo[] = [];
    const client = new A2AClient(bearerCard(s.url), {
      credentials: { token: 'stale' },
      onUnauthorized: (info) => {
        seen.push(info);
        return { token: 'fresh' };
      },
    });
    assert.equal((await client.getTask('t1')).id, 't1');
    assert.deepEqual(
      s.requests.map((r) => r.headers.authorization),
      ['Bearer stale', 'Bearer fresh'],
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.status, 401);
    assert.equal(seen[0]?.challenge, 'Bearer error="invalid_token"');
    assert.deepEqual(seen[0]?.schemes, ['token']);
    // The refreshed credentials stay in use.
    await client.getTask('t1');
    assert.equal(s.requests.length, 3);

    const streamClient = new A2AClient(bearerCard(s.url), {
      credentials: { token: 'stale' },
      onUnauthorized: () => ({ token: 'fresh' }),
    });
    const events = [];
    for await (const ev of streamClient.subscribeToTask('t1')) events.push(ev);
    assert.equal(events.length, 1);
    assert.deepEqual(
      s.requests.slice(3).map((r) => r.headers.authorization),
      ['Bearer stale', 'Bearer fresh'],
    );
  } finally {
    await s.close();
  }
});

test('a 401 without a hook, or a hook that gives up, is an Unauthenticated A2AError after one request', async () => {
  const s = await startServer(guarded);
  try {
    const plain = new A2AClient(bearerCard(s.url));
    await assert.rejects(plain.getTask('t1'), (e: unknown) => {
      assert.ok(isA2AError(e));
      assert.equal(e.kind, 'Unauthenticated');
      assert.match(
        e.message,
        /requires authentication \(HTTP 401, challenge: Bearer error="invalid_token"\)/,
      );
      return true;
    });
    let calls = 0;
    const giveUp = new A2AClient(bearerCard(s.url), {
      credentials: { token: 'x' },
      onUnauthorized: () => (calls++, false),
    });
    await assert.rejects(
      giveUp.getTask('t1'),
      (e: unknown) => isA2AError(e) && e.kind === 'Unauthenticated',
    );
    assert.equal(calls, 1);
    assert.equal(s.requests.length, 2);
    // A hook whose retry fails again is not called a second time.
    let again = 0;
    const stubborn = new A2AClient(bearerCard(s.url), {
      credentials: { token: 'x' },
      onUnauthorized: () => (again++, true),
    });
    await assert.rejects(
      stubborn.getTask('t1'),
      (e: unknown) => isA2AError(e) && e.kind === 'Unauthenticated',
    );
    assert.equal(again, 1);
    assert.equal(s.requests.length, 4);
  } finally {
    await s.close();
  }
});

test('a REST 401 with a google.rpc.Status body also triggers the hook', async () => {
  const s = await startServer((req, res) =>
    req.headers.authorization === 'Bearer fresh'
      ? sendJson(res, 200, task('t1'))
      : sendJson(res, 401, {
          error: { code: 401, status: 'UNAUTHENTICATED', message: 'who are you' },
        }),
  );
  try {
    let token = 'stale';
    const client = new A2AClient(bearerCard(s.url, restCard), {
      credentials: () => token,
      onUnauthorized: () => {
        token = 'fresh';
      },
    });
    assert.equal((await client.getTask('t1')).id, 't1');
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

const schemes: Record<string, SecurityScheme> = {
  basic: { httpAuthSecurityScheme: { scheme: 'Basic' } },
  hdr: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
  qry: { apiKeySecurityScheme: { location: 'query', name: 'api_key' } },
  jar: { apiKeySecurityScheme: { location: 'cookie', name: 'session' } },
  oauth: {
    oauth2SecurityScheme: {
      flows: { clientCredentials: { tokenUrl: 'https://id.example/token', scopes: {} } },
    },
  },
};

test('§4.5 basic, API key in header/query/cookie, and OAuth 2 bearer are applied where the scheme says', async () => {
  const base = makeCard('http://x', { securitySchemes: schemes });
  const req = (names: string[]) => ({
    schemes: Object.fromEntries(names.map((n) => [n, { list: [] }])),
  });
  const basic = await applyCredentials(
    { ...base, securityRequirements: [req(['basic'])] },
    { basic: { username: 'ann', password: 'p:w' } },
  );
  assert.equal(
    basic.headers['Authorization'],
    `Basic ${Buffer.from('ann:p:w').toString('base64')}`,
  );
  const keys = await applyCredentials(
    { ...base, securityRequirements: [req(['hdr', 'qry', 'jar'])] },
    { hdr: 'k1', qry: 'k2', jar: 'k 3' },
  );
  assert.deepEqual(keys.headers, { 'X-API-Key': 'k1', Cookie: 'session=k%203' });
  assert.deepEqual(keys.query, { api_key: 'k2' });
  // The first alternative needs oauth AND hdr; without an oauth token the second alternative wins.
  const alt = await applyCredentials(
    { ...base, securityRequirements: [req(['oauth', 'hdr']), req(['qry'])] },
    { hdr: 'k1', qry: 'k2' },
  );
  assert.deepEqual(alt.schemes, ['qry']);
  assert.deepEqual(alt.headers, {});
  const oauth = await applyCredentials(
    { ...base, securityRequirements: [req(['oauth'])] },
    { bearer: 'at' },
  );
  assert.equal(oauth.headers['Authorization'], 'Bearer at');
  // A card without security schemes gets no credentials.
  assert.deepEqual((await applyCredentials(makeCard('http://x'), { bearer: 'at' })).headers, {});
});

test('an API key in the query reaches the agent on the wire', async () => {
  const s = await startServer((req, res) => sendJson(res, 200, rpcResult(req.json.id, task('t1'))));
  try {
    const card = makeCard(s.url, {
      securitySchemes: { qry: schemes['qry']! },
      securityRequirements: [{ schemes: { qry: { list: [] } } }],
    });
    await new A2AClient(card, { credentials: { apiKey: 'sekret' } }).getTask('t1');
    assert.equal(s.requests[0]?.query.get('api_key'), 'sekret');
  } finally {
    await s.close();
  }
});
