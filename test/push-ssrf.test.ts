/**
 * The SSRF guard. Nothing here connects anywhere: refusals come from the address check, the
 * resolver is injected (or resolves `localhost` from the hosts file), and sender tests use a fetch
 * double that only counts calls, so no packet ever goes to a non-loopback address.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertWebhookUrl,
  checkWebhookUrl,
  classifyAddress,
  PushSender,
  redactUrl,
  type DeliveryOutcome,
  type HostResolver,
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

// IPv6 forms that lead to an IPv4 address: each is judged by the IPv4 address it embeds. Per form: loopback
// 127.0.0.1, private 10.0.0.1, metadata 169.254.169.254, and the public 8.8.8.8, which stays allowed.
const embeddings: [
  form: string,
  loopback: string,
  privateNet: string,
  metadata: string,
  publicAddr: string,
][] = [
  [
    'IPv4-mapped ::ffff:0:0/96 (hex)',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:808:808',
  ],
  [
    'IPv4-translated ::ffff:0:0:0/96',
    '::ffff:0:7f00:1',
    '::ffff:0:a00:1',
    '::ffff:0:a9fe:a9fe',
    '::ffff:0:808:808',
  ],
  ['IPv4-compatible ::/96', '::7f00:1', '::a00:1', '::a9fe:a9fe', '::808:808'],
  [
    'NAT64 64:ff9b::/96',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::808:808',
  ],
  [
    'local NAT64 64:ff9b:1::/48, /96 layout',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1::a9fe:a9fe',
    '64:ff9b:1::808:808',
  ],
  [
    'local NAT64 64:ff9b:1::/48, /48 layout',
    '64:ff9b:1:7f00:0:100::',
    '64:ff9b:1:a00:0:100::',
    '64:ff9b:1:a9fe:a9:fe00::',
    '64:ff9b:1:808:8:800::',
  ],
  [
    'local NAT64 64:ff9b:1::/48, /64 layout',
    '64:ff9b:1:0:7f:0:100:0',
    '64:ff9b:1:0:a:0:100:0',
    '64:ff9b:1:0:a9:fea9:fe00:0',
    '64:ff9b:1:0:8:808:800:0',
  ],
  ['6to4 2002::/16', '2002:7f00:1::', '2002:a00:1::', '2002:a9fe:a9fe::', '2002:808:808::'],
  // Teredo 2001:0:<server>:<flags>:<port>:<client>, the client's address with every bit inverted.
  [
    'Teredo client (obfuscated)',
    '2001:0:808:808:8000:ffff:80ff:fffe',
    '2001:0:808:808:8000:ffff:f5ff:fffe',
    '2001:0:808:808:8000:ffff:5601:5601',
    '2001:0:808:808:8000:ffff:f7f7:f7f7',
  ],
  [
    'Teredo server',
    '2001:0:7f00:1:8000:ffff:f7f7:f7f7',
    '2001:0:a00:1:8000:ffff:f7f7:f7f7',
    '2001:0:a9fe:a9fe:8000:ffff:f7f7:f7f7',
    '2001:0:808:808:8000:ffff:f7f7:f7f7',
  ],
  [
    'ISATAP interface id 0:5efe',
    '2606:4700::5efe:7f00:1',
    '2606:4700::5efe:a00:1',
    '2606:4700::5efe:a9fe:a9fe',
    '2606:4700::5efe:808:808',
  ],
  [
    'ISATAP interface id 200:5efe',
    '2606:4700::200:5efe:7f00:1',
    '2606:4700::200:5efe:a00:1',
    '2606:4700::200:5efe:a9fe:a9fe',
    '2606:4700::200:5efe:808:808',
  ],
];

for (const [form, loopback, privateNet, metadata, publicAddr] of embeddings) {
  test(`§13.2 SSRF: ${form} is judged by the IPv4 address it embeds`, async () => {
    for (const [address, reason, inner] of [
      [loopback, 'loopback', '127.0.0.1'],
      [privateNet, 'private', '10.0.0.1'],
      [metadata, 'metadata', '169.254.169.254'],
    ] as const) {
      const r = await checkWebhookUrl(`http://[${address}]/hook`);
      assert.equal(r.ok || r.reason, reason, `${address} embeds ${inner}`);
      if (!r.ok) assert.match(r.message, new RegExp(`embeds ${inner.replace(/\./g, '\\.')}`));
      // Metadata stays refused even when the operator allows loopback and private destinations.
      if (reason === 'metadata')
        assert.equal(
          (
            await checkWebhookUrl(`http://[${address}]/`, {
              allowLoopback: true,
              allowPrivate: true,
            })
          ).ok,
          false,
        );
    }
    const pub = await checkWebhookUrl(`https://[${publicAddr}]/hook`);
    assert.equal(pub.ok, true, `${publicAddr} embeds only public addresses`);
    assert.equal(classifyAddress(publicAddr), undefined);
  });
}

test('§13.2 SSRF: the embedded-IPv4 examples of issue 15 are refused; a hostname resolving to one names both addresses', async () => {
  for (const url of [
    'http://[::ffff:0:a00:1]/',
    'http://[2002:a00:1::]/',
    'http://[2001:0:a00:1::]/',
    'http://[::5efe:a00:1]/',
    'http://[::a00:1]/',
  ]) {
    const r = await checkWebhookUrl(url);
    assert.equal(r.ok || r.reason, 'private', url);
  }
  const resolve: HostResolver = async () => [{ address: '2002:a9fe:a9fe::1', family: 6 }];
  const r = await checkWebhookUrl('https://tunnel.example/hook', { resolve });
  assert.equal(r.ok || r.reason, 'metadata');
  if (!r.ok)
    assert.match(r.message, /resolves to 2002:a9fe:a9fe::1; it embeds 169\.254\.169\.254, 6to4/);
  // Resolvers may answer in mixed notation, upper case, or with a zone id.
  assert.equal(classifyAddress('::ffff:0:10.0.0.1'), 'private');
  assert.equal(classifyAddress('64:FF9B::127.0.0.1'), 'loopback');
  assert.equal(classifyAddress('2002:A9FE:A9FE::%eth0'), 'metadata');
  // Ordinary global IPv6 addresses embed nothing and stay allowed.
  for (const a of ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
    assert.equal(classifyAddress(a), undefined, a);
});

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
  assert.equal(
    (await checkWebhookUrl('http://localhost:3000/hook', { allowLoopback: true })).ok,
    true,
  );
  assert.equal((await checkWebhookUrl('http://[::1]/hook', { allowLoopback: true })).ok, true);
  assert.equal((await checkWebhookUrl('http://10.0.0.1/hook', { allowPrivate: true })).ok, true);
  assert.equal((await checkWebhookUrl('http://10.0.0.1/hook', { allowLoopback: true })).ok, false);
  const resolve: HostResolver = async () => [{ address: '10.1.2.3', family: 4 }];
  assert.equal(
    (
      await checkWebhookUrl('https://hooks.corp.example/x', {
        allowedHosts: ['*.corp.example'],
        resolve,
      })
    ).ok,
    true,
  );
  assert.equal(
    (await checkWebhookUrl('https://corp.example/x', { allowedHosts: ['*.corp.example'], resolve }))
      .ok,
    false,
  );
  const meta = await checkWebhookUrl('http://169.254.169.254/', {
    allowPrivate: true,
    allowLoopback: true,
    allowedHosts: ['169.254.169.254'],
  });
  assert.equal(meta.ok || meta.reason, 'metadata');
  const only = await checkWebhookUrl('https://8.8.8.8/', {
    onlyAllowedHosts: true,
    allowedHosts: ['hooks.example'],
  });
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
    assert.match(
      detail.fieldViolations[0]!.description,
      /192\.168\.1\.1 is a private-network address/,
    );
    return true;
  });
  assert.equal((await assertWebhookUrl('https://8.8.8.8/x')).href, 'https://8.8.8.8/x');
});

test('§13.2 send time: refused destinations are never contacted and not retried', async () => {
  let calls = 0;
  const outcomes: DeliveryOutcome[] = [];
  const s = track(
    new PushSender({
      fetch: async () => {
        calls++;
        return new Response(null, { status: 200 });
      },
      onOutcome: (o) => outcomes.push(o),
      baseDelayMs: 1,
    }),
  );
  const urls = [
    'http://10.0.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/',
    'http://[::1]/',
    'http://localhost/',
  ];
  for (const url of urls) s.enqueue({ id: 'c', taskId: 't', url }, statusEvent('t', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(calls, 0);
  assert.deepEqual(
    outcomes.map((o) => [o.result, o.attempts]),
    urls.map(() => ['failed', 1]),
  );
  await s.close();
});

test('§13.2 DNS rebinding: a host that passed at creation but now resolves privately is refused at send time', async () => {
  let answer = '93.184.216.34';
  const resolve: HostResolver = async () => [{ address: answer, family: 4 }];
  await assertWebhookUrl('https://rebind.example/hook', { resolve });
  answer = '10.0.0.5';
  let calls = 0;
  const outcomes: DeliveryOutcome[] = [];
  const s = track(
    new PushSender({
      policy: { resolve },
      fetch: async () => {
        calls++;
        return new Response(null, { status: 200 });
      },
      onOutcome: (o) => outcomes.push(o),
    }),
  );
  s.enqueue({ id: 'c', taskId: 't', url: 'https://rebind.example/hook' }, statusEvent('t', 0));
  assert.equal(await s.drain(SETTLE), true);
  assert.equal(calls, 0);
  assert.equal(outcomes[0]!.result, 'failed');
  assert.match(outcomes[0]!.error ?? '', /resolves to 10\.0\.0\.5/);
  await s.close();
});

test('logged URLs drop the query string and credentials', () => {
  assert.equal(
    redactUrl('https://u:p@hooks.example:8443/a/b?key=secret#frag'),
    'https://hooks.example:8443/a/b',
  );
});
