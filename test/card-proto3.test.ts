/**
 * Cards as other SDKs write them (issue 25): ProtoJSON omits members that hold their default and
 * reads `null` as unset (SPEC-NOTES 17). The Python SDK writes an anonymous-allowed requirement as
 * `{}` and leaves out empty lists; its 0.3 agent writes `null` for every unset member. Such cards are
 * valid; REQUIRED members without an acceptable default stay required; signatures still verify.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair } from 'jose';
import { parseAgentCard } from '../src/protocol/card-schema.js';
import type { AgentCard } from '../src/protocol/index.js';
import { signAgentCard } from '../src/server/card/signing.js';
import { createAgentServer, staticBearerTokens } from '../src/server/index.js';
import { A2AClient, resolveAgentCard, verifyAgentCard } from '../src/client/index.js';
import { agent as executor } from './rest-fixture.js';
import { fullCard } from './card-fixture.js';

const problemsOf = (value: unknown): string[] => {
  const r = parseAgentCard(value);
  return r.ok ? [] : r.problems;
};

/** A card as a conforming ProtoJSON writer emits it: every empty list and description left out. */
const sparse = (origin: string) => ({
  name: 'sparse',
  version: '1',
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
  },
  // The Python SDK's "bearer, or anonymous": the second requirement's empty schemes map is omitted.
  securityRequirements: [{ schemes: { bearer: {} } }, {}],
});

test('§4.4 an empty security requirement {} is anonymous access (schemes: {}), not an invalid card', () => {
  const r = parseAgentCard(sparse('http://a.test'));
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  assert.deepEqual(r.card.securityRequirements, [{ schemes: { bearer: {} } }, { schemes: {} }]);
});

test('§4.4 REQUIRED lists and descriptions a ProtoJSON writer omits when empty are read as empty', () => {
  const r = parseAgentCard({
    ...sparse('http://a.test'),
    skills: [{ id: 's', name: 'S' }],
    securitySchemes: {
      o: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://a.test/token' } },
        },
      },
    },
    securityRequirements: [{ schemes: { o: {} } }],
  });
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  assert.equal(r.card.description, '');
  assert.deepEqual(r.card.defaultInputModes, []);
  assert.deepEqual(r.card.defaultOutputModes, []);
  assert.deepEqual(r.card.skills, [{ id: 's', name: 'S', description: '', tags: [] }]);
  const scheme = r.card.securitySchemes?.o;
  assert.ok(scheme && 'oauth2SecurityScheme' in scheme);
  assert.deepEqual(scheme.oauth2SecurityScheme.flows.clientCredentials?.scopes, {});
});

test('§4.4 REQUIRED members with no acceptable default stay required', () => {
  const { name: _n, version: _v, capabilities: _c, ...rest } = sparse('http://a.test');
  assert.deepEqual(problemsOf({ ...rest, supportedInterfaces: [{ protocolBinding: 'JSONRPC' }] }), [
    'name: is required',
    'supportedInterfaces[0].url: is required',
    'supportedInterfaces[0].protocolVersion: is required',
    'version: is required',
    'capabilities: is required',
  ]);
});

test('§5.5 null members are unset, at any depth; Struct contents keep their nulls', () => {
  const card = {
    ...fullCard(),
    provider: null,
    documentationUrl: null,
    iconUrl: null,
    signatures: null,
    capabilities: { streaming: null, extensions: [{ uri: 'https://e.test', params: { k: null } }] },
    skills: [{ id: 's', name: 'S', description: 'd', tags: null, examples: null }],
  };
  const r = parseAgentCard(card);
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  assert.equal('provider' in r.card, false);
  assert.equal('documentationUrl' in r.card, false);
  assert.deepEqual(r.card.capabilities, {
    extensions: [{ uri: 'https://e.test', params: { k: null } }],
  });
  assert.deepEqual(r.card.skills, [{ id: 's', name: 'S', description: 'd', tags: [] }]);
});

test('§8.4 a signed card verifies after its nulls are dropped and omitted defaults filled', async () => {
  const keys = await generateKeyPair('ES256');
  const unsigned = { ...sparse('http://a.test'), provider: null } as unknown as AgentCard;
  const signed = await signAgentCard(unsigned, [
    { privateKey: keys.privateKey, kid: 'k', alg: 'ES256' },
  ]);
  const r = parseAgentCard(JSON.parse(JSON.stringify(signed)));
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  assert.deepEqual(r.card.skills, []);
  const v = await verifyAgentCard(r.card, { keys: [{ kid: 'k', key: keys.publicKey }] });
  assert.equal(v.verified, true, JSON.stringify(v));
});

/** A server that answers its well-known card path with `card` as JSON, byte for byte. */
async function cardHost(
  card: (origin: string) => unknown,
): Promise<{ origin: string; server: Server }> {
  let origin = '';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card(origin)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server };
}

let python03: { origin: string; server: Server };
before(async () => {
  // The shape of the Python SDK 0.3 agent's card: every unset member written as null.
  python03 = await cardHost((origin) => ({
    name: 'py03',
    description: 'a 0.3 agent',
    url: `${origin}/`,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    version: '1.0.0',
    provider: null,
    documentationUrl: null,
    iconUrl: null,
    additionalInterfaces: null,
    capabilities: {
      streaming: true,
      pushNotifications: null,
      extensions: null,
      stateTransitionHistory: null,
    },
    security: null,
    securitySchemes: null,
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [
      {
        id: 's',
        name: 'S',
        description: 'd',
        tags: ['t'],
        examples: null,
        inputModes: null,
        outputModes: null,
        security: null,
      },
    ],
    supportsAuthenticatedExtendedCard: null,
    signatures: null,
  }));
});
after(() => python03.server.close());

test('a 0.3 card full of nulls (the Python 0.3 agent) is read, and its JSON-RPC entry chosen', async () => {
  const card = await resolveAgentCard(python03.origin, { cache: false });
  assert.equal(card.supportedInterfaces[0]?.protocolVersion, '0.3');
  assert.equal('provider' in card, false);
  const client = new A2AClient(card, { versions: ['1.0', '0.3'] });
  assert.equal(client.interface.url, `${python03.origin}/`);
});

test('createAgentServer and A2AClient.connect take a card whose second requirement is {}', async () => {
  const server = createAgentServer({
    card: (origin) => sparse(origin) as unknown as AgentCard,
    executor,
    auth: { verifiers: { bearer: staticBearerTokens({ 'token-0123456789abcdef': 'alice' }) } },
  });
  const origin = await server.listen(0);
  try {
    const client = await A2AClient.connect(origin, { cache: false });
    // Anonymous is one of the card's alternatives: a call without credentials is served.
    const sent = await client.sendMessage({
      message: { messageId: 'anon', role: 'ROLE_USER', parts: [{ text: 'echo anonymous' }] },
    });
    assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  } finally {
    await server.close(1000);
  }
});
