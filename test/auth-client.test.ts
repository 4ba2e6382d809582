import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient } from '../src/client/index.js';
import type { AgentCard } from '../src/protocol/index.js';
import { staticApiKeys, staticBearerTokens } from '../src/server/index.js';
import { TRANSPORTS, say, start } from './auth-fixture.js';

const BINDING = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON' } as const;

const CARD: Partial<AgentCard> = {
  securitySchemes: {
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          clientCredentials: {
            tokenUrl: 'https://idp.example/token',
            scopes: { 'a2a:use': 'call the agent' },
          },
        },
      },
    },
    session: { apiKeySecurityScheme: { location: 'cookie', name: 'sid' } },
  },
  securityRequirements: [
    { schemes: { oauth: { list: [] } } },
    { schemes: { session: { list: [] } } },
  ],
  capabilities: { extendedAgentCard: true },
};

for (const t of TRANSPORTS) {
  test(`[${t}] our client and our server agree on the card's schemes: bearer for OAuth, API key in a cookie, refresh after 401`, async () => {
    const s = await start(CARD, {
      auth: {
        verifiers: {
          oauth: staticBearerTokens({ fresh: 'alice' }),
          session: staticApiKeys({ 's-1': 'bob' }),
        },
      },
      executor: (ctx, task) => task.reply(`hi ${ctx.caller?.id}`),
      extendedCard: (caller) => ({ ...s.server.service.card, description: `for ${caller.id}` }),
    });
    const connect = (options: Parameters<typeof A2AClient.connect>[1]) =>
      A2AClient.connect(s.origin, {
        cache: false,
        bindings: [BINDING[t]],
        retry: false,
        ...options,
      });
    const text = (r: any) => r.message.parts[0].text as string;
    try {
      assert.equal(
        text(await (await connect({ credentials: { bearer: 'fresh' } })).sendMessage(say('x'))),
        'hi alice',
      );
      const viaCookie = await connect({ credentials: { session: 's-1' } });
      assert.equal(text(await viaCookie.sendMessage(say('x'))), 'hi bob');
      assert.equal((await viaCookie.getExtendedAgentCard()).description, 'for bob');

      await assert.rejects(
        (await connect({})).sendMessage(say('x')),
        (e: any) => e.kind === 'Unauthenticated',
      );

      let challenge: string | null = null;
      const refreshing = await connect({
        credentials: { bearer: 'stale' },
        onUnauthorized: (info) => {
          challenge = info.challenge;
          return { bearer: 'fresh' };
        },
      });
      assert.equal(text(await refreshing.sendMessage(say('x'))), 'hi alice');
      assert.equal(
        challenge,
        'Bearer realm="Guarded \\"agent\\"", ApiKey realm="Guarded \\"agent\\"", in="cookie", name="sid"',
      );
    } finally {
      await s.close();
    }
  });
}
