import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAgentCard } from '../src/protocol/card-schema.js';
import { parseAgentCard as fromIndex } from '../src/protocol/index.js';
import { fullCard } from './card-fixture.js';

const problemsOf = (value: unknown): string[] => {
  const r = parseAgentCard(value);
  assert.equal(r.ok, false, 'expected the card to be rejected');
  return r.ok ? [] : r.problems;
};

test('a full card (all security schemes, flows, extensions, skills, signatures) is accepted unchanged', async () => {
  const card = {
    ...fullCard(),
    signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { x: 1 } }],
  };
  const r = parseAgentCard(card);
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  assert.deepEqual(r.card, card);
  // The public parse (asynchronous: it loads this schema on first use) gives the same answer.
  assert.deepEqual(await fromIndex(card), r);
  assert.deepEqual(await fromIndex({ ...card, name: '' }), parseAgentCard({ ...card, name: '' }));
});

test('§5.7 unknown members are ignored and passed through untouched', () => {
  const card = {
    ...fullCard(),
    nextGenField: { a: 1 },
    capabilities: { ...fullCard().capabilities, futureFlag: true },
  };
  const r = parseAgentCard(JSON.stringify(card));
  assert.ok(r.ok);
  assert.deepEqual(r.card, card);
});

test('§5.7 missing REQUIRED members are reported by path', () => {
  const card: Record<string, unknown> = { ...fullCard() };
  delete card.capabilities;
  delete card.version;
  delete card.skills;
  const problems = problemsOf(card);
  assert.ok(problems.includes('capabilities: is required'), problems.join('\n'));
  assert.ok(problems.includes('version: is required'));
  // An empty skill list is valid, and a ProtoJSON writer leaves it out: absent is `[]` (SPEC-NOTES 17).
  assert.deepEqual(problems, ['version: is required', 'capabilities: is required']);
});

test('§5.7 supportedInterfaces must contain at least one interface; empty skills/tags are tolerated', () => {
  assert.deepEqual(problemsOf({ ...fullCard(), supportedInterfaces: [] }), [
    'supportedInterfaces: must list at least one interface',
  ]);
  const lenient = { ...fullCard(), skills: [{ id: 'a', name: 'A', description: '', tags: [] }] };
  assert.equal(parseAgentCard(lenient).ok, true);
  assert.equal(parseAgentCard({ ...fullCard(), skills: [] }).ok, true);
});

test('a broken card yields actionable problems, one per fault', () => {
  const card: any = fullCard();
  card.supportedInterfaces[1].url = 'tides.test/rest';
  card.supportedInterfaces[0].protocolVersion = 'v1';
  card.provider.url = 42;
  card.capabilities.streaming = 'yes';
  card.securitySchemes.key.apiKeySecurityScheme.location = 'body';
  card.securitySchemes.both = {
    mtlsSecurityScheme: {},
    httpAuthSecurityScheme: { scheme: 'Basic' },
  };
  card.securitySchemes.oauth.oauth2SecurityScheme.flows = {};
  card.skills[0].tags = 'tides';
  card.signatures = [{ protected: 'not base64url!', signature: 'x' }];
  const problems = problemsOf(card);
  const expected = [
    'supportedInterfaces[1].url: must be an absolute URL',
    'supportedInterfaces[0].protocolVersion: must be a version such as "1.0"',
    'provider.url: must be a string',
    'capabilities.streaming: must be true or false',
    'securitySchemes.key.apiKeySecurityScheme.location: must be one of header, query, cookie',
    'securitySchemes.both: must contain exactly one security scheme, found httpAuthSecurityScheme and mtlsSecurityScheme',
    'securitySchemes.oauth.oauth2SecurityScheme.flows: must contain exactly one flow ' +
      '(authorizationCode, clientCredentials, implicit, password, deviceCode)',
    'skills[0].tags: must be an array of strings',
    'signatures[0].protected: must be base64url without padding',
  ];
  for (const e of expected)
    assert.ok(problems.includes(e), `missing "${e}" in\n${problems.join('\n')}`);
  assert.equal(problems.length, expected.length, problems.join('\n'));
});

test('HTTP bindings need http(s) URLs; security requirements must name declared schemes', () => {
  const card: any = fullCard();
  card.supportedInterfaces[0].url = 'grpc://tides.test:443';
  card.securityRequirements = [{ schemes: { oauth: { list: [] }, missing: { list: [] } } }];
  card.skills[0].securityRequirements = [{ schemes: { ghost: {} } }];
  assert.deepEqual(problemsOf(card), [
    'supportedInterfaces[0].url: must be an http or https URL for JSONRPC',
    'securityRequirements[0].schemes.missing: refers to security scheme "missing", which securitySchemes does not declare',
    'skills[0].securityRequirements[0].schemes.ghost: refers to security scheme "ghost", which securitySchemes does not declare',
  ]);
});

test('not an object / not JSON', () => {
  assert.deepEqual(problemsOf('[1,2]'), ['(card): must be an object']);
  assert.match(problemsOf('{"name":')[0]!, /^\(card\): is not valid JSON/);
  assert.deepEqual(problemsOf(null), ['(card): must be an object']);
});
