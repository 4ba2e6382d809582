import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { AgentCard } from '../src/protocol/index.js';
import { jwtBearer } from '../src/server/index.js';
import { bearerHeader, call, failed, ok, say, start } from './auth-fixture.js';

const ISS = 'https://idp.example';
const AUD = 'https://agent.example';

const OIDC: Partial<AgentCard> = {
  securitySchemes: {
    oidc: {
      openIdConnectSecurityScheme: { openIdConnectUrl: `${ISS}/.well-known/openid-configuration` },
    },
  },
  securityRequirements: [{ schemes: { oidc: { list: ['tasks'] } } }],
};

async function keyPair(kid: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

function token(
  key: CryptoKey,
  kid: string,
  claims: Record<string, unknown>,
  exp: string | number = '5m',
  aud = AUD,
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(ISS)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
}

const echoCaller = {
  executor: (ctx: any, task: any) =>
    task.reply(JSON.stringify({ id: ctx.caller?.id, scheme: ctx.caller?.scheme })),
};

test('jwtBearer: a valid token names the caller by sub; its scope claim feeds the card scope check', async () => {
  const k = await keyPair('k1');
  const s = await start(OIDC, {
    ...echoCaller,
    auth: {
      verifiers: {
        oidc: jwtBearer({ keys: createLocalJWKSet({ keys: [k.jwk] }), issuer: ISS, audience: AUD }),
      },
    },
  });
  try {
    const good = await token(k.privateKey, 'k1', { sub: 'alice', scope: 'openid tasks' });
    assert.deepEqual(
      JSON.parse(
        ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(good))).message
          .parts[0].text,
      ),
      {
        id: 'alice',
        scheme: 'oidc',
      },
    );
    const noScope = await token(k.privateKey, 'k1', { sub: 'alice', scope: 'openid' });
    assert.match(
      failed(
        await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(noScope)),
        'PermissionDenied',
      ),
      /tasks/,
    );
  } finally {
    await s.close();
  }
});

test('jwtBearer: expired, wrong audience, unknown key, forged signature, no sub, not a JWT → 401 with the reason', async () => {
  const k = await keyPair('k1');
  const other = await keyPair('k1');
  const stranger = await keyPair('k9');
  const s = await start(OIDC, {
    ...echoCaller,
    auth: {
      verifiers: {
        oidc: jwtBearer({
          keys: createLocalJWKSet({ keys: [k.jwk] }),
          issuer: ISS,
          audience: AUD,
          clockToleranceSeconds: 0,
        }),
      },
    },
  });
  try {
    const refused = async (tok: string) =>
      failed(
        await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(tok)),
        'Unauthenticated',
      );
    const past = Math.floor(Date.now() / 1000) - 60;
    assert.match(
      await refused(await token(k.privateKey, 'k1', { sub: 'a', scope: 'tasks' }, past)),
      /expired/,
    );
    assert.match(
      await refused(
        await token(k.privateKey, 'k1', { sub: 'a', scope: 'tasks' }, '5m', 'https://elsewhere'),
      ),
      /"aud" claim/,
    );
    assert.match(
      await refused(await token(stranger.privateKey, 'k9', { sub: 'a', scope: 'tasks' })),
      /unknown key/,
    );
    assert.match(
      await refused(await token(other.privateKey, 'k1', { sub: 'a', scope: 'tasks' })),
      /signature/,
    );
    assert.match(await refused(await token(k.privateKey, 'k1', { scope: 'tasks' })), /"sub"/);
    assert.match(await refused('not-a-jwt'), /not a valid JWT/);
  } finally {
    await s.close();
  }
});

