import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlattenedSign, exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey, JSONWebKeySet } from 'jose';
import { signAgentCard } from '../src/server/card/signing.js';
import {
  AgentCardVerificationError,
  assertAgentCardVerified,
  verifyAgentCard,
} from '../src/client/card-verify.js';
import { canonicalCardBytes } from '../src/protocol/card-canonical.js';
import { parseAgentCard } from '../src/protocol/card-schema.js';
import type { AgentCard } from '../src/protocol/card.js';
import { fullCard } from './card-fixture.js';

let es: { publicKey: CryptoKey; privateKey: CryptoKey };
let ed: { publicKey: CryptoKey; privateKey: CryptoKey };
let other: { publicKey: CryptoKey; privateKey: CryptoKey };
before(async () => {
  es = await generateKeyPair('ES256', { extractable: true });
  ed = await generateKeyPair('EdDSA', { extractable: true });
  other = await generateKeyPair('ES256');
});

const decodeHeader = (p: string) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
const BAD = /signature does not match the card content/;

test('§8.4.2 ES256: protected header is exactly {alg, typ: JOSE, kid}, payload detached, round trip verifies', async () => {
  const signed = await signAgentCard(fullCard(), [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  assert.equal(signed.signatures?.length, 1);
  const sig = signed.signatures[0]!;
  assert.deepEqual(Object.keys(sig).sort(), ['protected', 'signature']);
  assert.deepEqual(decodeHeader(sig.protected), { alg: 'ES256', typ: 'JOSE', kid: 'es-1' });
  assert.match(sig.signature, /^[A-Za-z0-9_-]{86}$/);
  const r = await verifyAgentCard(signed, { keys: [{ kid: 'es-1', key: es.publicKey }] });
  assert.deepEqual(r, { verified: true, kid: 'es-1', alg: 'ES256' });
});

test('§8.4.2 EdDSA with a private JWK and jku in the header; verifies after a JSON round trip and schema parse', async () => {
  const jwk = await exportJWK(ed.privateKey);
  const signed = await signAgentCard(fullCard(), [
    { privateKey: jwk, kid: 'ed-1', alg: 'EdDSA', jku: 'https://tides.test/jwks.json' },
  ]);
  assert.deepEqual(decodeHeader(signed.signatures![0]!.protected), {
    alg: 'EdDSA',
    typ: 'JOSE',
    kid: 'ed-1',
    jku: 'https://tides.test/jwks.json',
  });
  const parsed = parseAgentCard(JSON.stringify(signed));
  assert.ok(parsed.ok);
  const r = await verifyAgentCard(parsed.card, { keys: [{ kid: 'ed-1', key: ed.publicKey }] });
  assert.equal(r.verified, true);
});

test('§8.4.1 a signature survives adding or dropping members that hold defaults without presence', async () => {
  const signed = await signAgentCard(fullCard(), [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  const padded = structuredClone(signed) as any;
  padded.supportedInterfaces[0].tenant = '';
  padded.securitySchemes.key.apiKeySecurityScheme.description = '';
  padded.skills[0].securityRequirements[0].schemes.bearer = {};
  padded.capabilities.extensions[0].required = false;
  padded.defaultInputModes = [...padded.defaultInputModes];
  padded.signatures[0].header = undefined;
  padded.securityRequirements[1].schemes.key = {};
  const r = await verifyAgentCard(padded, { keys: [{ kid: 'es-1', key: es.publicKey }] });
  assert.equal(r.verified, true);
});

test('§8.4.3 tampering with one field fails with "signature does not match the card content"', async () => {
  const signed = await signAgentCard(fullCard(), [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  const trust = { keys: [{ kid: 'es-1', key: es.publicKey }] };
  const cases: Array<(c: any) => void> = [
    (c) => {
      c.supportedInterfaces[0].url = 'https://evil.test/a2a';
    },
    (c) => {
      c.skills[0].tags.push('extra');
    },
    // Dropping an explicitly present `false` changes the canonical form too.
    (c) => {
      delete c.capabilities.pushNotifications;
    },
    (c) => {
      c.injected = 'unknown members are covered';
    },
  ];
  for (const change of cases) {
    const t = structuredClone(signed);
    change(t);
    const r = await verifyAgentCard(t, trust);
    assert.equal(r.verified, false);
    if (!r.verified) {
      assert.equal(r.reason, 'bad-signature');
      assert.match(r.message, BAD);
    }
  }
  const t = structuredClone(signed);
  t.name = 'Evil Tide Agent';
  await assert.rejects(
    assertAgentCardVerified(t, trust),
    (e: unknown) =>
      e instanceof AgentCardVerificationError &&
      e.reason === 'bad-signature' &&
      BAD.test(e.message),
  );
});

test('re-signing replaces existing signatures; multiple keys give one signature each', async () => {
  const once = await signAgentCard(fullCard(), [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  const twice = await signAgentCard(once, [
    { privateKey: ed.privateKey, kid: 'ed-1', alg: 'EdDSA' },
    { privateKey: other.privateKey, kid: 'es-2', alg: 'ES256' },
  ]);
  assert.deepEqual(
    twice.signatures!.map((s) => decodeHeader(s.protected).kid),
    ['ed-1', 'es-2'],
  );
  assert.equal(once.signatures!.length, 1, 'input card untouched');
  assert.equal(
    (await verifyAgentCard(twice, { keys: [{ kid: 'es-1', key: es.publicKey }] })).verified,
    false,
  );
  // Key rotation: a verifier that knows only the second key still accepts the card.
  const r = await verifyAgentCard(twice, { keys: [{ kid: 'es-2', key: other.publicKey }] });
  assert.deepEqual(r, { verified: true, kid: 'es-2', alg: 'ES256' });
  await assert.rejects(signAgentCard(fullCard(), []), TypeError);
});

test('unknown kid → unknown-kid; a wrong key under a known kid → bad-signature', async () => {
  const signed = await signAgentCard(fullCard(), [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  const r = await verifyAgentCard(signed, { keys: [{ kid: 'someone-else', key: es.publicKey }] });
  assert.equal(r.verified, false);
  if (!r.verified) {
    assert.equal(r.reason, 'unknown-kid');
    assert.match(r.message, /kid "es-1"/);
  }
  const wrong = await verifyAgentCard(signed, { keys: [{ kid: 'es-1', key: other.publicKey }] });
  assert.equal(!wrong.verified && wrong.reason, 'bad-signature');
  // Unknown keys cannot be checked: tolerated unless a signature is required.
  await assertAgentCardVerified(signed, {});
  await assert.rejects(assertAgentCardVerified(signed, { requireSignature: true }), {
    reason: 'unknown-kid',
  });
});

test('§8.4.3 unsigned card: reported as unsigned; rejected only when requireSignature is set', async () => {
  const r = await verifyAgentCard(fullCard(), { keys: [{ kid: 'es-1', key: es.publicKey }] });
  assert.deepEqual(r.verified === false && r.reason, 'unsigned');
  assert.equal((await verifyAgentCard({ ...fullCard(), signatures: [] })).verified, false);
  const tolerated = await assertAgentCardVerified(fullCard(), {});
  assert.equal(tolerated.verified, false);
  await assert.rejects(
    assertAgentCardVerified(fullCard(), { requireSignature: true }),
    (e: unknown) => e instanceof AgentCardVerificationError && e.reason === 'unsigned',
  );
});

test('JWKS trust: a static key set finds the key by kid', async () => {
  const signed = await signAgentCard(fullCard(), [
    { privateKey: ed.privateKey, kid: 'ed-1', alg: 'EdDSA' },
  ]);
  const jwks: JSONWebKeySet = {
    keys: [
      { ...(await exportJWK(other.publicKey)), kid: 'es-2', use: 'sig' },
      { ...(await exportJWK(ed.publicKey)), kid: 'ed-1', use: 'sig' },
    ],
  };
  assert.deepEqual(await verifyAgentCard(signed, { jwks }), {
    verified: true,
    kid: 'ed-1',
    alg: 'EdDSA',
  });
  // A JWK pinned to another algorithm is refused rather than tried.
  const pinned = { keys: [{ ...(await exportJWK(ed.publicKey)), kid: 'ed-1', alg: 'ES256' }] };
  const r = await verifyAgentCard(signed, { jwks: pinned });
  assert.equal(!r.verified && r.reason, 'alg-not-allowed');
});

test('jku is never fetched unless allowed; an allowed jku is fetched from a real local server', async () => {
  const jwks = { keys: [{ ...(await exportJWK(es.publicKey)), kid: 'es-1' }] };
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const jku = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    const signed = await signAgentCard(fullCard(), [
      { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256', jku },
    ]);
    let fetcherCalls = 0;
    const r = await verifyAgentCard(signed, {
      jwks: async () => {
        fetcherCalls++;
        return jwks;
      },
    });
    assert.equal(!r.verified && r.reason, 'unknown-kid');
    assert.match(!r.verified ? r.message : '', /not in allowedJkuUrls/);
    assert.equal(fetcherCalls, 0);
    assert.equal(hits, 0);
    const ok = await verifyAgentCard(signed, { allowedJkuUrls: [new URL(jku)] });
    assert.deepEqual(ok, { verified: true, kid: 'es-1', alg: 'ES256' });
    assert.equal(hits, 1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('algorithm allow-list: none and HS256 are refused by default; a narrowed list refuses ES256', async () => {
  const card = fullCard();
  const payload = canonicalCardBytes(card);
  const hs = await new FlattenedSign(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JOSE', kid: 'h' })
    .sign(new Uint8Array(32).fill(7));
  const hsCard: AgentCard = {
    ...card,
    signatures: [{ protected: hs.protected!, signature: hs.signature }],
  };
  const r1 = await verifyAgentCard(hsCard, {
    keys: [{ kid: 'h', key: await exportJWK(es.publicKey) }],
  });
  assert.equal(!r1.verified && r1.reason, 'alg-not-allowed');
  const none = Buffer.from(JSON.stringify({ alg: 'none', kid: 'es-1' })).toString('base64url');
  const noneCard: AgentCard = { ...card, signatures: [{ protected: none, signature: 'AA' }] };
  const r2 = await verifyAgentCard(noneCard, {
    keys: [{ kid: 'es-1', key: es.publicKey }],
    algorithms: ['none', 'ES256'],
  });
  assert.equal(!r2.verified && r2.reason, 'alg-not-allowed');
  const signed = await signAgentCard(card, [
    { privateKey: es.privateKey, kid: 'es-1', alg: 'ES256' },
  ]);
  const r3 = await verifyAgentCard(signed, {
    keys: [{ kid: 'es-1', key: es.publicKey }],
    algorithms: ['EdDSA'],
  });
  assert.equal(!r3.verified && r3.reason, 'alg-not-allowed');
});

test('malformed signatures: bad base64url, non-JSON header, missing kid', async () => {
  const card = fullCard();
  const noKid = Buffer.from(JSON.stringify({ alg: 'ES256' })).toString('base64url');
  for (const sig of [
    { protected: '***', signature: 'AA' },
    { protected: Buffer.from('not json').toString('base64url'), signature: 'AA' },
    { protected: noKid, signature: 'AA' },
  ]) {
    const r = await verifyAgentCard(
      { ...card, signatures: [sig] },
      { keys: [{ kid: 'es-1', key: es.publicKey }] },
    );
    assert.equal(!r.verified && r.reason, 'malformed');
  }
  await assert.rejects(
    assertAgentCardVerified({ ...card, signatures: [{ protected: noKid, signature: 'AA' }] }, {}),
    { reason: 'malformed' },
  );
});
