import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, selectInterface, majorMinor, isA2AClientError } from '../src/client/index.js';
import { makeCard } from './client-fixture.js';

const B = 'http://localhost:41241';
const threeEntries = makeCard(B, {
  supportedInterfaces: [
    { url: 'localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: `${B}/a2a/v0`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: `${B}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${B}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
});

test('§8.3.2 a JSON-RPC 1.0 client skips a GRPC entry and a JSONRPC 0.3 entry and takes the third', () => {
  const s = selectInterface(threeEntries, { bindings: ['JSONRPC'] });
  assert.equal(s.index, 2);
  assert.equal(s.binding, 'JSONRPC');
  assert.equal(s.url, `${B}/a2a/jsonrpc`);
  assert.equal(s.tenant, undefined);
  assert.equal(
    s.reason,
    `skipped [0] GRPC 1.0: binding not spoken; skipped [1] JSONRPC 0.3: version not spoken; chose [2] JSONRPC 1.0 at ${B}/a2a/jsonrpc`,
  );
});

test('§8.3.2 the card order wins over the order of the bindings the caller accepts', () => {
  const s = selectInterface(threeEntries, { bindings: ['HTTP+JSON', 'JSONRPC'] });
  assert.equal(s.index, 2);
  assert.equal(selectInterface(threeEntries, { bindings: ['HTTP+JSON'] }).index, 3);
});

test('§3.6 patch versions never matter when matching', () => {
  assert.equal(majorMinor('1.0.1'), '1.0');
  assert.equal(majorMinor('1'), '1.0');
  assert.equal(majorMinor('x'), undefined);
  const card = makeCard(B, {
    supportedInterfaces: [{ url: `${B}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0.7' }],
  });
  assert.equal(selectInterface(card).protocolVersion, '1.0');
});

test('§8.3.2 the chosen entry carries its tenant', () => {
  const card = makeCard(B, {
    supportedInterfaces: [{ url: `${B}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' }],
  });
  assert.equal(selectInterface(card).tenant, 'acme');
});

test('when nothing matches, the error lists what the card offers and what the client speaks', () => {
  const card = makeCard(B, {
    supportedInterfaces: [
      { url: 'localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: `${B}/v0`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
  });
  assert.throws(
    () => selectInterface(card),
    (e: unknown) => {
      assert.ok(isA2AClientError(e));
      assert.equal(e.code, 'NO_COMPATIBLE_INTERFACE');
      assert.match(e.message, /offers \[0\] GRPC 1\.0 localhost:50051, \[1\] JSONRPC 0\.3/);
      assert.match(e.message, /speaks JSONRPC or HTTP\+JSON at version 1\.0/);
      return true;
    },
  );
  assert.throws(() => new A2AClient(card), (e: unknown) => isA2AClientError(e) && e.code === 'NO_COMPATIBLE_INTERFACE');
});

test('a custom transport makes its binding acceptable', () => {
  const client = new A2AClient(threeEntries, {
    transports: {
      GRPC: (url) => ({
        binding: 'GRPC',
        url,
        call: () => Promise.resolve(undefined),
        stream: () => (async function* () {})(),
      }),
    },
  });
  assert.equal(client.interface.index, 0);
});

test('the client exposes card, capabilities and interface', () => {
  const client = new A2AClient(threeEntries);
  assert.equal(client.interface.index, 2);
  assert.equal(client.capabilities.streaming, true);
  assert.equal(client.card.name, 'test-agent');
});
