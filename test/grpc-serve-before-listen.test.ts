/**
 * `serveGrpc(agent)` with a card that lists that gRPC endpoint (issue 25, Python SDK interop): called
 * before `listen()`, the listener is the one the card function gets and the card check accepts, as
 * with the `grpc` option. Until the card exists its calls are refused with UNAVAILABLE; the card's
 * security requirements apply to it with the `auth` given to serveGrpc.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Metadata, credentials, status, type ServiceError } from '@grpc/grpc-js';
import { GRPC_METHODS, encodeMessage } from '../src/protocol/grpc/index.js';
import type { AgentCard } from '../src/protocol/index.js';
import { createAgentServer, staticBearerTokens } from '../src/server/index.js';
import { serveGrpc } from '../src/server/grpc/index.js';
import { A2AClient, isA2AError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { agent as executor, cardFor, message } from './rest-fixture.js';

const TOKEN = 'grpc-token-0123456789';

/** The fixture's card with the gRPC listener listed first, and a bearer scheme when `secured`. */
const cardWithGrpc =
  (secured: boolean) =>
  (origin: string, grpc?: { url: string }): AgentCard => {
    const card = cardFor(origin, 'full');
    if (grpc)
      card.supportedInterfaces.unshift({
        url: grpc.url,
        protocolBinding: 'GRPC',
        protocolVersion: '1.0',
      });
    if (secured) {
      card.securitySchemes = { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };
      card.securityRequirements = [{ schemes: { bearer: {} } }];
    }
    return card;
  };

const BEARER = { verifiers: { bearer: staticBearerTokens({ [TOKEN]: 'alice' }) } };
/** An agent whose card requires the bearer token (enforced on HTTP by the server's own `auth`). */
const securedServer = () => createAgentServer({ card: cardWithGrpc(true), executor, auth: BEARER });

/** A raw GetTask over grpc-js, for a call the client could not make (before the card exists). */
function rawGetTask(target: string): Promise<ServiceError | undefined> {
  const c = new Client(target, credentials.createInsecure());
  const md = new Metadata();
  md.set('a2a-version', '1.0');
  const bytes = encodeMessage('GetTaskRequest', { id: 'x' });
  return new Promise((resolve) =>
    c.makeUnaryRequest(
      GRPC_METHODS.GetTask.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      md,
      { deadline: Date.now() + 5000 },
      (err) => {
        c.close();
        resolve(err ?? undefined);
      },
    ),
  );
}

test('serveGrpc before listen(): the card lists the listener and clients reach the agent over it', async () => {
  const server = createAgentServer({ card: cardWithGrpc(false), executor });
  const grpc = await serveGrpc(server);
  try {
    const early = await rawGetTask(grpc.target);
    assert.equal(early?.code, status.UNAVAILABLE, 'no card yet: refused, not served');
    const origin = await server.listen(0);
    assert.deepEqual(server.service.card.supportedInterfaces[0], {
      url: grpc.url,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
    const client = await A2AClient.connect(origin, {
      cache: false,
      transports: { GRPC: grpcTransport() },
    });
    assert.equal(client.interface.binding, 'GRPC');
    const sent = await client.sendMessage({ message: message('echo over grpc') as never });
    assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  } finally {
    await grpc.close(1000);
    await server.close(1000);
  }
});

test('serveGrpc before listen() enforces the card requirements with its own auth', async () => {
  const server = securedServer();
  const grpc = await serveGrpc(server, { auth: BEARER });
  try {
    const origin = await server.listen(0);
    const anonymous = await A2AClient.connect(origin, {
      cache: false,
      transports: { GRPC: grpcTransport() },
      retry: false,
    });
    assert.equal(anonymous.interface.binding, 'GRPC');
    await assert.rejects(
      anonymous.getTask('x'),
      (e: unknown) => isA2AError(e) && e.kind === 'Unauthenticated',
    );
    const alice = await A2AClient.connect(origin, {
      cache: false,
      transports: { GRPC: grpcTransport() },
      credentials: { bearer: TOKEN },
    });
    const sent = await alice.sendMessage({ message: message('echo as alice') as never });
    assert.ok('task' in sent);
  } finally {
    await grpc.close(1000);
    await server.close(1000);
  }
});

test('serveGrpc before listen() without auth for a card that requires it serves no call', async () => {
  const server = securedServer();
  const grpc = await serveGrpc(server);
  try {
    await server.listen(0);
    const err = await rawGetTask(grpc.target);
    assert.equal(err?.code, status.UNAVAILABLE);
    assert.match(err?.details ?? '', /requires authentication/);
  } finally {
    await grpc.close(1000);
    await server.close(1000);
  }
});
