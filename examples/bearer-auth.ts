/**
 * Bearer tokens on both sides. The card declares the scheme and requires it; the server checks tokens
 * with a verifier per scheme (here a fixed table, in real life `jwtBearer` or your own `bearer(...)`)
 * and the agent sees who called in `ctx.caller`. The client passes its token as a credential and the
 * card tells it where the token goes. Without a token the call fails with kind `Unauthenticated`.
 *
 *   npx tsx examples/bearer-auth.ts
 */
import { isA2AError, textOf } from 'a2a-kit';
import { createAgentServer, staticBearerTokens, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';

const greeter: AgentExecutor = (ctx, task) =>
  task.complete(`hello, ${ctx.caller?.id ?? 'stranger'}`);

const agent = createAgentServer({
  executor: greeter,
  card: (origin) => ({
    name: 'greeter',
    description: 'Greets authenticated callers',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    securitySchemes: { token: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { token: { list: [] } } }],
    skills: [{ id: 'greet', name: 'Greet', description: 'Says hello', tags: ['demo'] }],
  }),
  // Token → caller id. Tasks belong to their caller: another token cannot see them.
  auth: { verifiers: { token: staticBearerTokens({ 'token-for-alice': 'alice' }) } },
});
const origin = await agent.listen(0);

// Credentials are looked up by scheme name, then by kind ('bearer' fits any bearer-carrying scheme).
const alice = await A2AClient.connect(origin, { credentials: { bearer: 'token-for-alice' } });
const res = await alice.sendMessage({ message: userMessage('hi') });
if ('task' in res && res.task.status.message)
  console.log(`with a token: ${textOf(res.task.status.message)}`);

const anonymous = await A2AClient.connect(origin); // the card is public; the operations are not
try {
  await anonymous.sendMessage({ message: userMessage('hi') });
} catch (err) {
  if (!isA2AError(err) || err.kind !== 'Unauthenticated') throw err;
  console.log(`without a token: ${err.kind}: ${err.message}`);
}
await agent.close();
