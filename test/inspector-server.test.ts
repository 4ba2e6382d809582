/**
 * The inspector's server without a browser: who may drive it (Host, Origin, JSON only), credentials
 * masked everywhere the page can look (wire log, curl, push configs), the card's caching as the
 * client sees it, the page's event channel resuming from Last-Event-ID, and the agent picker.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { startInspector } from 'a2a-kit/inspector';
import { curlCommand, Masker, maskRules, MASK } from '../src/inspector/mask.js';
import { MAX_CONNECTIONS } from '../src/inspector/server.js';
import { startFixture, TOKEN, type Fixture } from './inspector-fixture.js';
import { PageClient } from './inspector-page-client.js';

/** A raw request with a Host header of our choosing (fetch does not let one set it). */
function rawGet(base: string, path: string, host: string): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('inspector server', () => {
  let fx: Fixture;
  let page: PageClient;

  before(async () => {
    fx = await startFixture();
    page = new PageClient(fx.inspector.url);
  });
  after(() => fx?.close());

  it('answers only its own page: loopback Host names, same Origin, JSON bodies', async () => {
    const port = new URL(fx.inspector.url).port;
    assert.equal(await rawGet(fx.inspector.url, '/', `127.0.0.1:${port}`), 200);
    assert.equal(await rawGet(fx.inspector.url, '/', `localhost:${port}`), 200);
    assert.equal(
      await rawGet(fx.inspector.url, '/api/state', `attacker.example:${port}`),
      421,
      'DNS rebinding is refused',
    );
    const foreign = await page.call(
      '/api/card',
      { agent: fx.agentUrl },
      { origin: 'http://attacker.example' },
    );
    assert.equal(foreign.status, 403);
    const form = await fetch(new URL('/api/card', fx.inspector.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: page.cookie },
      body: '{}',
    });
    assert.equal(form.status, 403, 'a POST that does not show it came from the page is refused');
    const text = await fetch(new URL('/api/card', fx.inspector.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: page.cookie, 'x-a2a-inspector': 'page' },
      body: '{}',
    });
    assert.equal(text.status, 400, 'a body a foreign form could send is not accepted');
    assert.match(
      ((await text.json()) as { error: { message: string } }).error.message,
      /Content-Type: application\/json/,
    );
  });

  it('reports the card with the client’s choice, the signature and the caching it came with', async () => {
    const first = await page.call('/api/card', { agent: `${fx.agentUrl}/` });
    assert.equal(first.status, 200);
    assert.equal(first.json.from, 'network');
    assert.equal(first.json.agent, fx.agentUrl, 'a trailing slash names the same agent');
    assert.deepEqual(
      first.json.interfaces.map((i: any) => [i.binding, i.chosen]),
      [
        ['JSONRPC', true],
        ['HTTP+JSON', false],
      ],
    );
    assert.equal(first.json.signature.status, 'not signed');
    assert.equal(first.json.cache['cache-control'], 'public, max-age=300');
    assert.equal((await page.call('/api/card', { agent: fx.agentUrl })).json.from, 'cache');
    assert.equal(
      (await page.call('/api/card', { agent: fx.agentUrl, revalidate: true })).json.from,
      'revalidated',
    );
    const bad = await page.call('/api/card', { agent: 'not a url' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error.message, /not an absolute URL/);
  });

  it('keeps credentials on the server: masked in the wire log, the curl command and push configs', async () => {
    const refused = await page.call('/api/card/extended', { agent: fx.agentUrl });
    assert.equal(refused.status, 502);
    assert.equal(refused.json.error.kind, 'Unauthenticated');
    const set = await page.call('/api/credentials', {
      agent: fx.agentUrl,
      values: { token: TOKEN },
    });
    assert.deepEqual(
      set.json.credentials.map((c: any) => [c.scheme, c.held]),
      [['token', true]],
    );
    assert.ok(!JSON.stringify(set.json).includes(TOKEN));
    const ext = await page.call('/api/card/extended', { agent: fx.agentUrl });
    assert.ok(ext.json.card.skills.some((s: any) => s.id === 'admin'));
    assert.deepEqual(ext.json.publicSkills, ['report', 'paint']);
    const kept = await page.call('/api/credentials', {
      agent: fx.agentUrl,
      values: { token: { keep: true } },
    });
    assert.equal(kept.json.credentials[0].held, true, '"keep" keeps what the page never saw');
    const typo = await page.call('/api/credentials', { agent: fx.agentUrl, values: { tokn: 'x' } });
    assert.equal(typo.status, 400);

    // A push config with a token of its own, registered by another client of the same caller.
    const direct = await A2AClient.connect(fx.agentUrl, {
      credentials: { token: TOKEN },
      cache: false,
    });
    const sent = await direct.sendMessage({ message: userMessage('ask me') });
    assert.ok('task' in sent);
    await direct.createPushNotificationConfig({
      taskId: sent.task.id,
      url: 'http://127.0.0.1:9/hook',
      token: 'hook-secret-123',
    });
    const configs = await page.call('/api/tasks/push-configs', {
      agent: fx.agentUrl,
      taskId: sent.task.id,
    });
    assert.equal(configs.json.configs[0].token, MASK);

    const wire = JSON.stringify((await page.call('/api/wire')).json);
    assert.ok(!wire.includes(TOKEN), 'the bearer token is not in the wire log');
    assert.ok(!wire.includes('hook-secret-123'), 'nor the webhook token in a response body');
    assert.match(wire, /Bearer ••••••••/);
    assert.match(wire, /\\"authorization: Bearer \$A2A_CREDENTIAL\\"/);
  });

  it('streams to the page over its event channel, which resumes after the last id it saw', async () => {
    const state = await page.call('/api/state');
    const streamId = 'stream-1';
    const started = await page.call('/api/talk', {
      agent: fx.agentUrl,
      mode: 'stream',
      parts: [{ text: 'measure' }],
      streamId,
    });
    assert.equal(started.json.streamId, streamId);
    const events = await page.events(
      String(state.json.after),
      (type, d) => type === 'talk-end' && d.streamId === streamId,
    );
    const talk = events.filter((e) => e.type === 'talk');
    assert.ok('task' in talk[0]!.data.event, 'the task comes first');
    assert.equal(talk.at(-1)!.data.event.statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    assert.ok(
      talk.every((e) => typeof e.data.eventId === 'string'),
      'each event carries the agent’s event id',
    );
    assert.ok(events.some((e) => e.type === 'wire' && e.data.operation === 'SendStreamingMessage'));
    // Reconnecting with Last-Event-ID replays what came after it, and nothing before.
    const middle = talk[2]!;
    const again = await page.events(
      '0',
      (type, d) => type === 'talk-end' && d.streamId === streamId,
      middle.id,
    );
    assert.ok(again.every((e) => Number(e.id) > Number(middle.id)));
    assert.equal(again.filter((e) => e.type === 'talk').length, talk.length - 3);
  });

  it('refuses bad messages with the field at fault', async () => {
    const none = await page.call('/api/talk', { agent: fx.agentUrl, mode: 'send', parts: [] });
    assert.equal(none.status, 400);
    const two = await page.call('/api/talk', {
      agent: fx.agentUrl,
      mode: 'send',
      parts: [{ text: 'a', data: {} }],
    });
    assert.match(two.json.error.message, /parts\[0\] needs exactly one of text, raw, url, data/);
    const status = await page.call('/api/tasks/list', { agent: fx.agentUrl, status: 'DONE' });
    assert.match(status.json.error.message, /status must be a TASK_STATE_/);
  });

  it('offers the agents it was given, saying which answer', async () => {
    const ix = await startInspector({ port: 0, agents: [fx.agentUrl, 'http://127.0.0.1:9'] });
    try {
      const r = await new PageClient(ix.url).call('/api/agents');
      assert.deepEqual(
        r.json.map((a: any) => [a.up, a.name]),
        [
          [true, 'inspector-fixture'],
          [false, undefined],
        ],
      );
      assert.match(
        ix.link('http://localhost:41241', 'talk'),
        /\/\?agent=http%3A%2F%2Flocalhost%3A41241#talk$/,
      );
    } finally {
      await ix.close();
    }
  });

  it('bounds its connections: past MAX_CONNECTIONS a new one is closed at once, and it serves again after', async () => {
    const u = new URL(fx.inspector.url);
    const sockets = Array.from({ length: MAX_CONNECTIONS + 20 }, () =>
      connect(Number(u.port), u.hostname),
    );
    const closed = sockets.map(
      (s) =>
        new Promise<boolean>((resolve) =>
          s.once('close', () => resolve(true)).on('error', () => undefined),
        ),
    );
    await new Promise((r) => setTimeout(r, 500));
    const gone = await Promise.all(closed.map((c) => Promise.race([c, Promise.resolve(false)])));
    const open = gone.filter((g) => !g).length;
    assert.ok(open <= MAX_CONNECTIONS, `${open} connections held open`);
    assert.ok(gone.filter(Boolean).length >= 20, `${gone.filter(Boolean).length} closed`);
    for (const s of sockets) s.destroy();
    await Promise.all(closed);
    const port = u.port;
    assert.equal(await rawGet(fx.inspector.url, '/', `127.0.0.1:${port}`), 200);
  });

  it('says when its port is taken', async () => {
    await assert.rejects(startInspector({ port: Number(new URL(fx.inspector.url).port) }), {
      code: 'EADDRINUSE',
    });
  });
});

