/**
 * `a2a` against an agent whose card lists GRPC first (§8.3.2: the first interface the client speaks):
 * the command line talks gRPC with nothing installed, carries `--token` as metadata, and `--binding`
 * still narrows the choice to the JSON bindings.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentServer, staticBearerTokens, type AgentServer } from '../src/server/index.js';
import type { AgentCard } from '../src/index.js';
import { TOKEN, a2a, executor } from './cli-fixture.js';

describe('a2a over gRPC', () => {
  let agent: AgentServer;
  let url: string;
  before(async () => {
    agent = createAgentServer({
      executor,
      grpc: { port: 0, host: '127.0.0.1' },
      auth: { verifiers: { bearer: staticBearerTokens({ [TOKEN]: 'tester' }) } },
      card: (origin, grpc): AgentCard => ({
        name: 'grpc-first',
        description: 'lists its gRPC interface first',
        version: '1.0.0',
        supportedInterfaces: [
          { url: grpc!.url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
          { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: { streaming: true },
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain', 'application/json'],
        skills: [
          {
            id: 'chat',
            name: 'Chat',
            description: 'Does what the first word says',
            tags: ['test'],
          },
        ],
      }),
    });
    url = await agent.listen(0, '127.0.0.1');
  });
  after(() => agent.close(1000));

  it('send streams over gRPC, the token travelling as metadata', async () => {
    const r = await a2a(['send', url, 'work 1', '--token', TOKEN, '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /→ SendStreamingMessage GRPC/);
    assert.equal(r.lines.at(-1), 'COMPLETED  did 1 steps');
  });

  it('without the token the agent refuses over gRPC too: the unauthenticated exit code and message', async () => {
    const r = await a2a(['send', url, 'work 1']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /authenticat/i);
  });

  it('card shows the GRPC entry as the chosen interface; --binding jsonrpc picks the next one', async () => {
    const shown = await a2a(['card', url]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /→ \[0\] GRPC 1\.0/);
    assert.match(shown.stdout, /why: chose \[0\] GRPC/);
    const r = await a2a([
      'send',
      url,
      'work 1',
      '--token',
      TOKEN,
      '--binding',
      'jsonrpc',
      '--verbose',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /→ SendStreamingMessage JSONRPC/);
  });
});
