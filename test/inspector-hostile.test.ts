/**
 * The inspector in front of an agent nobody vetted (issue 29), and of web pages that are not its own
 * (issue 28.8): HTML and terminal escapes in every peer string render as visible text, a card without
 * end and an event over the client's limit are cut with a clear error, silence times out with a clear
 * message, an endless stream keeps the page bounded, and another site's page neither reaches the API
 * nor pushes the user's session out. In Chromium where the page matters, through the API elsewhere.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { startInspector, type Inspector } from 'a2a-kit/inspector';
import { browserMissing, launch, type Browser } from './inspector-browser.js';
import { startHostileAgent } from './inspector-hostile-agent.js';
import { PageClient } from './inspector-page-client.js';

/** What an ESC and a right-to-left override look like on the page. */
const SHOWN =
  /<img src=x onerror="window.__owned=1"><b>bold<\/b>\\u\{1b\}\]0;owned\\u\{7\}\\u\{1b\}\[2J\\u\{202e\}evil/;

describe('inspector in front of a hostile agent', () => {
  let inspector: Inspector;
  let agent: Awaited<ReturnType<typeof startHostileAgent>>;
  let page: PageClient;

  before(async () => {
    agent = await startHostileAgent();
    inspector = await startInspector({ port: 0, agents: [], timeoutMs: 1500 });
    page = new PageClient(inspector.url);
  });
  after(async () => {
    await inspector?.close();
    await agent?.close();
  });

  it('cuts a card without end at the client’s limit and says so', async (t) => {
    // Its own inspector, with time for 10 MiB of card on a loaded machine (the others time out fast).
    const patient = await startInspector({ port: 0, agents: [], timeoutMs: 60_000 });
    t.after(() => patient.close());
    const own = new PageClient(patient.url);
    const r = await own.call('/api/card', { agent: agent.url('hugecard') });
    assert.equal(r.status, 502);
    assert.match(r.json.error.message, /10 MiB|10485760|too large|larger than/i);
    const wire = (await own.call<any[]>('/api/wire')).json.at(-1);
    assert.ok(wire.responseBody.length <= 512 * 1024, 'the wire log keeps 512 KiB of it');
    assert.equal(wire.truncated, true);
  });

  it('times out on silence with a clear message', async () => {
    const r = await page.call('/api/card', { agent: agent.url('silent') });
    assert.equal(r.status, 502);
    assert.equal(r.json.error.code, 'TIMEOUT');
    assert.match(r.json.error.message, /1500 ms/);
  });

  it('ends a stream whose event is over the client’s limit, saying why', async () => {
    const url = agent.url('bigevent');
    assert.equal((await page.call('/api/card', { agent: url })).status, 200);
    const state = await page.call('/api/state');
    await page.call('/api/talk', {
      agent: url,
      mode: 'stream',
      parts: [{ text: 'x' }],
      streamId: 'b',
    });
    const events = await page.events(
      String(state.json.after),
      (type, d) => type === 'talk-end' && d.streamId === 'b',
    );
    const end = events.at(-1)!;
    assert.equal(end.type, 'talk-end');
    assert.match(end.data.error, /MiB|bytes|too large|limit/i);
  });
});

const skip = browserMissing();

describe('inspector page in front of a hostile agent (Chromium)', { skip }, () => {
  let inspector: Inspector;
  let agent: Awaited<ReturnType<typeof startHostileAgent>>;
  let browser: Browser;
  let tab: Page;
  let attacker: Server;
  let attackerPort = 0;

  before(async () => {
    agent = await startHostileAgent();
    inspector = await startInspector({ port: 0, host: '127.0.0.1', agents: [] });
    browser = await launch();
    tab = browser.page;
    // Another site's page: 40 image tags at the inspector's API, and a form-like POST.
    const target = inspector.url.replace('/127.0.0.1:', '/localhost:').replace(/\/$/, '');
    const html = `<!doctype html><body>${Array.from(
      { length: 40 },
      (_, i) => `<img src="${target}/api/state?i=${i}"><img src="${target}/?i=${i}">`,
    ).join('')}<script>
      fetch('${target}/api/wire/clear', { method: 'POST', mode: 'no-cors', credentials: 'include',
        headers: { 'content-type': 'text/plain' }, body: '{}' }).finally(() => { document.title = 'done'; });
    </script></body>`;
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerPort = (attacker.address() as AddressInfo).port;
  });
  after(async () => {
    await browser?.close();
    await inspector?.close();
    await agent?.close();
    await new Promise<void>((r) => (attacker ? attacker.close(() => r()) : r()));
  });

  const owned = () => tab.evaluate(() => (window as { __owned?: unknown }).__owned);

  it('renders HTML, escapes and bidi overrides in every peer string as visible text', async () => {
    await tab.goto(`${inspector.url}?agent=${encodeURIComponent(agent.url('evil'))}`);
    await tab.locator('#card-name', { hasText: 'Evil' }).waitFor();
    const body = tab.locator('#card-body');
    assert.match((await tab.locator('#card-name').textContent()) ?? '', SHOWN);
    for (const text of [`desc `, `org `, `Skill `, `try `, 'urn:'])
      assert.ok(((await body.textContent()) ?? '').includes(text), text);
    assert.equal(await body.locator('img[src="x"], b').count(), 0, 'no markup from the agent');
    assert.equal(await owned(), undefined);
    assert.equal(
      await body.locator('a', { hasText: 'org ' }).getAttribute('href'),
      null,
      'a javascript: link is no link',
    );
    // The skill declares empty modes: no lone arrow.
    const skill = tab.locator('.skill');
    assert.equal(await skill.locator('.modes').count(), 0);
    assert.ok(!((await skill.textContent()) ?? '').includes('→'));
    assert.ok((await tab.locator('#card-findings-list .finding').count()) > 0);
    const html = await tab.content();
    assert.ok(
      !html.includes('\u001b') && !html.includes('\u202e'),
      'no raw ESC or RLO in the page',
    );
  });

  it('keeps the page bounded on an endless stream, every event shown as text', async () => {
    await tab.goto(`${inspector.url}?agent=${encodeURIComponent(agent.url('evil'))}#talk`);
    await tab.locator('#talk-agent', { hasText: 'Evil' }).waitFor();
    await tab.fill('#msg-text', 'go');
    await tab.click('#composer button[value="stream"]');
    await tab.locator('.tl-note', { hasText: 'the stream ended' }).waitFor({ timeout: 60_000 });
    const entries = await tab.locator('#timeline > li').count();
    assert.ok(entries <= 501, `${entries} entries`);
    assert.match(
      (await tab.locator('.tl-dropped').textContent()) ?? '',
      /\d+ earlier entries dropped/,
    );
    assert.match((await tab.locator('#timeline').textContent()) ?? '', /step 1199 <img src=x/);
    assert.equal(await tab.locator('#timeline img[src="x"], #timeline b').count(), 0);
    await tab.fill('#msg-text', 'once');
    await tab.click('#composer button[value="send"]');
    await tab.locator('.part-caption', { hasText: 'f<img' }).first().waitFor();
    assert.equal(await owned(), undefined);
    const html = await tab.content();
    assert.ok(
      !html.includes('\u001b') && !html.includes('\u202e'),
      'no raw ESC or RLO in the page',
    );
  });

  it('§28.8 another site’s page neither reaches the API nor evicts the session', async () => {
    await tab.goto(`${inspector.url}?agent=${encodeURIComponent(agent.url('evil'))}#wire`);
    await tab.locator('#wire-count', { hasText: /[1-9]\d* exchange/ }).waitFor();
    const before = await tab.locator('#wire-count').textContent();
    for (const host of ['localhost', '127.0.0.1']) {
      await tab.goto(`http://${host}:${attackerPort}/`);
      await tab.waitForFunction(() => document.title === 'done');
    }
    await tab.goto(`${inspector.url}?agent=${encodeURIComponent(agent.url('evil'))}#wire`);
    await tab.locator('#card-from').waitFor({ state: 'attached' });
    assert.match(
      (await tab.locator('#card-from').textContent()) ?? '',
      /cache/,
      'the session (and its agent’s card cache) is still there',
    );
    assert.equal(await tab.locator('#wire-count').textContent(), before, 'nothing was cleared');
  });
});
