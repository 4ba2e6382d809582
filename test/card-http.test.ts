import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair } from 'jose';
import { CardResponder, parseIfNoneMatch } from '../src/server/card/responder.js';
import { signAgentCard } from '../src/server/card/signing.js';
import { cardETag, servedCardBytes } from '../src/server/card/served-bytes.js';
import { fullCard } from './card-fixture.js';

const LM = new Date('2026-03-01T10:20:30.456Z');

test('§8.6.1 200: JSON body, Cache-Control max-age, ETag, Last-Modified', () => {
  const card = fullCard();
  const res = new CardResponder(card, { lastModified: LM }).respond({});
  assert.equal(res.status, 200);
  assert.deepEqual(res.headers, {
    'content-type': 'application/json',
    'cache-control': 'public, max-age=300',
    etag: cardETag(card),
    'last-modified': 'Sun, 01 Mar 2026 10:20:30 GMT',
  });
  assert.deepEqual(JSON.parse(res.body!.toString('utf8')), card);
  assert.deepEqual(res.body, servedCardBytes(card));
  assert.equal(
    new CardResponder(card, { maxAgeSeconds: 60 }).respond().headers['cache-control'],
    'public, max-age=60',
  );
});

test('body and ETag are computed once per responder, not per request', () => {
  const r = new CardResponder(fullCard());
  assert.equal(r.respond().body, r.body);
  assert.equal(r.respond().body, r.respond().body);
});

test('§8.6.2 If-None-Match with the current ETag → 304 without body or content-type', () => {
  const r = new CardResponder(fullCard(), { lastModified: LM });
  const res = r.respond({ 'if-none-match': r.etag });
  assert.equal(res.status, 304);
  assert.equal(res.body, undefined);
  assert.equal(res.headers['content-type'], undefined);
  assert.equal(res.headers.etag, r.etag);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
});

test('If-None-Match: lists, weak comparison, *, and non-matching tags', () => {
  const r = new CardResponder(fullCard());
  const status = (v: string | string[]) => r.respond({ 'if-none-match': v }).status;
  assert.equal(status(`"old", ${r.etag}`), 304);
  assert.equal(status(`W/${r.etag}`), 304, 'weak comparison ignores W/');
  assert.equal(status(['"a"', `"b", W/${r.etag}`]), 304, 'repeated header lines are one list');
  assert.equal(status('*'), 304);
  assert.equal(status('"old", W/"older"'), 200);
  assert.equal(status(''), 200);
  assert.equal(status(r.etag.slice(1, -1)), 304, 'an unquoted tag is read as if quoted');
  assert.deepEqual(parseIfNoneMatch('"a,b", W/"c" ,d'), ['"a,b"', '"c"', '"d"']);
});

test('If-Modified-Since: 304 when not modified since; ignored when invalid or when If-None-Match is present', () => {
  const r = new CardResponder(fullCard(), { lastModified: LM });
  const ims = (v: string, extra: Record<string, string> = {}) =>
    r.respond({ 'if-modified-since': v, ...extra }).status;
  assert.equal(ims('Sun, 01 Mar 2026 10:20:30 GMT'), 304, 'same second (sub-second part ignored)');
  assert.equal(ims('Mon, 02 Mar 2026 00:00:00 GMT'), 304);
  assert.equal(ims('Sun, 01 Mar 2026 10:20:29 GMT'), 200);
  assert.equal(ims('yesterday-ish'), 200);
  assert.equal(
    ims('Mon, 02 Mar 2026 00:00:00 GMT', { 'if-none-match': '"stale"' }),
    200,
    'If-None-Match decides alone when present',
  );
});

test('header sources: mixed-case plain objects, Fetch Headers; HEAD has no body', () => {
  const r = new CardResponder(fullCard());
  assert.equal(r.respond({ 'If-None-Match': r.etag }).status, 304);
  assert.equal(r.respond(new Headers({ 'If-None-Match': r.etag })).status, 304);
  const head = r.respond({}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, undefined);
  assert.equal(head.headers.etag, r.etag);
});

test('§8.6.1 re-signing changes the ETag, so cached cards are refreshed', async () => {
  const { privateKey } = await generateKeyPair('ES256');
  const card = fullCard();
  const a = await signAgentCard(card, [{ privateKey, kid: 'k1', alg: 'ES256' }]);
  const b = await signAgentCard(card, [{ privateKey, kid: 'k2', alg: 'ES256' }]);
  const ra = new CardResponder(a);
  const rb = new CardResponder(b);
  assert.notEqual(ra.etag, rb.etag);
  assert.equal(rb.respond({ 'if-none-match': ra.etag }).status, 200);
  assert.throws(() => new CardResponder(card, { maxAgeSeconds: -1 }), RangeError);
});

test('over real HTTP: a conditional GET with the stored ETag gets 304', async () => {
  const responder = new CardResponder(fullCard(), { lastModified: LM });
  const server = createServer((req, res) => {
    const out = responder.respond(req.headers, req.method === 'HEAD' ? 'HEAD' : 'GET');
    res.writeHead(out.status, { ...out.headers });
    res.end(out.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/agent-card.json`;
    const first = await fetch(url);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag')!;
    assert.deepEqual(await first.json(), fullCard());
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
    const since = await fetch(url, {
      headers: { 'if-modified-since': first.headers.get('last-modified')! },
    });
    assert.equal(since.status, 304);
    await since.arrayBuffer();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
