/**
 * The server side of issue 16 against real servers on 127.0.0.1:0: the version is checked first on
 * every binding (§3.6.2); an agent with `compat: { v03: true }` serves its card in both forms (each
 * signed on its own, `Vary: A2A-Version`) and its extended card over 0.3; bad input gets an error saying
 * which version was understood and what was wrong; 0.3 and 1.0 webhooks of one task each get their own
 * bodies; and an agent without compat is exactly a 1.0 agent.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import {
  A2AClient,
  isA2AClientError,
  verifyAgentCard,
  type CardTrust,
} from '../src/client/index.js';
import { createAgentServer, type CardSigningKey } from '../src/server/index.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import { V03AwarePushConfigStore, V03_WEBHOOK } from '../src/server/compat/push.js';
import { V03Registrations } from '../src/server/compat/registrations.js';
import { cardFromV03 } from '../src/protocol/v03/card.js';
import { closeAll, startWebhook, track } from './push-fixture.js';
import {
  compatCard,
  echoOrWait,
  msg03,
  msg10,
  rpcRaw,
  startCompatAgent,
} from './compat-fixture.js';

afterEach(closeAll);

const V10 = { 'a2a-version': '1.0' };
const V03 = { 'a2a-version': '0.3' };

/** The card an agent serves for these request headers. */
async function cardAs(origin: string, headers: Record<string, string>): Promise<any> {
  return (await fetch(`${origin}/.well-known/agent-card.json`, { headers })).json();
}

async function plainAgent() {
  const server = createAgentServer({ executor: echoOrWait, card: (o) => compatCard(o) });
  const origin = await server.listen(0);
  return track({ origin, server, close: () => server.close(500) });
}

