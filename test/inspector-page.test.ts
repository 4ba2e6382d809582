/**
 * The inspector in a real browser (Debian's Chromium through playwright-core) against a real agent:
 * the card view, a streamed message on the timeline, a task that asks for input answered, a task
 * canceled, a stream picked up after a reload with Last-Event-ID, the tasks view, the extended card
 * with masked credentials, and a narrow window. Screenshots go to .tmp-inspector/ (not committed).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserMissing, launch, type Browser } from './inspector-browser.js';
import { startFixture, TOKEN, type Fixture } from './inspector-fixture.js';

const skip = browserMissing();

describe('inspector page in Chromium', { skip }, () => {
  let fx: Fixture;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    fx = await startFixture();
    browser = await launch();
    page = browser.page;
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      // A 502 is an agent's error relayed on purpose (the extended card refused without a token).
      if (msg.type() === 'error' && !/status of 502/.test(msg.text()))
        errors.push(`console: ${msg.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  const timeline = () => page.locator('#timeline');
  async function newConversation(): Promise<void> {
    await page.goto(fx.inspector.link(fx.agentUrl, 'talk'));
    await page.locator('#talk-agent', { hasText: 'inspector-fixture' }).waitFor();
    if (await page.locator('#btn-new').isVisible()) await page.click('#btn-new');
  }

  it('opens an agent from ?agent= and lays out its card', async (t) => {
    await page.goto(fx.inspector.link(fx.agentUrl));
    await page.locator('#card-name', { hasText: 'inspector-fixture' }).waitFor();
    assert.match((await page.locator('#card-from').textContent()) ?? '', /network/);
    // Reported, not asserted: how long the page takes from the local server (a fresh browser, then a reload).
    const timing = () =>
      page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return `${Math.round(n.loadEventEnd)} ms to load (DOMContentLoaded ${Math.round(n.domContentLoadedEventEnd)} ms)`;
      });
    t.diagnostic(`first visit: ${await timing()}`);
    await page.reload();
    await page.locator('#card-name', { hasText: 'inspector-fixture' }).waitFor();
    t.diagnostic(`reload: ${await timing()}`);

    const chosen = page.locator('tr.chosen');
    assert.match((await chosen.textContent()) ?? '', /\[0\]JSONRPC1\.0.*\/a2a\/jsonrpc.*✓ chosen/);
    assert.match((await page.locator('tr').nth(2).textContent()) ?? '', /HTTP\+JSON.*fallback/);
    assert.match((await page.locator('p.why').textContent()) ?? '', /chose \[0\] JSONRPC 1\.0/);
    assert.equal(await page.locator('#sig-status').textContent(), 'not signed');
    assert.equal(await page.locator('#cap-streaming').textContent(), 'yes');
    const caching = (await page.locator('#card-caching').locator('..').textContent()) ?? '';
    assert.match(caching, /cache-control\s*public, max-age=300/);
    assert.match(caching, /etag/);
    const skills = (await page.locator('.skills').textContent()) ?? '';
    assert.match(skills, /Report.*report.*measure the build/s);
    assert.match(skills, /Paint.*ask me/s);
    assert.match(
      (await page.locator('#card-from').textContent()) ?? '',
      /cache/,
      'after the reload, the client’s cache answered',
    );
    await page.screenshot({ path: path.join(fx.shots, 'card.png'), fullPage: true });

    // Opened again: the client's cache answers; revalidating asks the agent, which answers 304.
    await page.click('text=Revalidate card');
    await page.locator('#card-from', { hasText: 'revalidated' }).waitFor();
  });

  it('every control has a label, and the views are reachable by keyboard', async () => {
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea')]
        .filter(
          (el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute('aria-label'),
        )
        .map((el) => el.id || el.outerHTML.slice(0, 60)),
    );
    assert.deepEqual(unlabeled, []);
    await page.goto(fx.inspector.link(fx.agentUrl));
    await page.locator('#card-name').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Skip to the content',
    );
    await page.focus('nav a[href="#tasks"]');
    await page.keyboard.press('Enter');
    await page.locator('#view-tasks').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'h-tasks');
  });

  it('streams a message and shows each event on the timeline', async () => {
    await newConversation();
    await page.fill('#msg-text', 'measure the build');
    await page.click('#composer button[value="stream"]');
    await timeline().locator('.state-completed').waitFor();
    await page.locator('.tl-note', { hasText: 'the stream ended' }).waitFor();
    const states = await timeline().locator('.state').allTextContents();
    assert.equal(states[0], 'SUBMITTED', 'the task comes first');
    assert.ok(states.includes('WORKING'));
    assert.equal(states.at(-1), 'COMPLETED');
    const text = (await timeline().textContent()) ?? '';
    assert.match(text, /You → SendStreamingMessage/);
    for (const s of [
      'Step 1 of 2: measuring',
      'Artifact report',
      'All 3 checks passed.',
      'Artifact metrics',
      'Done: 3 checks, 0 failed.',
    ])
      assert.ok(text.includes(s), s);
    // JSON pretty-printed and foldable, the image shown, the zip offered as a download.
    assert.ok(
      await timeline().locator('details.json-node summary', { hasText: '"nested"' }).count(),
    );
    const width = await timeline()
      .locator('img[alt="chart.png"]')
      .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
    assert.equal(width, 16);
    assert.equal(
      await timeline().locator('a[download="logs.zip"]').textContent(),
      'Download logs.zip (16 B)',
    );
    await page.screenshot({ path: path.join(fx.shots, 'talk-stream.png'), fullPage: true });

    // The wire view has the exchange with its SSE events, and a curl command for it.
    await page.click('nav a[href="#wire"]');
    const ex = page.locator('details.wire-ex[data-operation="SendStreamingMessage"]').first();
    await ex.locator('summary').click();
    assert.match(
      (await ex.locator('pre.wire-body').last().textContent()) ?? '',
      /^id: .*\ndata: \{"jsonrpc":"2.0"/m,
    );
    assert.match(
      (await ex.locator('pre.curl').textContent()) ?? '',
      /^curl -N -X POST 'http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc'/,
    );
  });

  it('continues a task that asks for input', async () => {
    await newConversation();
    await page.fill('#msg-text', 'ask me');
    await page.click('#composer button[value="send"]');
    await timeline().locator('.state-input-required').waitFor();
    assert.match((await timeline().textContent()) ?? '', /Which colour should it be\?/);
    assert.ok(
      await page.locator('#msg-continue').isChecked(),
      'the answer goes to the waiting task',
    );
    assert.match(
      (await page.locator('#continue-label').textContent()) ?? '',
      /Answer task \w{8} \(it is input required\)/,
    );
    await page.fill('#msg-text', 'blue');
    await page.click('#composer button[value="stream"]');
    await timeline().locator('.state-completed').waitFor();
    assert.match((await timeline().textContent()) ?? '', /You chose blue\..*Painted it blue\./s);
    assert.equal(await page.locator('#task-state').textContent(), 'COMPLETED');
  });

  it('cancels a task', async () => {
    await newConversation();
    await page.fill('#msg-text', 'wait for me');
    await page.click('#composer button[value="stream"]');
    await timeline().locator('.state-working').waitFor();
    await page.click('#btn-cancel');
    await page.locator('#task-state .state-canceled').waitFor();
    await timeline().locator('.tl-note', { hasText: 'CancelTask → CANCELED' }).waitFor();
    assert.ok(
      await page.locator('#btn-cancel').isDisabled(),
      'a canceled task cannot be canceled again',
    );
  });

  it('picks a stream up again after a reload, from the last event id', async () => {
    await newConversation();
    await page.fill('#msg-text', 'wait again');
    await page.click('#composer button[value="stream"]');
    await timeline().locator('.state-working').waitFor();
    const seen = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('a2a-inspector-talk') ?? '{}').lastEventId as string,
    );
    assert.ok(seen, 'the page remembers the last event id');
    await page.reload();
    await timeline()
      .locator('.tl-note', { hasText: `picked up after a reload: SubscribeToTask` })
      .waitFor();
    assert.match((await timeline().textContent()) ?? '', new RegExp(`with Last-Event-ID ${seen}`));
    await page.click('#btn-cancel');
    await timeline().locator('.state-canceled').first().waitFor();
    await page.click('nav a[href="#wire"]');
    const sub = page.locator('details.wire-ex[data-operation="SubscribeToTask"]').first();
    await sub.locator('summary').click();
    assert.match(
      (await sub.locator('pre.headers').first().textContent()) ?? '',
      new RegExp(`last-event-id: ${seen}`, 'i'),
    );
  });

  it('lists tasks with filters and opens one with its history and artifacts', async () => {
    await page.click('nav a[href="#tasks"]');
    await page.selectOption('#f-status', 'TASK_STATE_COMPLETED');
    await page.fill('#f-size', '1');
    await page.click('#tasks-form button[type="submit"]');
    await page.locator('#tasks-list caption', { hasText: 'Page 1' }).waitFor();
    assert.match(
      (await page.locator('#tasks-list caption').textContent()) ?? '',
      /Page 1 · 2 task\(s\) in all · page size 1/,
    );
    await page.click('text=Next page →');
    await page.locator('#tasks-list caption', { hasText: 'Page 2' }).waitFor();
    await page.locator('#tasks-list tbody button').first().click();
    await page.locator('#task-detail-title').waitFor();
    const detail = (await page.locator('#task-detail').textContent()) ?? '';
    assert.match(detail, /History \(\d+\)/);
    assert.match(detail, /Artifacts \([1-9]\)/);
    await page.locator('#push-configs', { hasText: 'none' }).waitFor();
    await page.screenshot({ path: path.join(fx.shots, 'tasks.png'), fullPage: true });
  });

  it('asks for credentials for the extended card and never shows them', async () => {
    await page.goto(fx.inspector.link(fx.agentUrl));
    await page.locator('#card-name').waitFor();
    await page.click('#extended-card');
    await page.locator('#status.error', { hasText: 'Unauthenticated' }).waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'cred-0',
      'the credentials field has the focus',
    );
    await page.fill('#cred-0', TOKEN);
    await page.click('text=Use them and get the extended card');
    await page.locator('.skill', { hasText: 'Admin' }).waitFor();
    assert.match(
      (await page.locator('.skill', { hasText: 'Admin' }).textContent()) ?? '',
      /extended card only/,
    );
    assert.match((await page.locator('#card-from').textContent()) ?? '', /extended card/);
    await page.click('nav a[href="#wire"]');
    // Newest first: the call with the token, then the one refused without it.
    const ext = page.locator('details.wire-ex[data-operation="GetExtendedAgentCard"]').first();
    await ext.locator('summary').click();
    assert.match(
      (await ext.locator('pre.headers').first().textContent()) ?? '',
      /authorization: Bearer ••••••••/,
    );
    assert.match(
      (await ext.locator('pre.curl').textContent()) ?? '',
      /"authorization: Bearer \$A2A_CREDENTIAL"/,
    );
    await page.screenshot({ path: path.join(fx.shots, 'wire.png'), fullPage: true });
    const html = await page.content();
    assert.ok(!html.includes(TOKEN), 'the token is nowhere in the page');
    const stored = await page.evaluate(
      () =>
        JSON.stringify(Object.entries(sessionStorage)) +
        JSON.stringify(Object.entries(localStorage)) +
        document.cookie,
    );
    assert.ok(!stored.includes(TOKEN), 'nor in the browser’s storage');
  });

  it('shows the kit pipeline that a program publishes', async () => {
    const ix = fx.inspector;
    ix.publish({ type: 'run', title: 'change-ok → production' });
    ix.publish({ type: 'stage', id: 'discovery', title: 'Discovery' });
    ix.publish({
      type: 'agent',
      name: 'deployer',
      url: fx.agentUrl,
      interface: '[0] JSONRPC 1.0',
      streaming: 'no',
      push: 'yes',
      auth: 'bearer',
    });
    await page.goto(ix.link(undefined, 'kit'));
    await page.locator('.kit-agent', { hasText: 'deployer' }).waitFor();
    ix.publish({ type: 'stage', id: 'deploy', title: 'Deploy', agent: 'deployer' });
    ix.publish({
      type: 'state',
      state: 'INPUT_REQUIRED',
      taskId: 'bf80e343',
      text: 'Reply confirm',
      via: 'push',
    });
    ix.publish({
      type: 'confirm',
      agent: 'deployer',
      question: 'Reply confirm to deploy?',
      answer: 'confirm',
    });
    ix.publish({ type: 'state', state: 'COMPLETED', taskId: 'bf80e343', via: 'push' });
    ix.publish({ type: 'outcome', ok: true, text: 'change-ok is live' });
    await page.locator('.kit-outcome.ok', { hasText: '✔ change-ok is live' }).waitFor();
    assert.match(
      (await page.locator('.kit-step', { hasText: 'Deploy' }).textContent()) ?? '',
      /COMPLETED/,
    );
    assert.match(
      (await page.locator('.confirm').textContent()) ?? '',
      /deployer asks: .*Reply confirm to deploy\?.*Planner: confirm/s,
    );
    await page.click('text=Inspect deployer');
    await page.locator('#card-name', { hasText: 'inspector-fixture' }).waitFor();
  });

  it('fits a narrow window', async () => {
    await page.setViewportSize({ width: 380, height: 800 });
    await page.goto(fx.inspector.link(fx.agentUrl));
    await page.locator('#card-name').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await page.screenshot({ path: path.join(fx.shots, 'card-narrow.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('raised no error in the page', () => {
    assert.deepEqual(errors, []);
  });
});
