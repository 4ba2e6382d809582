import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalCardBytes,
  canonicalCardJson,
  canonicalCardObject,
} from '../src/protocol/card-canonical.js';
import { cardETag, servedCardBytes } from '../src/server/card/served-bytes.js';
import type { AgentCard } from '../src/protocol/card.js';
import { fullCard } from './card-fixture.js';

type Loose = Record<string, any>;

test('§8.4.1 worked example: REQUIRED kept at default, explicit optional bools kept, empty repeated dropped', () => {
  const fragment = {
    name: 'Example Agent',
    description: '',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    skills: [],
  };
  assert.equal(
    canonicalCardJson(fragment),
    '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}',
  );
});

test('§8.4.1 default-valued members without presence are dropped, recursively', () => {
  const card: Loose = fullCard();
  card.supportedInterfaces[0].tenant = '';
  card.provider = {};
  card.securitySchemes.bearer.httpAuthSecurityScheme.bearerFormat = '';
  card.securitySchemes.bearer.httpAuthSecurityScheme.description = '';
  card.capabilities.extensions = [
    { uri: 'https://ext.test/x', description: '', required: false, params: {} },
  ];
  card.skills[0].examples = [];
  card.skills[0].securityRequirements = [];
  card.securityRequirements[1].schemes.key.list = [];
  const c = canonicalCardObject(card) as Loose;
  assert.equal('tenant' in c.supportedInterfaces[0], false);
  assert.equal('provider' in c, false);
  assert.deepEqual(c.securitySchemes.bearer, { httpAuthSecurityScheme: { scheme: 'Bearer' } });
  assert.deepEqual(c.capabilities.extensions, [{ uri: 'https://ext.test/x' }]);
  assert.equal('examples' in c.skills[0], false);
  assert.equal('securityRequirements' in c.skills[0], false);
  // A StringList whose only member is empty becomes an empty message, but the map entry stays.
  assert.deepEqual(c.securityRequirements[1], { schemes: { key: {} } });
});

test('§8.4.1 explicitly present optional members and oneof members survive at their defaults', () => {
  const card: Loose = fullCard();
  card.documentationUrl = '';
  card.capabilities = { streaming: false, pushNotifications: false, extendedAgentCard: false };
  const c = canonicalCardObject(card) as Loose;
  assert.equal(c.documentationUrl, '');
  assert.deepEqual(c.capabilities, {
    streaming: false,
    pushNotifications: false,
    extendedAgentCard: false,
  });
  // The oneof choice is the information: an empty mTLS scheme must not vanish.
  assert.deepEqual(c.securitySchemes.mtls, { mtlsSecurityScheme: {} });
  // REQUIRED map kept even when empty.
  assert.deepEqual(c.securitySchemes.device.oauth2SecurityScheme.flows.deviceCode.scopes, {});
  // Omitted optional members stay omitted.
  const bare: Loose = fullCard();
  delete bare.capabilities.pushNotifications;
  assert.equal('pushNotifications' in (canonicalCardObject(bare) as Loose).capabilities, false);
});

test('§8.4.1 REQUIRED members are kept at default values', () => {
  const card: Loose = fullCard();
  card.defaultInputModes = [];
  card.skills = [{ id: 's', name: 'S', description: '', tags: [] }];
  const c = canonicalCardObject(card) as Loose;
  assert.deepEqual(c.defaultInputModes, []);
  assert.deepEqual(c.skills, [{ id: 's', name: 'S', description: '', tags: [] }]);
});

test('§8.4.1 the signatures member is excluded from the canonical form', () => {
  const card = fullCard();
  const signed: AgentCard = {
    ...card,
    signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'abc' }],
  };
  assert.equal(canonicalCardJson(signed), canonicalCardJson(card));
  assert.equal(canonicalCardJson(signed).includes('signatures'), false);
});

test('§8.4.1 RFC 8785: keys sorted at every level, no whitespace, insertion order irrelevant', () => {
  const a = fullCard();
  const reversed = (o: unknown): unknown =>
    Array.isArray(o)
      ? o.map(reversed)
      : o && typeof o === 'object'
        ? Object.fromEntries(
            Object.entries(o)
              .reverse()
              .map(([k, v]) => [k, reversed(v)]),
          )
        : o;
  const b = reversed(a) as AgentCard;
  assert.deepEqual(canonicalCardBytes(a), canonicalCardBytes(b));
  const text = canonicalCardJson(a);
  assert.equal(/\s"|":\s|,\s"/.test(text), false);
  const sortedKeys = (o: unknown): boolean =>
    Array.isArray(o)
      ? o.every(sortedKeys)
      : o && typeof o === 'object'
        ? Object.keys(o).every((k, i, ks) => i === 0 || ks[i - 1]! < k) &&
          Object.values(o).every(sortedKeys)
        : true;
  assert.ok(sortedKeys(JSON.parse(text)));
  assert.ok(text.startsWith('{"capabilities":{"extendedAgentCard":false,"extensions":'));
});

test('unknown members are kept verbatim (so a signature covers them); null known members are unset', () => {
  const card: Loose = fullCard();
  card.futureField = { enabled: false };
  card.iconUrl = null;
  const c = canonicalCardObject(card) as Loose;
  assert.deepEqual(c.futureField, { enabled: false });
  assert.equal('iconUrl' in c, false);
});

test('Struct contents (extension params) are copied verbatim, defaults and nulls included', () => {
  const card: Loose = fullCard();
  card.capabilities.extensions[0].params = { a: '', b: 0, c: null, d: [] };
  const c = canonicalCardObject(card) as Loose;
  assert.deepEqual(c.capabilities.extensions[0].params, { a: '', b: 0, c: null, d: [] });
});

test('cardETag: strong, stable across member order, changes with any served change incl. signatures', () => {
  const card = fullCard();
  const tag = cardETag(card);
  assert.match(tag, /^"[A-Za-z0-9_-]{43}"$/);
  const reordered = Object.fromEntries(Object.entries(card).reverse()) as unknown as AgentCard;
  assert.equal(cardETag(reordered), tag);
  assert.notEqual(cardETag({ ...card, version: '2.3.1' }), tag);
  const s1 = { ...card, signatures: [{ protected: 'eyJhIjoxfQ', signature: 'AAAA' }] };
  const s2 = { ...card, signatures: [{ protected: 'eyJhIjoxfQ', signature: 'AAAB' }] };
  assert.notEqual(cardETag(s1), cardETag(s2));
  assert.notEqual(cardETag(s1), tag);
  // Served bytes keep everything, default-valued members included.
  assert.ok(
    servedCardBytes({ ...card, provider: { url: '', organization: '' } }).includes(
      '"organization":""',
    ),
  );
});