describe('§3.6.2 the version comes first, on every binding (1.0-only agent)', () => {
  test('JSON-RPC: message/send without A2A-Version → -32009 VersionNotSupported, not -32601', async () => {
    const a = await plainAgent();
    const r = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'message/send',
      { message: msg03('hi') },
      {},
      5,
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.id, 5);
    assert.equal(r.body.error.code, -32009);
    assert.match(
      r.body.error.message,
      /no A2A-Version, which means 0\.3 \(§3\.6\.2\); this interface speaks only 1\.0/,
    );
    // A method that exists in no version at all is still a version error when the version is wrong.
    assert.equal(
      (await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'NoSuchMethod', {}, { 'a2a-version': '2.0' })).body
        .error.code,
      -32009,
    );
  });

  test('JSON-RPC: a 0.3 method name sent as 1.0 → -32601 naming its 1.0 name', async () => {
    const a = await plainAgent();
    const r = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'message/send',
      { message: msg10('hi') },
      V10,
    );
    assert.equal(r.body.error.code, -32601);
    assert.match(r.body.error.message, /message\/send is the A2A 0\.3 name of SendMessage/);
  });

  test('HTTP+JSON: a 0.3 route, an unknown route and a 1.0 route without A2A-Version → 400 VERSION_NOT_SUPPORTED', async () => {
    const a = await plainAgent();
    for (const [method, p] of [
      ['POST', '/v1/message:send'],
      ['GET', '/no/such/route'],
      ['GET', '/tasks'],
    ] as const) {
      const res = await fetch(`${a.origin}/a2a/rest${p}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      assert.equal(res.status, 400, `${method} ${p}`);
      const body = await res.json();
      assert.equal(body.error.details[0].reason, 'VERSION_NOT_SUPPORTED');
    }
    // The query parameter counts as the version too (§3.6.1).
    assert.equal((await fetch(`${a.origin}/a2a/rest/tasks?A2A-Version=1.0`)).status, 200);
  });
});

describe('bad input gets an error naming the version understood and what was wrong', () => {
  test('a mix of 0.3 and 1.0 shapes read as 0.3 (no header) → -32602 naming each 1.0 spelling', async () => {
    const a = track(await startCompatAgent());
    const r = await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'message/send', {
      message: { kind: 'message', messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    assert.equal(r.body.error.code, -32602);
    assert.match(r.body.error.message, /read as A2A 0\.3 because it has no A2A-Version header/);
    assert.match(r.body.error.message, /message\.role: is "ROLE_USER", the A2A 1\.0 spelling/);
    assert.match(
      r.body.error.message,
      /message\.parts\[0\]\.kind: is missing; a part with "text" and no "kind" is the A2A 1\.0 shape/,
    );
    assert.deepEqual(
      r.body.error.data.fieldViolations.map((v: any) => v.field),
      ['message.role', 'message.parts[0].kind'],
    );
  });

  test('an unknown kind → -32602 naming it', async () => {
    const a = track(await startCompatAgent());
    const r = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'message/send',
      { message: msg03('x', { parts: [{ kind: 'image', url: 'https://x/y.png' }] }) },
      { 'a2a-version': '0.3' },
    );
    assert.equal(r.body.error.code, -32602);
    assert.match(r.body.error.message, /because it says A2A-Version 0\.3/);
    assert.match(
      r.body.error.message,
      /message\.parts\[0\]\.kind: "image" is not a 0\.3 part kind \(text, file, data\)/,
    );
  });

  test('0.3 enum spellings and kinds on a 1.0 request → -32602 that says the body has 0.3 shapes', async () => {
    const a = track(await startCompatAgent());
    const r = await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'SendMessage', { message: msg03('hi') }, V10);
    assert.equal(r.body.error.code, -32602);
    assert.match(r.body.error.message, /message\.role: must be ROLE_USER or ROLE_AGENT/);
    assert.match(
      r.body.error.message,
      /Read as A2A 1\.0 \(the version the request asked for\), but it has A2A 0\.3 shapes: .*message\.role "user" \(1\.0 spells it ROLE_USER\)/,
    );
    const list = await fetch(`${a.origin}/a2a/rest/tasks?status=completed`, { headers: V10 });
    assert.equal(list.status, 400);
    assert.match(
      (await list.json()).error.message,
      /status "completed" \(1\.0 spells states TASK_STATE_COMPLETED\)/,
    );
  });

  test('a 1.0 method or route read as 0.3, and a 1.0-only operation, are named as such', async () => {
    const a = track(await startCompatAgent());
    const m = await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'SendMessage', { message: msg10('hi') });
    assert.equal(m.body.error.code, -32601);
    assert.match(
      m.body.error.message,
      /SendMessage is an A2A 1\.0 method; this request was read as A2A 0\.3 because it has no A2A-Version header.*Send A2A-Version: 1\.0/,
    );
    const list = await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'tasks/list', {});
    assert.match(list.body.error.message, /ListTasks\) is not part of A2A 0\.3/);
    const route = await fetch(`${a.origin}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: msg10('x') }),
    });
    assert.equal(route.status, 404);
    const body = await route.json();
    assert.equal(body.code, -32601); // a 0.3 error body: bare, no google.rpc.Status
    assert.match(
      body.message,
      /is an A2A 1\.0 route; this request was read as A2A 0\.3 .* whose routes start with \/v1/,
    );
    const bad = await fetch(`${a.origin}/a2a/rest/v1/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: { messageId: 'm', role: 'ROLE_USER', content: [{ image: 'x' }] },
      }),
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, -32602);
  });

  test('a 1.0 agent that lists a 0.3 interface without compat refuses to start, saying how to serve it', async () => {
    const server = createAgentServer({
      executor: echoOrWait,
      card: (o) =>
        compatCard(o, {
          supportedInterfaces: [
            { url: `${o}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
          ],
        }),
    });
    await assert.rejects(
      server.listen(0),
      /lists JSONRPC 0\.3, which this server does not serve unless told to: set compat: \{ v03: true \}/,
    );
    const apart = createAgentServer({
      executor: echoOrWait,
      compat: { v03: true },
      card: (o) =>
        compatCard(o, {
          supportedInterfaces: [
            ...compatCard(o).supportedInterfaces,
            { url: `${o}/a2a/v03`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
          ],
        }),
    });
    await assert.rejects(
      apart.listen(0),
      /answers 0\.3 at the URL of the 1\.0 interface of the same binding/,
    );
  });
});

