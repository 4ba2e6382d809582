/**
 * The inspector's page in Chromium with the peers of inspector-peers.ts: a 0.3 card (badge, findings)
 * and a conversation with an @a2a-js/sdk 0.3.14 agent, and an agent with gRPC first — custom headers
 * typed in the card view and message metadata typed in the composer reach it, and the wire view shows
 * its calls as method, metadata and decoded messages with a grpcurl command.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startInspector, type Inspector } from 'a2a-kit/inspector';
import { browserMissing, launch, type Browser } from './inspector-browser.js';
import { startGrpcPeer, startSdk03Peer, type Peer } from './inspector-peers.js';

const skip = browserMissing();

describe('inspector page with 0.3 and gRPC peers (Chromium)', { skip }, () => {
  let inspector: Inspector;
  let browser: Browser;
  let page: Page;
  let sdk03: Peer;
  let grpc: Awaited<ReturnType<typeof startGrpcPeer>>;
  const errors: string[] = [];

  before(async () => {
    [sdk03, grpc] = await Promise.all([startSdk03Peer(), startGrpcPeer()]);
    inspector = await startInspector({ port: 0, agents: [] });
    browser = await launch();
    page = browser.page;
    page.on('pageerror', (err) => errors.push(err.message));
  });
  after(async () => {
    await browser?.close();
    await inspector?.close();
    await sdk03?.close();
    await grpc?.close();
  });

  it('shows a 0.3 card as such and talks to the 0.3 agent', async () => {
    await page.goto(inspector.link(sdk03.origin));
    await page.locator('#card-v03').waitFor();
    assert.match((await page.locator('tr.chosen').textContent()) ?? '', /JSONRPC0\.3/);
    assert.match(
      (await page.locator('#card-findings-list').textContent()) ?? '',
      /A2A 0\.3 card .*§3\.6\.3/,
    );
    await page.click('nav a[href="#talk"]');
    await page.fill('#msg-text', 'from the page');
    await page.click('#composer button[value="stream"]');
    await page.locator('#timeline .state-completed').waitFor();
    assert.match((await page.locator('#timeline').textContent()) ?? '', /0\.3 heard from the page/);
  });

  it('sends custom headers and metadata to a gRPC agent and shows the call decoded', async () => {
    await page.goto(inspector.link(grpc.origin));
    await page.locator('#card-name', { hasText: 'grpc-peer' }).waitFor();
    await page.fill('#headers-input', 'X-Tenant: acme\nX-Api-Token: tok-55821');
    await page.click('.headers-form button[type="submit"]');
    // Saved, the card view is drawn again with the headers the server holds.
    await page.waitForFunction(() =>
      (document.getElementById('headers-input') as HTMLTextAreaElement | null)?.value.includes('•'),
    );
    assert.equal(
      await page.locator('#headers-input').inputValue(),
      'x-tenant: acme\nx-api-token: ••••••••',
      'the secret header comes back masked',
    );

    await page.click('nav a[href="#talk"]');
    await page.fill('#msg-text', 'hello grpc');
    await page.fill('#msg-metadata', '{"trace": "t-1"}');
    await page.click('#composer button[value="send"]');
    await page.locator('#timeline .state-completed').waitFor();
    assert.equal(grpc.seen.tenant.at(-1), 'acme');
    assert.deepEqual(grpc.seen.metadata.at(-1), { trace: 't-1' });
    assert.match((await page.locator('#timeline').textContent()) ?? '', /metadata.*"trace"/s);

    await page.click('nav a[href="#wire"]');
    const ex = page.locator('details.wire-ex[data-operation="SendMessage"]').first();
    await ex.locator('summary').click();
    const text = (await ex.textContent()) ?? '';
    assert.match(text, /SendMessage gRPC OK/);
    assert.match(text, /\/lf\.a2a\.v1\.A2AService\/SendMessage/);
    assert.match(text, /Metadata.*a2a-version: 1\.0.*x-tenant: acme.*x-api-token: ••••••••/s);
    assert.match(text, /Request message \(decoded\).*"hello grpc"/s);
    assert.match(text, /Response message \(decoded\).*"TASK_STATE_COMPLETED"/s);
    assert.match((await ex.locator('pre.curl').textContent()) ?? '', /^grpcurl -plaintext/);
    assert.ok(!(await page.content()).includes('tok-55821'), 'the token is nowhere in the page');
    assert.deepEqual(errors, []);
  });
});
