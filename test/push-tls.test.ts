/**
 * https webhooks: the connection goes to the checked (pinned) address while TLS still verifies the
 * certificate against the URL's hostname. The self-signed certificate below is for `webhook.test`
 * only (valid until 2126) and exists for this test.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { PushSender, type DeliveryOutcome, type HostResolver } from '../src/server/push/index.js';
import { SETTLE, closeAll, statusEvent, track } from './push-fixture.js';

afterEach(closeAll);

const CERT = `-----BEGIN CERTIFICATE-----
MIIBnjCCAUSgAwIBAgIUNpZVHPQnn9jmmZOL6o1ttbI1ChUwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMd2ViaG9vay50ZXN0MCAXDTI2MTIwMjE1NDc1MFoYDzIxMjYx
MTA4MTU0NzUwWjAXMRUwEwYDVQQDDAx3ZWJob29rLnRlc3QwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAAQewIANcEtpPzV2JUFPSAWdh/rBgrJ5L3xd3kgy0jigyM5s
VdPCvjdCuu8lbIrbJdZu87mPF6BqaWtklkFi11h4o2wwajAdBgNVHQ4EFgQUVSk1
KgVYzjLXHmdnYN8pMyO2zQ0wHwYDVR0jBBgwFoAUVSk1KgVYzjLXHmdnYN8pMyO2
zQ0wDwYDVR0TAQH/BAUwAwEB/zAXBgNVHREEEDAOggx3ZWJob29rLnRlc3QwCgYI
KoZIzj0EAwIDSAAwRQIhAK4homA3VjSyHNk8O0r9VV+R+jtFtiV4JUkWLF2UJKv5
AiAnsbt5BbvNWpTGV6Qgb0DiwaSJVyj7zgw0nOSbmdsidQ==
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgNPRmkMK1u1eriQFi
TVPjznffwiZP2IVL5GfhD2zDmFehRANCAAQewIANcEtpPzV2JUFPSAWdh/rBgrJ5
L3xd3kgy0jigyM5sVdPCvjdCuu8lbIrbJdZu87mPF6BqaWtklkFi11h4
-----END PRIVATE KEY-----
`;

const toLoopback: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];

async function httpsWebhook() {
  const seen: { host?: string; servername?: string | false | null }[] = [];
  const server = https.createServer({ cert: CERT, key: KEY }, (req, res) => {
    seen.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername });
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  track({
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return { port: (server.address() as AddressInfo).port, seen };
}

function sender(outcomes: DeliveryOutcome[], ca?: string): PushSender {
  return track(
    new PushSender({
      policy: { allowLoopback: true, resolve: toLoopback },
      maxAttempts: 1,
      onOutcome: (o) => outcomes.push(o),
      ...(ca ? { ca } : {}),
    }),
  );
}

test(
  'https webhook: pinned to the checked address, SNI and certificate checked against the URL hostname',
  { timeout: 120_000 },
  async () => {
    const hook = await httpsWebhook();
    const outcomes: DeliveryOutcome[] = [];
    const s = sender(outcomes, CERT);
    s.enqueue({ taskId: 't', url: `https://webhook.test:${hook.port}/hook` }, statusEvent('t', 0));
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(outcomes[0]!.result, 'delivered');
    assert.deepEqual(hook.seen, [
      { host: `webhook.test:${hook.port}`, servername: 'webhook.test' },
    ]);
  },
);

test(
  'https webhook: a certificate for another name, or an untrusted one, fails the delivery',
  { timeout: 120_000 },
  async () => {
    const hook = await httpsWebhook();
    const outcomes: DeliveryOutcome[] = [];
    const s = sender(outcomes, CERT);
    s.enqueue({ taskId: 't', url: `https://other.test:${hook.port}/hook` }, statusEvent('t', 0));
    assert.equal(await s.drain(SETTLE), true);
    assert.equal(outcomes[0]!.result, 'failed');
    assert.match(outcomes[0]!.error ?? '', /ALTNAME/);
    const untrusted: DeliveryOutcome[] = [];
    const s2 = sender(untrusted);
    s2.enqueue({ taskId: 't', url: `https://webhook.test:${hook.port}/hook` }, statusEvent('t', 0));
    assert.equal(await s2.drain(SETTLE), true);
    assert.equal(untrusted[0]!.result, 'failed');
    assert.match(untrusted[0]!.error ?? '', /SELF_SIGNED/);
    assert.equal(hook.seen.length, 0);
  },
);