describe('the card in both forms', () => {
  test("A2A-Version: 0.3 → the 0.3 form, consistent with the 1.0 form's 0.3 entries; Vary and separate ETags", async () => {
    const a = track(await startCompatAgent());
    const res10 = await fetch(`${a.origin}/.well-known/agent-card.json`, { headers: V10 });
    const res03 = await fetch(`${a.origin}/.well-known/agent-card.json`, { headers: V03 });
    assert.equal(res10.headers.get('vary'), 'A2A-Version');
    assert.equal(res03.headers.get('vary'), 'A2A-Version');
    assert.notEqual(res10.headers.get('etag'), res03.headers.get('etag'));
    const c10 = await res10.json();
    const c03 = await res03.json();
    const v03 = c10.supportedInterfaces.filter((i: any) => i.protocolVersion === '0.3');
    assert.deepEqual(
      v03.map((i: any) => [i.protocolBinding, i.url]),
      [
        ['JSONRPC', `${a.origin}/a2a/jsonrpc`],
        ['HTTP+JSON', `${a.origin}/a2a/rest`],
      ],
    );
    assert.equal(c03.supportedInterfaces, undefined, 'the form a 0.3 request asks for is pure 0.3');
    assert.equal(c03.protocolVersion, '0.3');
    assert.equal(c03.url, v03[0].url);
    assert.equal(c03.preferredTransport, v03[0].protocolBinding);
    assert.deepEqual(
      c03.additionalInterfaces,
      v03.map((i: any) => ({ url: i.url, transport: i.protocolBinding })),
    );
    assert.deepEqual(c03.capabilities, { pushNotifications: true, streaming: true });
    // Each form answers 304 to its own ETag only.
    const again = await fetch(`${a.origin}/.well-known/agent-card.json`, {
      headers: { ...V03, 'if-none-match': res03.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
    const other = await fetch(`${a.origin}/.well-known/agent-card.json`, {
      headers: { ...V10, 'if-none-match': res03.headers.get('etag')! },
    });
    assert.equal(other.status, 200);
  });

  test('no A2A-Version → one card both read: the 1.0 card plus url, preferredTransport, additionalInterfaces, protocolVersion', async () => {
    const a = track(await startCompatAgent());
    const c10 = await cardAs(a.origin, V10);
    const c03 = await cardAs(a.origin, V03);
    const res = await fetch(`${a.origin}/.well-known/agent-card.json`); // as curl or a crawler asks
    assert.equal(res.headers.get('vary'), 'A2A-Version');
    const both = await res.json();
    const { protocolVersion, url, preferredTransport, additionalInterfaces, ...rest } = both;
    assert.deepEqual(rest, c10, 'every 1.0 member, as the 1.0 form has it');
    assert.deepEqual(
      { protocolVersion, url, preferredTransport, additionalInterfaces },
      {
        protocolVersion: c03.protocolVersion,
        url: c03.url,
        preferredTransport: c03.preferredTransport,
        additionalInterfaces: c03.additionalInterfaces,
      },
    );
    const etags = new Set(
      await Promise.all(
        [V10, V03, {}].map(async (h) => {
          const r = await fetch(`${a.origin}/.well-known/agent-card.json`, { headers: h });
          await r.arrayBuffer();
          return r.headers.get('etag');
        }),
      ),
    );
    assert.equal(etags.size, 3, 'three forms, three ETags');
    // Both kinds of client connect with it: a 1.0 client takes a 1.0 entry, a 0.3-only one a 0.3 entry.
    const v10 = await A2AClient.connect({ card: both });
    assert.equal(v10.interface.protocolVersion, '1.0');
    const v03only = await A2AClient.connect({ card: both }, { versions: ['0.3'] });
    assert.equal(v03only.interface.protocolVersion, '0.3');
    assert.equal(v03only.interface.url, url);
  });

  test('§8.4 each form is signed on its own; the 1.0 signatures do not cover the 0.3 form; the extended card over 0.3 too', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const keys: CardSigningKey[] = [{ privateKey, kid: 'k1', alg: 'ES256' }];
    const trust: CardTrust = {
      keys: [{ kid: 'k1', key: { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' } }],
      requireSignature: true,
    };
    const a = track(
      await startCompatAgent({
        signingKeys: keys,
        card: (o) =>
          compatCard(o, {
            capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
          }),
        extendedCard: (caller) => ({ ...compatCard('http://127.0.0.1'), name: `for ${caller.id}` }),
        authenticate: (req) =>
          req.headers['x-user'] ? { id: String(req.headers['x-user']) } : undefined,
      }),
    );
    const c10 = await cardAs(a.origin, V10);
    const c03 = await cardAs(a.origin, V03);
    const both = await cardAs(a.origin, {});
    assert.equal((await verifyAgentCard(c10, trust)).verified, true);
    assert.equal((await verifyAgentCard(both, trust)).verified, true, 'the unversioned form too');
    assert.equal(
      (await verifyAgentCard({ ...both, signatures: c10.signatures }, trust)).verified,
      false,
      "the 1.0 form's signatures do not cover the added members",
    );
    assert.equal(c03.supportsAuthenticatedExtendedCard, true);
    assert.equal(
      (await verifyAgentCard(cardFromV03(c03), trust)).verified,
      true,
      'the 0.3 form verifies as served',
    );
    const swapped = await verifyAgentCard(
      cardFromV03({ ...c03, signatures: c10.signatures }),
      trust,
    );
    assert.equal(swapped.verified, false);

    // A 0.3 client: the card read from its 0.3 form, signature checked, extended card fetched over 0.3.
    const raw = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'agent/getAuthenticatedExtendedCard',
      undefined,
      { 'x-user': 'ann' },
    );
    assert.equal(raw.body.result.name, 'for ann');
    assert.equal(raw.body.result.url, `${a.origin}/a2a/jsonrpc`);
    assert.equal((await verifyAgentCard(cardFromV03(raw.body.result), trust)).verified, true);
    const proto = await (
      await fetch(`${a.origin}/a2a/rest/v1/card`, { headers: { 'x-user': 'bob' } })
    ).json();
    assert.equal(proto.name, 'for bob');
    for (const binding of ['JSONRPC', 'HTTP+JSON']) {
      const client = await A2AClient.connect(
        { card: c03 },
        { trust, bindings: [binding], versions: ['0.3'], headers: { 'x-user': 'cy' } },
      );
      const ext = await client.getExtendedAgentCard();
      assert.equal(ext.name, 'for cy');
      assert.equal(client.interface.protocolVersion, '0.3');
    }
  });

  test('an agent without compat is a 1.0 agent: one card form, no Vary, a plain push config store', async () => {
    const a = await plainAgent();
    const res = await fetch(`${a.origin}/.well-known/agent-card.json`);
    assert.equal(res.headers.get('vary'), null);
    assert.equal((await res.json()).supportedInterfaces.length, 2);
    assert.equal(a.server.service.pushConfigs.constructor.name, 'InMemoryTaskStore');
    await assert.rejects(
      A2AClient.connect(a.origin, { cache: false, versions: ['0.3'] }),
      (e: unknown) => isA2AClientError(e) && e.code === 'NO_COMPATIBLE_INTERFACE',
    );
  });
});

describe('behind the Web fetch adapter (no node:http)', () => {
  test('the 0.3 card form, a 0.3 message/send and a 0.3 stream answer as over node:http', async () => {
    const server = createAgentServer({
      executor: echoOrWait,
      card: (o) => compatCard(o),
      compat: { v03: true },
    });
    const handle = toFetchHandler(server, { origin: 'http://agent.test' });
    const card = await (
      await handle(new Request('http://agent.test/.well-known/agent-card.json'))
    ).json();
    assert.equal(card.url, 'http://agent.test/a2a/jsonrpc');
    const post = (body: object, accept = 'application/json') =>
      handle(
        new Request('http://agent.test/a2a/jsonrpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept },
          body: JSON.stringify(body),
        }),
      );
    const sent = await (
      await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: msg03('web') },
      })
    ).json();
    assert.equal(sent.result.kind, 'task');
    assert.equal(sent.result.status.state, 'completed');
    const stream = await (
      await post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'message/stream',
          params: { message: msg03('web stream') },
        },
        'text/event-stream',
      )
    ).text();
    const events = stream
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)).result);
    assert.deepEqual(
      events.map((e) => e.kind),
      ['task', 'status-update', 'artifact-update', 'status-update'],
    );
    assert.equal(events.at(-1).final, true);
    await server.close(100);
  });
});

