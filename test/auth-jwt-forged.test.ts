/**
 * Issue 28: `jwtBearer` pins the algorithm by the key's type. A token that names another algorithm —
 * HS256 "signed" with the public key's JWK, HS256 with any secret, `none` — and every malformed token
 * is refused with 401 and the scheme's challenge, never an internal error (§7.4, §13.1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, createSecretKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { AgentCard } from '../src/protocol/index.js';
import { jwtBearer } from '../src/server/index.js';
import { algorithmsOfKey, pinAlgorithms } from '../src/server/auth/jwt-algorithms.js';
import { bearerHeader, call, failed, ok, say, start, TRANSPORTS } from './auth-fixture.js';

const ISS = 'https://idp.example';
const AUD = 'https://agent.example';
const BEARER: Partial<AgentCard> = {
  securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } } },
  securityRequirements: [{ schemes: { jwt: { list: [] } } }],
};
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claims = { sub: 'mallory', iss: ISS, aud: AUD, exp: Math.floor(Date.now() / 1000) + 300 };

/** Tokens no verifier of an RS256 key may accept, each with what it tries. */
async function forgeries(publicJwk: JWK): Promise<Array<[string, string]>> {
  const hs = (secret: Uint8Array) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(secret);
  const forged = (header: object) => `${b64(header)}.${b64(claims)}.c2lnbmF0dXJl`;
  return [
    ['HS256 keyed with the public JWK', await hs(Buffer.from(JSON.stringify(publicJwk)))],
    ['HS256 keyed with any secret', await hs(Buffer.from('any secret at all'))],
    ['alg none', `${b64({ alg: 'none' })}.${b64(claims)}.`],
    ['ES256 against an RSA key', forged({ alg: 'ES256' })],
    ['unknown crit extension', forged({ alg: 'RS256', crit: ['x-evil'], 'x-evil': 1 })],
    ['b64 false', forged({ alg: 'RS256', b64: false, crit: ['b64'] })],
    ['embedded jwk header', forged({ alg: 'RS256', jwk: publicJwk })],
    ['alg as a number', forged({ alg: 5 })],
    ['header that is not JSON', `${Buffer.from('{"alg":').toString('base64url')}.e30.c2ln`],
    ['two segments', `${b64({ alg: 'RS256' })}.${b64(claims)}`],
    ['not base64url', '!!!.???.***'],
    ['empty segments', '..'],
  ];
}

async function jwksServer(jwk: JWK): Promise<{ url: URL; close(): Promise<void> }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

test('§7.4 jwtBearer: forged and malformed tokens → 401 with the challenge, for every form of key (issue 28)', async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
  const jwks = await jwksServer({ ...jwk, alg: 'RS256', use: 'sig' });
  const keyForms = {
    'a public JWK': jwk,
    'a KeyObject': createPublicKey({ key: jwk as never, format: 'jwk' }),
    'a CryptoKey': publicKey,
    'a local JWK set': createLocalJWKSet({ keys: [jwk] }),
    'a JWKS URL': jwks.url,
  };
  const tokens = await forgeries(jwk);
  const genuine = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .sign(privateKey);
  try {
    for (const [form, keys] of Object.entries(keyForms)) {
      const s = await start(BEARER, {
        executor: (ctx, task) => task.reply(`hello ${ctx.caller?.id}`),
        auth: { verifiers: { jwt: jwtBearer({ keys, issuer: ISS, audience: AUD }) } },
      });
      try {
        for (const transport of TRANSPORTS) {
          ok(await call(s.origin, transport, 'SendMessage', say('x'), bearerHeader(genuine)));
          for (const [what, token] of tokens) {
            const a = await call(s.origin, transport, 'SendMessage', say('x'), bearerHeader(token));
            assert.equal(
              a.status,
              401,
              `${form}, ${transport}, ${what}: ${JSON.stringify(a.body)}`,
            );
            failed(a, 'Unauthenticated');
            assert.match(a.headers.get('www-authenticate') ?? '', /^Bearer/, `${form}: ${what}`);
          }
        }
      } finally {
        await s.close();
      }
    }
  } finally {
    await jwks.close();
  }
});

test('jwtBearer with a shared secret: only HMAC tokens of that secret pass; an RS256 token is 401', async () => {
  const secret = new TextEncoder().encode('a shared secret of enough length!!');
  const { privateKey } = await generateKeyPair('RS256');
  const s = await start(BEARER, {
    executor: (ctx, task) => task.reply(`hello ${ctx.caller?.id}`),
    auth: { verifiers: { jwt: jwtBearer({ keys: secret, issuer: ISS, audience: AUD }) } },
  });
  try {
    const good = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(good)));
    const rs = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    assert.match(
      failed(
        await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(rs)),
        'Unauthenticated',
      ),
      /algorithm/,
    );
  } finally {
    await s.close();
  }
});

test('the algorithms a key may verify follow its type; a configuration that can accept nothing fails at once', async () => {
  const ec = await generateKeyPair('ES384', { extractable: true });
  const ed = await generateKeyPair('EdDSA', { extractable: true });
  assert.deepEqual(algorithmsOfKey(ec.publicKey), ['ES384']);
  assert.deepEqual(algorithmsOfKey(await exportJWK(ec.publicKey)), ['ES384']);
  assert.deepEqual(algorithmsOfKey(ed.publicKey), ['EdDSA', 'Ed25519']);
  assert.deepEqual(algorithmsOfKey(createSecretKey(Buffer.alloc(32))), ['HS256', 'HS384', 'HS512']);
  assert.deepEqual(algorithmsOfKey({ kty: 'RSA', alg: 'PS256', n: 'x', e: 'AQAB' }), ['PS256']);
  assert.ok(!algorithmsOfKey(undefined).includes('HS256'), 'discovered keys: asymmetric only');
  assert.deepEqual(pinAlgorithms(ec.publicKey, ['ES384', 'HS256']), ['ES384']);
  assert.throws(() => pinAlgorithms(ec.publicKey, ['HS256']), /none of the algorithms HS256/);
  assert.throws(
    () => jwtBearer({ keys: ec.publicKey, algorithms: ['RS256'], audience: AUD }),
    /none of the algorithms RS256/,
  );
});
