import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import {
  createPushReceiver,
  type PushEventMeta,
  type PushReceiverOptions,
} from '../src/client/push-receiver.js';
import {
  createPushSigner,
  generatePushSigner,
  PushSender,
  PUSH_JWKS_PATH,
  PUSH_SIGNATURE_HEADER,
  PUSH_TOKEN_HEADER,
  type DeliveryOutcome,
} from '../src/server/push/index.js';
import type { StreamResponse } from '../src/protocol/index.js';
import { SETTLE, closeAll, statusEvent, track } from './push-fixture.js';

afterEach(closeAll);

const T = { timeout: 120_000 };

/** Mounts a receiver's node listener on 127.0.0.1 and records accepted events. */
async function mount(
  opts: Omit<PushReceiverOptions, 'onEvent'> & { onEvent?: PushReceiverOptions['onEvent'] },
) {
  const got: { ev: StreamResponse; meta: PushEventMeta }[] = [];
  const receiver = createPushReceiver({
    onEvent: (ev, meta) => void got.push({ ev, meta }),
    ...opts,
  });
  const server = http.createServer(receiver.listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/push`;
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/a2a+json', ...headers },
      body,
    });
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return track({ url, got, post, close, receiver });
}

const body = (ev: StreamResponse = statusEvent('task-1', 0)) => JSON.stringify(ev);

test('§13.2 receiver: good token → 204 after onEvent, typed event and meta', T, async () => {
  const r = await mount({ token: 'tok-1' });
  const res = await r.post(body(), {
    [PUSH_TOKEN_HEADER]: 'tok-1',
    'X-A2A-Notification-Id': 'n-1',
  });
  assert.equal(res.status, 204);
  assert.equal(r.got.length, 1);
  const { ev, meta } = r.got[0]!;
  assert.ok('statusUpdate' in ev);
  assert.equal(ev.statusUpdate.status.state, 'TASK_STATE_WORKING');
  assert.deepEqual(
    [meta.taskId, meta.kind, meta.notificationId],
    ['task-1', 'statusUpdate', 'n-1'],
  );
  await r.close();
});

test('§13.2 receiver: wrong or missing token → 401, nothing delivered', T, async () => {
  const r = await mount({ token: 'tok-1' });
  assert.equal((await r.post(body(), { [PUSH_TOKEN_HEADER]: 'tok-2' })).status, 401);
  assert.equal((await r.post(body(), { [PUSH_TOKEN_HEADER]: 'tok-1x' })).status, 401);
  assert.equal((await r.post(body())).status, 401);
  assert.equal(r.got.length, 0);
  await r.close();
});

test('§13.2 receiver: per-task token and expected Authorization header', T, async () => {
  const tokens = new Map([
    ['task-1', 'a'],
    ['task-2', 'b'],
  ]);
  const r = await mount({ token: (id) => tokens.get(id), authorization: 'Bearer xyz' });
  const auth = { Authorization: 'Bearer xyz' };
  assert.equal(
    (await r.post(body(statusEvent('task-1', 0)), { ...auth, [PUSH_TOKEN_HEADER]: 'a' })).status,
    204,
  );
  assert.equal(
    (await r.post(body(statusEvent('task-2', 0)), { ...auth, [PUSH_TOKEN_HEADER]: 'a' })).status,
    401,
  );
  assert.equal(
    (await r.post(body(statusEvent('task-3', 0)), { ...auth, [PUSH_TOKEN_HEADER]: 'a' })).status,
    401,
  );
  assert.equal(
    (
      await r.post(body(statusEvent('task-2', 0)), {
        Authorization: 'Bearer no',
        [PUSH_TOKEN_HEADER]: 'b',
      })
    ).status,
    401,
  );
  assert.equal(r.got.length, 1);
  await r.close();
});

test(
  '§4.3.3 receiver: non-JSON, zero or two StreamResponse members, missing members → 400',
  T,
  async () => {
    const r = await mount({ token: 't' });
    const h = { [PUSH_TOKEN_HEADER]: 't' };
    const task = { id: 'task-1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    for (const bad of [
      'not json',
      '[]',
      '{}',
      JSON.stringify({ task, statusUpdate: statusEvent('task-1', 0) }),
      JSON.stringify({ task: { id: 'task-1' } }),
      JSON.stringify({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } }),
    ]) {
      assert.equal((await r.post(bad, h)).status, 400, bad);
    }
    assert.equal((await r.post(JSON.stringify({ task, unknownMember: 1 }), h)).status, 204);
    assert.equal(r.got[0]!.meta.kind, 'task');
    await r.close();
  },
);

test(
  '§4.3.3 receiver: a task the client does not expect → 404; a failing handler → 500',
  T,
  async () => {
    const r = await mount({
      token: 't',
      expectTask: (id) => id === 'task-1',
      onEvent: () => {
        throw new Error('db down');
      },
    });
    const h = { [PUSH_TOKEN_HEADER]: 't' };
    assert.equal((await r.post(body(statusEvent('other', 0)), h)).status, 404);
    assert.equal((await r.post(body(statusEvent('task-1', 0)), h)).status, 500);
    await r.close();
  },
);

test(
  'receiver: oversized body → 413; non-POST → 405; no authentication configured → throws',
  T,
  async () => {
    const r = await mount({ token: 't', maxBodyBytes: 100 });
    assert.equal((await r.post('x'.repeat(500), { [PUSH_TOKEN_HEADER]: 't' })).status, 413);
    assert.equal((await fetch(r.url)).status, 405);
    assert.throws(
      () => createPushReceiver({ onEvent: () => undefined }),
      /token, authorization or verifyKeys/,
    );
    await r.close();
  },
);

test('receiver fetch handler: same checks without a node server', async () => {
  const got: string[] = [];
  const { fetch: handle } = createPushReceiver({
    token: 'tok',
    onEvent: (_ev, m) => void got.push(m.taskId),
  });
  const req = (token: string) =>
    new Request('http://receiver.invalid/push', {
      method: 'POST',
      headers: { [PUSH_TOKEN_HEADER]: token },
      body: body(),
    });
  assert.equal((await handle(req('tok'))).status, 204);
  assert.equal((await handle(req('bad'))).status, 401);
  assert.deepEqual(got, ['task-1']);
});

test(
  'end to end: PushSender → receiver with token, authorization and a signature (a2a-kit addition)',
  T,
  async () => {
    const signer = await generatePushSigner('ES256', 'push-key-1');
    const r = await mount({
      token: 'tok-9',
      authorization: 'Bearer cred',
      verifyKeys: signer.publicJwks(),
    });
    const s = track(new PushSender({ policy: { allowLoopback: true }, signer }));
    const config = {
      id: 'c1',
      taskId: 'task-1',
      url: r.url,
      token: 'tok-9',
      authentication: { scheme: 'Bearer', credentials: 'cred' },
    };
    for (let i = 0; i < 5; i++) s.enqueue(config, statusEvent('task-1', i));
    s.enqueue(config, {
      task: { id: 'task-1', contextId: 'ctx-task-1', status: { state: 'TASK_STATE_COMPLETED' } },
    });
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(s.stats.delivered, 6);
    assert.deepEqual(
      r.got.map((g) => g.meta.kind),
      ['statusUpdate', 'statusUpdate', 'statusUpdate', 'statusUpdate', 'statusUpdate', 'task'],
    );
    const sig = r.got[0]!.meta.signature!;
    assert.equal(sig.kid, 'push-key-1');
    assert.equal(sig.alg, 'ES256');
    assert.equal(sig.jti, r.got[0]!.meta.notificationId);
    await s.close();
    await r.close();
  },
);

test('signature: wrong key, tampered body, missing or stale signature → 401', T, async () => {
  const signer = await generatePushSigner('EdDSA');
  const other = await generatePushSigner('EdDSA');
  const r = await mount({ verifyKeys: signer.publicJwks() });
  const raw = Buffer.from(body());
  const good = await signer.sign(raw, 'n1');
  assert.equal((await r.post(raw.toString(), { [PUSH_SIGNATURE_HEADER]: good })).status, 204);
  assert.equal(
    (await r.post(raw.toString(), { [PUSH_SIGNATURE_HEADER]: await other.sign(raw) })).status,
    401,
  );
  assert.equal(
    (await r.post(body(statusEvent('task-1', 1)), { [PUSH_SIGNATURE_HEADER]: good })).status,
    401,
  );
  assert.equal((await r.post(raw.toString())).status, 401);
  assert.equal((await r.post(raw.toString(), { [PUSH_SIGNATURE_HEADER]: 'garbage' })).status, 401);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const stale = await createPushSigner({ privateKey, now: () => Date.now() - 3_600_000 });
  const r2 = await mount({ verifyKeys: stale.publicJwks() });
  assert.equal(
    (await r2.post(raw.toString(), { [PUSH_SIGNATURE_HEADER]: await stale.sign(raw) })).status,
    401,
  );
  assert.equal(r.got.length, 1);
  await r.close();
  await r2.close();
});

test(
  'signature keys fetched from the agent JWKS URL (/.well-known/a2a-push-jwks.json)',
  T,
  async () => {
    const signer = await generatePushSigner();
    const jwksServer = http.createServer((req, res) => {
      if (req.url === PUSH_JWKS_PATH)
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(signer.publicJwks()));
      else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => jwksServer.listen(0, '127.0.0.1', ok));
    track({
      close: () =>
        new Promise<void>((ok) => {
          jwksServer.closeAllConnections();
          jwksServer.close(() => ok());
        }),
    });
    const jwksUrl = new URL(
      PUSH_JWKS_PATH,
      `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`,
    );
    const r = await mount({ verifyKeys: jwksUrl });
    const outcomes: DeliveryOutcome[] = [];
    const s = track(
      new PushSender({
        policy: { allowLoopback: true },
        signer,
        onOutcome: (o) => outcomes.push(o),
      }),
    );
    s.enqueue({ taskId: 'task-1', url: r.url }, statusEvent('task-1', 0));
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(outcomes[0]!.result, 'delivered');
    assert.equal(r.got[0]!.meta.signature?.kid, signer.kid);
    await s.close();
    await r.close();
  },
);

test('sender → receiver with a wrong token: 401 is final, no retries', T, async () => {
  const r = await mount({ token: 'right' });
  const outcomes: DeliveryOutcome[] = [];
  const s = track(
    new PushSender({
      policy: { allowLoopback: true },
      onOutcome: (o) => outcomes.push(o),
      baseDelayMs: 1,
    }),
  );
  s.enqueue({ taskId: 'task-1', url: r.url, token: 'wrong' }, statusEvent('task-1', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.deepEqual(
    [outcomes[0]!.result, outcomes[0]!.status, outcomes[0]!.attempts],
    ['failed', 401, 1],
  );
  await s.close();
  await r.close();
});
