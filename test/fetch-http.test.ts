/**
 * HTTP semantics of the Web `Request → Response` path, with no node:http in the loop: the card and
 * its caching (ETag / 304, HEAD, 405), the push JWKS, unknown paths, body limits (declared and
 * streamed, refused without reading the rest), media types, wrong methods, parse errors, and a
 * server prepared with the first request's origin.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { PUSH_JWKS_PATH, WELL_KNOWN_CARD_PATH } from '../src/protocol/index.js';
import {
  createAgentServer,
  generatePushSigner,
  type AgentServer,
  type AgentServerOptions,
} from '../src/server/index.js';
import { toFetchHandler, type FetchHandler } from '../src/server/adapters/fetch.js';
import { H, WEB } from './fetch-fixture.js';
import { message, optionsFor } from './rest-fixture.js';

const servers: AgentServer[] = [];
after(async () => {
  for (const s of servers) await s.close(100);
});

function web(extra: Partial<AgentServerOptions> = {}, origin: string | null = WEB): FetchHandler {
  const server = createAgentServer(optionsFor('full', extra));
  servers.push(server);
  return toFetchHandler(server, origin ? { origin } : {});
}

const rpcBody = (method: string, params: unknown = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
const post = (
  h: FetchHandler,
  path: string,
  body: BodyInit,
  headers: Record<string, string> = H,
  extra: RequestInit = {},
) => h(new Request(`${WEB}${path}`, { method: 'POST', headers, body, ...extra }));

/** A request body that yields `chunks` chunks of `size` bytes, counting how many were pulled and whether it was cancelled. */
function countingBody(chunks: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (seen.pulled >= chunks) return c.close();
        seen.pulled++;
        c.enqueue(new TextEncoder().encode(seen.pulled === 1 ? '{"message":"' : 'x'.repeat(size)));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe('the agent card on the Web path', () => {
  const h = web({ cardMaxAgeSeconds: 60 });
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    h(new Request(`${WEB}${WELL_KNOWN_CARD_PATH}`, { method, headers }));

  test('§8.6.1 GET: the card with its caching headers, advertising the configured origin', async () => {
    const res = await get();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
    assert.match(res.headers.get('etag')!, /^"[^"]+"$/);
    assert.ok(res.headers.get('last-modified'));
    const card = await res.json();
    assert.equal(card.supportedInterfaces[0].url, `${WEB}/a2a/jsonrpc`);
  });

  test('conditional GETs: a matching ETag (strong, weak, in a list, or *) or an unchanged date → 304 without a body', async () => {
    const first = await get();
    const etag = first.headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get({ 'if-none-match': inm });
      assert.equal(res.status, 304, inm);
      assert.equal(res.body, null);
      assert.equal(res.headers.get('etag'), etag);
    }
    assert.equal((await get({ 'if-none-match': '"other"' })).status, 200);
    assert.equal(
      (await get({ 'if-modified-since': first.headers.get('last-modified')! })).status,
      304,
    );
    assert.equal(
      (
        await get({
          'if-none-match': '"other"',
          'if-modified-since': first.headers.get('last-modified')!,
        })
      ).status,
      200,
      'If-None-Match decides when present',
    );
  });

  test('HEAD has the headers and no body; other methods → 405 with Allow', async () => {
    const head = await get({}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const put = await h(
      new Request(`${WEB}${WELL_KNOWN_CARD_PATH}`, { method: 'PUT', body: '{}' }),
    );
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD');
  });

  test('§15.7 without an origin or allowed hosts the handler is refused at creation, never built from a Host header', () => {
    assert.throws(() => web({}, null), /origin/);
  });

  test('with allowedHosts an allowed host prepares the server with its own origin; another host gets a 400', async () => {
    const server = createAgentServer(optionsFor('full'));
    servers.push(server);
    const lazy = toFetchHandler(server, { allowedHosts: ['agent.local:8080'] });
    const evil = await lazy(new Request(`http://evil.example${WELL_KNOWN_CARD_PATH}`));
    assert.equal(evil.status, 400);
    const card = await (
      await lazy(new Request(`http://agent.local:8080${WELL_KNOWN_CARD_PATH}`))
    ).json();
    assert.equal(card.supportedInterfaces[1].url, 'http://agent.local:8080/a2a/rest');
  });
});

describe('other paths', () => {
  test('the push JWKS is served when push payloads are signed, and is a 404 otherwise', async () => {
    const signer = await generatePushSigner();
    const signed = web({ push: { policy: { allowLoopback: true }, sender: { signer } } });
    const res = await signed(new Request(`${WEB}${PUSH_JWKS_PATH}`));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/jwk-set+json');
    assert.deepEqual(await res.json(), JSON.parse(JSON.stringify(signer.publicJwks())));
    assert.equal((await web()(new Request(`${WEB}${PUSH_JWKS_PATH}`))).status, 404);
  });

  test('a path nothing serves → a JSON 404', async () => {
    const res = await web()(new Request(`${WEB}/nothing/here`));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.status, 'NOT_FOUND');
  });
});

