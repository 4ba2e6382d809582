/**
 * Who may start, use and push out an inspector session (issue 28.8): a session is bound to an
 * HttpOnly, SameSite=Strict cookie, only the inspector's own page starts one, anything that changes
 * something must show it came from that page, and no request from elsewhere — 40 image tags on
 * another site, a form, a page on another port of this machine — evicts the user's session.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startFixture, type Fixture } from './inspector-fixture.js';
import { PageClient } from './inspector-page-client.js';

/** A raw request as another site (or a tool) would make it; the answer's status and Set-Cookie. */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; cookie: string | undefined }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      res.resume();
      const set = res.headers['set-cookie'];
      resolve({ status: res.statusCode ?? 0, cookie: set?.[0] });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('inspector sessions', () => {
  let fx: Fixture;
  let page: PageClient;

  before(async () => {
    fx = await startFixture();
    page = new PageClient(fx.inspector.url);
    const opened = await page.call('/api/card', { agent: fx.agentUrl });
    assert.equal(opened.status, 200);
  });
  after(() => fx?.close());

  it('binds the session to an HttpOnly, SameSite=Strict cookie set by the page’s first call only', async () => {
    const fresh = new PageClient(fx.inspector.url);
    const res = await fetch(new URL('/api/state', fx.inspector.url), {
      headers: { 'x-a2a-inspector': 'page' },
    });
    await res.body?.cancel();
    const set = res.headers.get('set-cookie') ?? '';
    assert.match(set, /^a2a_inspector_\d+=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    // Loading the page itself needs no session and starts none.
    const html = await raw(fx.inspector.url, 'GET', '/');
    assert.equal(html.status, 200);
    assert.equal(html.cookie, undefined);
    // A known session is not given a new cookie.
    await fresh.call('/api/state');
    const again = await fetch(new URL('/api/state', fx.inspector.url), {
      headers: { cookie: fresh.cookie },
    });
    await again.body?.cancel();
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('set-cookie'), null);
  });

  it('40 cross-site GETs without an Origin neither start sessions nor evict the user’s', async () => {
    const shapes: Array<[string, Record<string, string>]> = [
      ['/', {}],
      ['/api/state', {}],
      ['/api/state', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }],
      ['/api/events', { 'sec-fetch-site': 'cross-site' }],
      ['/app/main.js', { 'sec-fetch-site': 'cross-site' }],
      ['/api/agents', { 'sec-fetch-site': 'same-site' }],
      ['/api/wire', {}],
      ['/favicon.svg', {}],
    ];
    for (let i = 0; i < 40; i++) {
      const [path, headers] = shapes[i % shapes.length]!;
      const r = await raw(fx.inspector.url, 'GET', path, headers);
      assert.equal(r.cookie, undefined, `GET ${path} started a session`);
      if (path.startsWith('/api/')) assert.equal(r.status, 403, `GET ${path} was answered`);
    }
    // The user's session still has its agent open (its client, its credentials, its wire log).
    const list = await page.call('/api/tasks/list', { agent: fx.agentUrl });
    assert.equal(list.status, 200, JSON.stringify(list.json));
    const wire = await page.call<unknown[]>('/api/wire');
    assert.ok(wire.json.length > 0, 'the wire log is kept');
  });

  it('a request with a foreign Origin never starts a session', async () => {
    for (let i = 0; i < 40; i++) {
      const r = await raw(fx.inspector.url, 'GET', '/api/state', {
        'sec-fetch-site': 'cross-site',
        origin: 'http://attacker.example',
      });
      assert.equal(r.status, 403);
      assert.equal(r.cookie, undefined);
    }
    assert.equal((await page.call('/api/tasks/list', { agent: fx.agentUrl })).status, 200);
  });

  it('refuses a state-changing request that does not show it came from the page', async () => {
    const port = new URL(fx.inspector.url).port;
    const body = JSON.stringify({ agent: fx.agentUrl });
    const json = { 'content-type': 'application/json', cookie: page.cookie };
    const cases: Array<[string, Record<string, string>]> = [
      ['no Origin, no page header', json],
      ['another port of this machine', { ...json, origin: 'http://127.0.0.1:1' }],
      ['another site', { ...json, origin: 'http://attacker.example' }],
      ['a same-site page', { ...json, 'sec-fetch-site': 'same-site' }],
      ['a top-level form post', { ...json, 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [what, headers] of cases) {
      const r = await raw(fx.inspector.url, 'POST', '/api/wire/clear', headers, body);
      assert.equal(r.status, 403, what);
    }
    assert.ok((await page.call<unknown[]>('/api/wire')).json.length > 0, 'nothing was cleared');
    // The page itself (its Origin, as a browser sends on a POST) is accepted.
    const own = await raw(
      fx.inspector.url,
      'POST',
      '/api/card',
      { ...json, origin: `http://127.0.0.1:${port}` },
      body,
    );
    assert.equal(own.status, 200);
  });
});
