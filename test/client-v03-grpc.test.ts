/**
 * A card's GRPC 0.3 entry (the cross-SDK integration kit's 0.3 agents list one first): our gRPC
 * transport speaks 1.0 only, so the client skips that entry as §8.3.2 asks and takes the next one it
 * can speak — it used to pick it and call a 0.3 service with 1.0 methods (MethodNotFound).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCard } from '../src/protocol/index.js';
import { A2AClient, isA2AClientError, selectInterface } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { agent as executor, cardFor, message } from './rest-fixture.js';

let server: AgentServer;
let card: AgentCard;

before(async () => {
  server = createAgentServer({ card: (o) => cardFor(o, 'full'), executor, compat: { v03: true } });
  const origin = await server.listen(0);
  // How a 0.3 agent with gRPC lists itself: gRPC preferred, JSON-RPC next (here ours, at 0.3).
  card = {
    ...cardFor(origin, 'full'),
    supportedInterfaces: [
      { url: '127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '0.3' },
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
  };
});
after(() => server.close(1000));

test('§8.3.2 a GRPC 0.3 entry is skipped by a client whose gRPC transport speaks 1.0', async () => {
  const client = new A2AClient(card, {
    versions: ['1.0', '0.3'],
    transports: { GRPC: grpcTransport() },
  });
  assert.equal(client.interface.binding, 'JSONRPC');
  assert.match(
    client.interface.reason,
    /skipped \[0\] GRPC 0\.3: no GRPC transport for version 0\.3/,
  );
  const sent = await client.sendMessage({ message: message('echo 0.3') as never });
  assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
});

test('§8.3.2 with nothing else to speak, the error says why the GRPC 0.3 entry was not used', () => {
  const only = { ...card, supportedInterfaces: [card.supportedInterfaces[0]!] };
  assert.throws(
    () => new A2AClient(only, { versions: ['1.0', '0.3'], transports: { GRPC: grpcTransport() } }),
    (e: unknown) =>
      isA2AClientError(e) &&
      e.code === 'NO_COMPATIBLE_INTERFACE' &&
      /no GRPC transport for version 0\.3/.test(e.message),
  );
});

test('selectInterface alone still knows nothing of transports (its caller may)', () => {
  assert.equal(selectInterface(card, { bindings: ['GRPC'], versions: ['0.3'] }).binding, 'GRPC');
  assert.equal(
    selectInterface(card, {
      bindings: ['GRPC', 'JSONRPC'],
      versions: ['0.3'],
      canSpeak: (binding) => binding !== 'GRPC',
    }).binding,
    'JSONRPC',
  );
});