describe('request bodies and methods', () => {
  test('a declared body over the limit → 413 on both bindings', async () => {
    const h = web({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ message: message('x'.repeat(2048)) });
    const rpc = await post(h, '/a2a/jsonrpc', rpcBody('SendMessage', JSON.parse(big)), {
      ...H,
      'content-length': '3000',
    });
    assert.equal(rpc.status, 413);
    assert.equal((await rpc.json()).error.code, -32600);
    const rest = await post(h, '/a2a/rest/message:send', big);
    assert.equal(rest.status, 413);
    assert.equal((await rest.json()).error.code, 413);
  });

  for (const path of ['/a2a/jsonrpc', '/a2a/rest/message:send']) {
    test(`${path}: a streamed body without a length is cut at the limit: 413, the rest never pulled`, async () => {
      const h = web({ maxBodyBytes: 4096 });
      const { stream, seen } = countingBody(1000, 1024);
      const res = await post(h, path, stream, H, { duplex: 'half' } as RequestInit);
      assert.equal(res.status, 413);
      assert.ok(seen.pulled < 10, `pulled ${seen.pulled} chunks`);
      assert.ok(seen.cancelled, 'the body stream was cancelled');
    });
  }

  test('a streamed body within the limit is read whole', async () => {
    const h = web();
    const text = JSON.stringify({ message: message('echo streamed body') });
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.subarray(i, i + 7));
        c.close();
      },
    });
    const res = await post(h, '/a2a/rest/message:send', body, H, { duplex: 'half' } as RequestInit);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).task.artifacts[0].parts[0].text, 'echo streamed body');
  });

  test('§9.1 media types: JSON-RPC refuses text/plain (415) and tolerates no Content-Type; HTTP+JSON refuses text/csv (415)', async () => {
    const h = web();
    assert.equal(
      (await post(h, '/a2a/jsonrpc', rpcBody('ListTasks'), { ...H, 'content-type': 'text/plain' }))
        .status,
      415,
    );
    const bare = await post(h, '/a2a/jsonrpc', new TextEncoder().encode(rpcBody('ListTasks')), {
      'a2a-version': '1.0',
    });
    assert.equal(bare.status, 200);
    assert.ok((await bare.json()).result.tasks);
    assert.equal(
      (await post(h, '/a2a/rest/message:send', 'a,b', { ...H, 'content-type': 'text/csv' })).status,
      415,
    );
  });

  test('§14.1 HTTP+JSON answers in application/a2a+json unless the client accepts only application/json', async () => {
    const h = web();
    const get = (accept?: string) =>
      h(
        new Request(`${WEB}/a2a/rest/tasks?pageSize=1`, {
          headers: { 'a2a-version': '1.0', ...(accept ? { accept } : {}) },
        }),
      );
    assert.equal((await get()).headers.get('content-type'), 'application/a2a+json');
    assert.equal((await get('application/json')).headers.get('content-type'), 'application/json');
  });

  test('§3.6.1 A2A-Version as a query parameter', async () => {
    const h = web();
    const res = await h(new Request(`${WEB}/a2a/rest/tasks?A2A-Version=1.0&pageSize=1`));
    assert.equal(res.status, 200);
  });

  test('wrong methods: GET on JSON-RPC → 405 Allow POST; a REST route with the wrong verb → 405 with its verbs', async () => {
    const h = web();
    const rpc = await h(new Request(`${WEB}/a2a/jsonrpc`, { headers: H }));
    assert.equal(rpc.status, 405);
    assert.equal(rpc.headers.get('allow'), 'POST');
    assert.equal((await rpc.json()).error.code, -32600);
    const rest = await h(new Request(`${WEB}/a2a/rest/message:send`, { headers: H }));
    assert.equal(rest.status, 405);
    assert.equal(rest.headers.get('allow'), 'POST');
    const nowhere = await h(new Request(`${WEB}/a2a/rest/no/such/route`, { headers: H }));
    assert.equal(nowhere.status, 404);
  });

  test('a body that is not JSON: JSON-RPC -32700 (HTTP 200), HTTP+JSON 400', async () => {
    const h = web();
    const rpc = await post(h, '/a2a/jsonrpc', '{not json');
    assert.equal(rpc.status, 200);
    assert.deepEqual((await rpc.json()).error.code, -32700);
    const rest = await post(h, '/a2a/rest/message:send', '{not json');
    assert.equal(rest.status, 400);
  });

  test('a unary answer is a complete Response: the host can read it after the handler returned', async () => {
    const h = web();
    const res = await post(
      h,
      '/a2a/jsonrpc',
      rpcBody('SendMessage', { message: message('echo whole') }),
    );
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(JSON.parse(text).result.task.artifacts[0].parts[0].text, 'echo whole');
  });
});