describe('push: each webhook gets the body of the version it was registered with', () => {
  test('one task, a 1.0 webhook and a 0.3 webhook: StreamResponses (a2a+json) and 0.3 tasks (json); no marker leaks into 1.0 answers', async () => {
    const a = track(await startCompatAgent());
    const hook10 = track(await startWebhook());
    const hook03 = track(await startWebhook());
    const started = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'SendMessage',
      { message: msg10('wait'), configuration: { returnImmediately: true } },
      V10,
    );
    const id = started.body.result.task.id;
    assert.ok(
      (
        await rpcRaw(
          `${a.origin}/a2a/jsonrpc`,
          'CreateTaskPushNotificationConfig',
          { taskId: id, id: 'v10', url: hook10.url, token: 't10' },
          V10,
        )
      ).body.result,
    );
    const set03 = await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'tasks/pushNotificationConfig/set', {
      taskId: id,
      pushNotificationConfig: { id: 'v03', url: hook03.url, token: 't03' },
    });
    assert.equal(set03.body.result.pushNotificationConfig.id, 'v03');
    await rpcRaw(`${a.origin}/a2a/jsonrpc`, 'CancelTask', { id }, V10);
    await hook10.waitFor(1);
    await hook03.waitFor(1);
    assert.match(String(hook10.hits[0]!.headers['content-type']), /application\/a2a\+json/);
    assert.equal(JSON.parse(hook10.hits[0]!.body).statusUpdate.status.state, 'TASK_STATE_CANCELED');
    assert.match(String(hook03.hits[0]!.headers['content-type']), /^application\/json/);
    const body03 = JSON.parse(hook03.hits[0]!.body);
    assert.equal(body03.kind, 'task');
    assert.equal(body03.status.state, 'canceled');
    assert.equal(hook03.hits[0]!.headers['x-a2a-notification-token'], 't03');
    const listed = await rpcRaw(
      `${a.origin}/a2a/jsonrpc`,
      'ListTaskPushNotificationConfigs',
      { taskId: id },
      V10,
    );
    for (const c of listed.body.result.configs)
      assert.deepEqual(Object.keys(c).sort(), ['id', 'taskId', 'token', 'url']);
  });

  test('the 0.3 mark of a webhook survives a persistent store, and never shows as a member on reading', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compat-push-'));
    const file = path.join(dir, 'a2a.sqlite');
    try {
      const scope = { tenant: '', owner: '' };
      const first = new SqliteTaskStore({ path: file });
      await first.saveTask(scope, {
        id: 't1',
        contextId: 'c1',
        status: { state: 'TASK_STATE_WORKING' },
      });
      const registrations = new V03Registrations();
      const store = new V03AwarePushConfigStore(first, registrations);
      const withdraw = registrations.expect('a', 't1');
      await store.savePushConfig(scope, { taskId: 't1', id: 'a', url: 'https://hook.example/a' });
      withdraw();
      await store.savePushConfig(scope, { taskId: 't1', id: 'b', url: 'https://hook.example/b' });
      await first.close();
      const reopened = new V03AwarePushConfigStore(
        new SqliteTaskStore({ path: file }),
        new V03Registrations(),
      );
      const [a, b] = await reopened.listPushConfigs(scope, 't1');
      assert.deepEqual(JSON.parse(JSON.stringify(a)), {
        taskId: 't1',
        id: 'a',
        url: 'https://hook.example/a',
      });
      assert.equal((a as any)[V03_WEBHOOK], true);
      assert.equal((b as any)[V03_WEBHOOK], undefined);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