describe('inspector masking and curl', () => {
  it('masks credentials wherever the card says they go', () => {
    const m = new Masker(() =>
      maskRules(
        { key: 's3cr3t-key', basic: { username: 'ann', password: 'pw-9876' } },
        ['X-Api-Key'],
        ['api_key'],
      ),
    );
    assert.equal(m.header('authorization', 'Bearer abc.def'), `Bearer ${MASK}`);
    assert.equal(m.header('x-api-key', 'whatever'), MASK);
    assert.equal(m.header('accept', 'application/json'), 'application/json');
    assert.equal(m.url('http://h/a?api_key=s3cr3t-key&x=1'), `http://h/a?api_key=${MASK}&x=1`);
    assert.equal(m.text(`auth ${Buffer.from('ann:pw-9876').toString('base64')}`), `auth ${MASK}`);
    assert.equal(
      m.text('{"url":"http://x","token":"abc"}'),
      `{"url":"http://x","token":"${MASK}"}`,
    );
  });

  it('writes a curl command a shell runs as it is', () => {
    const cmd = curlCommand({
      method: 'POST',
      url: 'http://127.0.0.1:1/a2a/jsonrpc',
      headers: [
        ['content-type', 'application/json'],
        ['authorization', `Bearer ${MASK}`],
        ['content-length', '9'],
      ],
      body: `{"q":"it's"}`,
      streaming: true,
    });
    assert.equal(
      cmd,
      [
        `curl -N -X POST 'http://127.0.0.1:1/a2a/jsonrpc' \\`,
        `  -H 'content-type: application/json' \\`,
        `  -H "authorization: Bearer $A2A_CREDENTIAL" \\`,
        `  --data-raw '{"q":"it'\\''s"}'`,
      ].join('\n'),
    );
  });
});