test("jwtBearer: keys from a JWKS URL; an unreachable JWKS is an internal error, not the caller's fault", async () => {
  const k = await keyPair('k1');
  const jwks = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: [k.jwk] })),
  );
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  const url = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`);
  const s = await start(OIDC, {
    ...echoCaller,
    auth: { verifiers: { oidc: jwtBearer({ keys: url, issuer: ISS, audience: AUD }) } },
  });
  try {
    const good = await token(k.privateKey, 'k1', { sub: 'carol', scp: ['tasks'] });
    assert.equal(
      JSON.parse(
        ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(good))).message
          .parts[0].text,
      ).id,
      'carol',
    );
  } finally {
    await s.close();
    jwks.closeAllConnections();
    await new Promise<void>((r) => jwks.close(() => r()));
  }
  const down = await start(OIDC, {
    ...echoCaller,
    auth: { verifiers: { oidc: jwtBearer({ keys: url, issuer: ISS, audience: AUD }) } },
  });
  try {
    const tok = await token(k.privateKey, 'k1', { sub: 'carol', scope: 'tasks' });
    const a = await call(down.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(tok));
    failed(a, 'Internal');
    assert.doesNotMatch(
      JSON.stringify(a.body),
      /ECONNREFUSED|127\.0\.0\.1/,
      'internal details stay in the log',
    );
  } finally {
    await down.close();
  }
});

test("jwtBearer without keys: keys and issuer discovered from the card's openIdConnectUrl; a down IdP is Internal, then retried", async () => {
  const k = await keyPair('k1');
  let up = false;
  let discoveries = 0;
  const idp = createServer((req, res) => {
    const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    if (!up) return void res.writeHead(503).end();
    if (req.url === '/.well-known/openid-configuration') {
      discoveries++;
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: [k.jwk] }));
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const card: Partial<AgentCard> = {
    securitySchemes: {
      oidc: {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: `${issuer}/.well-known/openid-configuration`,
        },
      },
    },
    securityRequirements: [{ schemes: { oidc: { list: [] } } }],
  };
  const s = await start(card, {
    ...echoCaller,
    auth: { verifiers: { oidc: jwtBearer({ audience: AUD }) } },
  });
  const signed = (iss: string) =>
    new SignJWT({ sub: 'dana' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(iss)
      .setAudience(AUD)
      .setExpirationTime('5m')
      .sign(k.privateKey);
  try {
    failed(
      await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(await signed(issuer))),
      'Internal',
    );
    up = true;
    const a = await call(
      s.origin,
      'jsonrpc',
      'SendMessage',
      say('x'),
      bearerHeader(await signed(issuer)),
    );
    assert.equal(JSON.parse(ok(a).message.parts[0].text).id, 'dana');
    assert.match(
      failed(
        await call(s.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(await signed(ISS))),
        'Unauthenticated',
      ),
      /"iss" claim/,
    );
    assert.equal(discoveries, 1, 'the discovery document is read once, then cached');
  } finally {
    await s.close();
    idp.closeAllConnections();
    await new Promise<void>((r) => idp.close(() => r()));
  }
  // A scheme without a discovery URL cannot use key discovery: refused at start.
  await assert.rejects(
    start(
      {
        securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { b: { list: [] } } }],
      },
      {
        auth: { verifiers: { b: jwtBearer({ audience: AUD }) } },
      },
    ),
    /cannot check a bearer token/,
  );
});

test('jwtBearer requires an audience decision: none, an empty one or both → a clear error at construction', () => {
  const keys = new Uint8Array(32);
  assert.throws(
    () => jwtBearer({ keys, issuer: ISS } as any),
    /`audience` is required.*acceptAnyAudience: true/s,
  );
  assert.throws(() => jwtBearer({ keys, issuer: ISS, audience: '' }), /non-empty/);
  assert.throws(() => jwtBearer({ keys, issuer: ISS, audience: [] }), /non-empty/);
  assert.throws(
    () => jwtBearer({ keys, issuer: ISS, audience: AUD, acceptAnyAudience: true } as any),
    /not both/,
  );
  assert.throws(
    () => jwtBearer({ keys, issuer: ISS, acceptAnyAudience: false } as any),
    /may only be `true`/,
  );
  // Without keys (discovery) the audience is still required: the discovery document cannot say which one is ours.
  assert.throws(() => jwtBearer({} as any), /`audience` is required/);
});

test('jwtBearer with acceptAnyAudience: true accepts a token for another audience of the issuer; audience lists accept any listed one', async () => {
  const k = await keyPair('k1');
  const keys = createLocalJWKSet({ keys: [k.jwk] });
  const any = await start(OIDC, {
    ...echoCaller,
    auth: { verifiers: { oidc: jwtBearer({ keys, issuer: ISS, acceptAnyAudience: true }) } },
  });
  const listed = await start(OIDC, {
    ...echoCaller,
    auth: { verifiers: { oidc: jwtBearer({ keys, issuer: ISS, audience: [AUD, 'urn:agent:b'] }) } },
  });
  try {
    const elsewhere = await token(
      k.privateKey,
      'k1',
      { sub: 'erin', scope: 'tasks' },
      '5m',
      'https://elsewhere',
    );
    assert.equal(
      JSON.parse(
        ok(await call(any.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(elsewhere)))
          .message.parts[0].text,
      ).id,
      'erin',
    );
    const forB = await token(
      k.privateKey,
      'k1',
      { sub: 'erin', scope: 'tasks' },
      '5m',
      'urn:agent:b',
    );
    assert.equal(
      JSON.parse(
        ok(await call(listed.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(forB)))
          .message.parts[0].text,
      ).id,
      'erin',
    );
    assert.match(
      failed(
        await call(listed.origin, 'jsonrpc', 'SendMessage', say('x'), bearerHeader(elsewhere)),
        'Unauthenticated',
      ),
      /"aud" claim/,
    );
  } finally {
    await any.close();
    await listed.close();
  }
});
