/**
 * createAgentServer serving gRPC next to HTTP (the `grpc` option): the card lists the GRPC interface
 * from the same configuration, our client takes it when it comes first, authentication is the HTTP
 * one, a card listing GRPC that nobody serves refuses to start, and close() drains gRPC calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, credentials, status as Status, type ServiceError } from '@grpc/grpc-js';
import type { AgentCard } from '../src/protocol/index.js';
import { A2AClient } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { GRPC_METHODS } from '../src/protocol/grpc/index.js';
import { BOUND_MS, agent, cardFor, message, optionsFor } from './rest-fixture.js';

const GRPC = { GRPC: grpcTransport() };
const msg = (text: string) => ({ message: message(text) }) as never;

/** The fixture's card with a GRPC entry first, at `url` (by default where the server serves gRPC). */
function grpcCard(origin: string, url: string): AgentCard {
  const card = cardFor(origin, 'full');
  return {
    ...card,
    supportedInterfaces: [
      { url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ...card.supportedInterfaces,
    ],
  };
}

test('listen with `grpc`: the card lists the GRPC interface, and our client speaks gRPC to it', async () => {
  const server = createAgentServer(
    optionsFor('full', { card: (o, g) => grpcCard(o, g!.url), grpc: { port: 0 } }),
  );
  const origin = await server.listen(0);
  try {
    const g = server.grpc!;
    assert.ok(g.port > 0);
    const card = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as AgentCard;
    assert.deepEqual(card.supportedInterfaces[0], {
      url: g.url,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });

    const client = await A2AClient.connect(origin, {
      transports: GRPC,
      headers: { authorization: 'Bearer good' },
    });
    assert.equal(client.interface.binding, 'GRPC');
    const sent = await client.sendMessage(msg('echo over grpc'));
    assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
    // The HTTP authenticator decides over gRPC too: the token makes the caller alice.
    assert.equal((await client.getExtendedAgentCard()).name, 'extended for alice');

    // Without the transport the same card is served over JSON-RPC, and the same task is there.
    const json = await A2AClient.connect(origin, { headers: { authorization: 'Bearer good' } });
    assert.equal(json.interface.binding, 'JSONRPC');
    assert.match(json.interface.reason, /skipped \[0\] GRPC 1\.0: binding not spoken/);
    assert.equal((await json.getTask(sent.task.id)).id, sent.task.id);
  } finally {
    await server.close(1000);
  }
});

test('§8.3.1 a card listing a GRPC interface without the `grpc` option → listen() rejects naming the entry', async () => {
  const server = createAgentServer(
    optionsFor('full', { card: (o) => grpcCard(o, 'http://127.0.0.1:50051') }),
  );
  await assert.rejects(server.listen(0), (e: Error) => {
    assert.match(
      e.message,
      /supportedInterfaces\[0\] lists GRPC 1\.0 at http:\/\/127\.0\.0\.1:50051/,
    );
    assert.match(e.message, /gRPC is not configured/);
    assert.match(e.message, /`grpc` option/);
    return true;
  });
  await server.close();
});

test('§8.3.1 a GRPC entry on another port than the gRPC listener → listen() rejects, and the gRPC port is closed again', async () => {
  const server = createAgentServer(
    optionsFor('full', { card: (o) => grpcCard(o, 'http://127.0.0.1:1'), grpc: { port: 0 } }),
  );
  await assert.rejects(
    server.listen(0),
    /supportedInterfaces\[0\] lists GRPC 1\.0 at http:\/\/127\.0\.0\.1:1, which this server does not serve: its gRPC listener is at/,
  );
  assert.equal(server.grpc, undefined);
  await server.close();
});

test('close() drains: an in-flight gRPC call still gets its answer, then the gRPC port refuses calls', async () => {
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const gated: AgentExecutor = async (ctx, task) => {
    if (!ctx.text.startsWith('gate')) return agent(ctx, task);
    task.working();
    entered();
    await gate;
    task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
    task.complete();
  };
  const server = createAgentServer(
    optionsFor('full', { executor: gated, card: (o, g) => grpcCard(o, g!.url), grpc: { port: 0 } }),
  );
  const origin = await server.listen(0);
  const target = server.grpc!.target;
  const client = await A2AClient.connect(origin, { transports: GRPC, retry: false });
  assert.equal(client.interface.binding, 'GRPC');
  const inFlight = client.sendMessage(msg('gate drained'));
  await inside;
  const closing = server.close(BOUND_MS);
  release();
  const sent = await inFlight;
  assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  await closing;
  assert.equal(server.grpc, undefined);

  const raw = new Client(target, credentials.createInsecure());
  try {
    const err = await new Promise<ServiceError | null>((resolve) =>
      raw.makeUnaryRequest(
        GRPC_METHODS.GetTask.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        { deadline: Date.now() + BOUND_MS },
        (e) => resolve(e),
      ),
    );
    assert.equal(err?.code, Status.UNAVAILABLE);
  } finally {
    raw.close();
  }
});
