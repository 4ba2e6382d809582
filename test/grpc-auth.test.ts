/**
 * Authentication over gRPC (§7, §10.2): credentials travel as metadata and go through the same
 * card-derived authenticator as on HTTP — bearer tokens, API keys, and mTLS on a TLS server — and
 * tasks stay private to their owner (§13.1). Both ends are ours: the client applies the card's
 * schemes, the server enforces them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerCredentials } from '@grpc/grpc-js';
import type { AgentCard } from '../src/protocol/index.js';
import { mutualTls, staticApiKeys, staticBearerTokens } from '../src/server/index.js';
import { serveGrpc, type GrpcServerHandle } from '../src/server/grpc/index.js';
import { A2AClient, isA2AError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { start, type Running } from './auth-fixture.js';
import { closeRawClients, grpcCall } from './grpc-fixture.js';
import { commandMissing } from './service-fixture.js';

const SECURED: Partial<AgentCard> = {
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { key: { list: [] } } }],
};
const verifiers = {
  bearer: staticBearerTokens({ 'token-alice': 'alice' }),
  key: staticApiKeys({ 'key-bob': 'bob' }),
};

let agent: Running;
let grpc: GrpcServerHandle;

before(async () => {
  agent = await start(SECURED, { auth: { verifiers } });
  grpc = await serveGrpc(agent.server, { auth: { verifiers } });
});
after(async () => {
  closeRawClients();
  await grpc.close(500);
  await agent.close();
});

const msg = (text: string) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
});

/** A client of our own that takes the card's GRPC interface. */
function clientFor(
  creds: Record<string, string> | undefined,
  card = agent.server.service.card,
  url = grpc.url,
  options = {},
) {
  const withGrpc = {
    ...card,
    supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
  };
  return new A2AClient(withGrpc, {
    transports: { GRPC: grpcTransport(options) },
    ...(creds ? { credentials: creds } : {}),
    retry: false,
  });
}

test('§7.4 no credentials → UNAUTHENTICATED with the challenge as www-authenticate metadata', async () => {
  const o = await grpcCall(grpc.target, 'ListTasks', {});
  assert.equal(o.status, 16);
  assert.equal(o.error?.kind, 'Unauthenticated');
  assert.match(o.headers.get('www-authenticate') ?? '', /^Bearer/);
  await assert.rejects(
    clientFor(undefined).listTasks(),
    (e: unknown) => isA2AError(e) && e.kind === 'Unauthenticated',
  );
});

test('§7.4 a refused bearer token → UNAUTHENTICATED', async () => {
  const o = await grpcCall(
    grpc.target,
    'ListTasks',
    {},
    { headers: { authorization: 'Bearer wrong' } },
  );
  assert.equal(o.error?.kind, 'Unauthenticated');
  assert.match(o.error.message, /not accepted/);
});

test('§13.1 bearer token and API key as metadata; each caller sees only its own tasks', async () => {
  const alice = clientFor({ bearer: 'token-alice' });
  const bob = clientFor({ key: 'key-bob' });
  const sent = await alice.sendMessage(msg('hello') as never);
  assert.ok('task' in sent);
  assert.equal((await alice.getTask(sent.task.id)).id, sent.task.id);
  await assert.rejects(
    bob.getTask(sent.task.id),
    (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
  );
  const mine = await bob.listTasks();
  assert.ok(mine.tasks.every((t) => t.id !== sent.task.id));
  // Raw metadata: the key header as the card names it, lower-cased as gRPC sends it.
  const o = await grpcCall(
    grpc.target,
    'GetTask',
    { id: sent.task.id },
    { headers: { 'x-api-key': 'key-bob' } },
  );
  assert.equal(o.error?.kind, 'TaskNotFound');
});

test('serveGrpc refuses to start when the card requires authentication and none is given', async () => {
  await assert.rejects(serveGrpc(agent.server), /requires authentication/);
});

const noOpenssl = commandMissing('openssl', 'openssl');

/** A throwaway CA, a server certificate for 127.0.0.1, a client certificate it signed, and a stranger's. */
function pki(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=test-ca',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const name of ['server', 'client']) {
    ssl(
      'req',
      ...ec,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name === 'client' ? 'agent-b' : 'localhost'}`,
    );
    const ext = name === 'server' ? ['-extfile', 'san.ext'] : [];
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '1',
      ...ext,
    );
  }
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'stranger.key',
    '-out',
    'stranger.crt',
    '-days',
    '1',
    '-subj',
    '/CN=agent-b',
  );
  return (f: string) => readFileSync(join(dir, f));
}

test(
  "mTLS on a TLS gRPC server: a CA-signed client certificate names the caller; none or a stranger's is refused",
  { skip: noOpenssl },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-grpc-mtls-'));
    const read = pki(dir);
    const card: Partial<AgentCard> = {
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: { tls: { mtlsSecurityScheme: {} } },
      securityRequirements: [{ schemes: { tls: { list: [] } } }],
    };
    const tlsVerifiers = { tls: mutualTls((cert) => ({ id: String(cert.subject.CN) })) };
    const tlsAgent = await start(card, {
      auth: { verifiers: tlsVerifiers },
      extendedCard: (caller) => ({ ...agent.server.service.card, name: `for ${caller.id}` }),
    });
    const server = await serveGrpc(tlsAgent.server, {
      auth: { verifiers: tlsVerifiers },
      credentials: ServerCredentials.createSsl(
        read('ca.crt'),
        [{ private_key: read('server.key'), cert_chain: read('server.crt') }],
        true,
      ),
    });
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const trusted = clientFor(undefined, tlsAgent.server.service.card, server.url, {
        tls: { ca: read('ca.crt'), key: read('client.key'), cert: read('client.crt') },
      });
      assert.equal((await trusted.getExtendedAgentCard()).name, 'for agent-b');
      for (const [key, cert] of [
        [undefined, undefined],
        ['stranger.key', 'stranger.crt'],
      ] as const) {
        const refused = clientFor(undefined, tlsAgent.server.service.card, server.url, {
          tls: { ca: read('ca.crt'), ...(key ? { key: read(key), cert: read(cert) } : {}) },
        });
        // The TLS handshake fails, so the call never reaches the agent.
        await assert.rejects(
          refused.listTasks(),
          (e: unknown) =>
            (e as { code?: string }).code === 'NETWORK' ||
            (e as { code?: string }).code === 'UNAVAILABLE',
        );
      }
    } finally {
      await server.close(500);
      await tlsAgent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
