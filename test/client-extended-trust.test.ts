/** §8.4.3 / §3.1.11: the extended card replaces the public one only after the same signature check. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair } from 'jose';
import { A2AError } from '../src/protocol/index.js';
import { createAgentServer, type AgentServer } from '../src/server/index.js';
import { A2AClient, AgentCardVerificationError } from '../src/client/index.js';

let server: AgentServer;
let origin = '';
let signer: Awaited<ReturnType<typeof generateKeyPair>>;
let stranger: Awaited<ReturnType<typeof generateKeyPair>>;

before(async () => {
  signer = await generateKeyPair('ES256', { extractable: true });
  stranger = await generateKeyPair('ES256', { extractable: true });
  const base = (o: string) => ({
    name: 'ext',
    description: 'has an extended card',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${o}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { extendedAgentCard: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    skills: [{ id: 'a', name: 'A', description: 'a', tags: ['t'] }],
  });
  let extended: ReturnType<typeof base> | undefined;
  server = createAgentServer({
    executor: (_ctx, task) => task.complete(),
    card: (o) => {
      extended = {
        ...base(o),
        skills: [...base(o).skills, { id: 'secret', name: 'S', description: 's', tags: ['t'] }],
      };
      return base(o);
    },
    extendedCard: () => extended,
    signingKeys: [{ privateKey: signer.privateKey, kid: 'k1', alg: 'ES256' }],
    authenticate: (req) => {
      if (req.headers.authorization !== 'Bearer good-token-123')
        throw new A2AError('Unauthenticated', 'A bearer token is required');
      return { id: 'alice' };
    },
  });
  origin = await server.listen(0);
});
after(() => server.close(1000));

test('§8.4.3 a signed extended card verified with the trusted key replaces the public card', async () => {
  const key = await exportJWK(signer.publicKey);
  const client = await A2AClient.connect(origin, {
    cache: false,
    credentials: { bearer: 'good-token-123' },
    trust: { keys: [{ kid: 'k1', key }], requireSignature: true },
  });
  const ext = await client.getExtendedAgentCard();
  assert.ok(ext.skills.some((s) => s.id === 'secret'));
  assert.equal(client.card, ext);
});

test('§8.4.3 an extended card that fails the trust check does not replace the public card', async () => {
  const other = await exportJWK(stranger.publicKey);
  const publicCard = (await A2AClient.connect(origin, { cache: false })).card;
  // A client that trusts only a key which did not sign this agent's cards.
  const client = A2AClient.fromCard(publicCard, {
    credentials: { bearer: 'good-token-123' },
    trust: { keys: [{ kid: 'k1', key: other }], requireSignature: true },
  });
  await assert.rejects(
    client.getExtendedAgentCard(),
    (e: unknown) => e instanceof AgentCardVerificationError,
  );
  assert.equal(client.card, publicCard);
});
