/**
 * The SSRF guard. Nothing here connects anywhere: refusals come from the address check, the
 * resolver is injected (or resolves `localhost` from the hosts file), and sender tests use a fetch
 * double that only counts calls, so no packet ever goes to a non-loopback address.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertWebhookUrl, checkWebhookUrl, classifyAddress, PushSender, redactUrl, type DeliveryOutcome, type HostResolver,
} from '../src/server/push/index.js';
import { isA2AError } from '../src/protocol/index.js';
import { SETTLE, closeAll, statusEvent, track } from './push-fixture.js';

afterEach(closeAll);

const refusedByDefault: [string, string][] = [
  ['http://10.0.0.1/hook', 'private'],
  ['http://192.168.1.1/hook', 'private'],
  ['http://172.16.5.4/hook', 'private'],
  ['http://100.64.0.1/hook', 'private'],
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://169.254.10.10/', 'link-local'],
  ['http://127.0.0.1:8080/', 'loopback'],
  ['http://[::1]/hook', 'loopback'],
  ['http://localhost/hook', 'loopback'],
  ['http://api.localhost/hook', 'loopback'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://[fe80::1]/', 'link-local'],
  ['http://[fd12:3456::1]/', 'private'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://[::ffff:10.0.0.1]/', 'private'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'metadata'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
];

for (const [url, reason] of refusedByDefault) {
  test(`§13.2 SSRF: ${url} is refused by default (${reason})`, async () => {
    const r = await checkWebhookUrl(url);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.reason, reason);
      assert.match(r.message, /not allowed/);
    }
  });
}

test('§13.2 SSRF: only http and https, no credentials in the URL, optional https-only', async () => {
  const ftp = await checkWebhookUrl('ftp://example.com/x');
  assert.equal(ftp.ok || ftp.reason, 'scheme');
  const file = await checkWebhookUrl('file:///etc/passwd');
  assert.equal(file.ok || file.reason, 'scheme');
  const creds = await checkWebhookUrl('https://user:pw@8.8.8.8/');
  assert.equal(creds.ok || creds.reason, 'userinfo');
  const plain = await checkWebhookUrl('http://8.8.8.8/', { requireHttps: true });
  assert.equal(plain.ok || plain.reason, 'scheme');
  const bad = await checkWebhookUrl('not a url');
  assert.equal(bad.ok || bad.reason, 'invalid-url');
});

test('§13.2 SSRF: public addresses pass; the result lists the addresses to pin', async () => {
  const v4 = await checkWebhookUrl('https://8.8.8.8/hook');
  assert.deepEqual(v4.ok && v4.addresses, [{ address: '8.8.8.8', family: 4 }]);
  const v6 = await checkWebhookUrl('https://[2001:4860:4860::8888]/hook');
  assert.equal(v6.ok, true);
  assert.equal(classifyAddress('93.184.216.34'), undefined);
  assert.equal(classifyAddress('64:ff9b::808:808'), undefined);
});

test('§13.2 SSRF: operator policy allows loopback, private networks, listed hosts; metadata stays refused', async () => {
  assert.equal((await checkWebhookUrl('http://localhost:3000/hook', { allowLoopback: true })).ok, true);
  assert.equal((await checkWebhookUrl('http://[::1]/hook', { allowLoopback: true })).ok, true);
  assert.equal((await checkWebhookUrl('http://10.0.0.1/hook', { allowPrivate: true })).ok, true);
  assert.equal((await checkWebhookUrl('http://10.0.0.1/hook', { allowLoopback: true })).ok, false);
  const resolve: HostResolver = async () => [{ address: '10.1.2.3', family: 4 }];
  assert.equal((await checkWebhookUrl('https://hooks.corp.example/x', { allowedHosts: ['*.corp.example'], resolve })).ok, true);
  assert.equal((await checkWebhookUrl('https://corp.example/x', { allowedHosts: ['*.corp.example'], resolve })).ok, false);
  const meta = await checkWebhookUrl('http://169.254.169.254/', { allowPrivate: true, allowLoopback: true, allowedHosts: ['169.254.169.254'] });
  assert.equal(meta.ok || meta.reason, 'metadata');
  const only = await checkWebhookUrl('https://8.8.8.8/', { onlyAllowedHosts: true, allowedHosts: ['hooks.example'] });
  assert.equal(only.ok || only.reason, 'not-allowlisted');
});

test('§13.2 SSRF: every resolved address is checked; one private address refuses the host', async () => {
  const resolve: HostResolver = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '192.168.0.7', family: 4 },
  ];
  const r = await checkWebhookUrl('https://mixed.example/hook', { resolve });
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /mixed\.example .*resolves to 192\.168\.0\.7/);
  const gone = await checkWebhookUrl('https://gone.example/', {
    resolve: async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    },
  });
  assert.equal(gone.ok || gone.reason, 'resolution-failed');
});

test('§13.2 config creation: assertWebhookUrl throws invalid params naming the url field and the reason', async () => {
  await assert.rejects(assertWebhookUrl('http://192.168.1.1/hook'), (e: unknown) => {
    assert.ok(isA2AError(e));
    assert.equal(e.kind, 'InvalidParams');
    const detail = e.details[0] as { fieldViolations: { field: string; description: string }[] };
    assert.equal(detail.fieldViolations[0]!.field, 'url');
    assert.match(detail.fieldViolations[0]!.description, /192\.168\.1\.1 is a private-network address/);
    return true;
  });
  assert.equal((await assertWebhookUrl('https://8.8.8.8/x')).href, 'https://8.8.8.8/x');
});

test('§13.2 send time: refused destinations are never contacted and not retried', async () => {
  let calls = 0;
  const outcomes: DeliveryOutcome[] = [];
  const s = track(new PushSender({
    fetch: async () => {
      calls++;
      return new Response(null, { status: 200 });
    },
    onOutcome: (o) => outcomes.push(o),
    baseDelayMs: 1,
  }));
  const urls = ['http://10.0.0.1/hook', 'http://192.168.1.1/hook', 'http://169.254.169.254/', 'http://[::1]/', 'http://localhost/'];
  for (const url of urls) s.enqueue({ id: 'c', taskId: 't', url }, statusEvent('t', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(calls, 0);
  assert.deepEqual(outcomes.map((o) => [o.result, o.attempts]), urls.map(() => ['failed', 1]));
  await s.close();
});

test('§13.2 DNS rebinding: a host that passed at creation but now resolves privately is refused at send time', async () => {
  let answer = '93.184.216.34';
  const resolve: HostResolver = async () => [{ address: answer, family: 4 }];
  await assertWebhookUrl('https://rebind.example/hook', { resolve });
  answer = '10.0.0.5';
  let calls = 0;
  const outcomes: DeliveryOutcome[] = [];
  const s = track(new PushSender({
    policy: { resolve },
    fetch: async () => {
      calls++;
      return new Response(null, { status: 200 });
    },
    onOutcome: (o) => outcomes.push(o),
  }));
  s.enqueue({ id: 'c', taskId: 't', url: 'https://rebind.example/hook' }, statusEvent('t', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(calls, 0);
  assert.equal(outcomes[0]!.result, 'failed');
  assert.match(outcomes[0]!.error ?? '', /resolves to 10\.0\.0\.5/);
  await s.close();
});

test('logged URLs drop the query string and credentials', () => {
  assert.equal(redactUrl('https://u:p@hooks.example:8443/a/b?key=secret#frag'), 'https://hooks.example:8443/a/b');
});
