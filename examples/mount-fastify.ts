/**
 * Agents in a Fastify app: one at the root, one registered with a prefix. The prefixed agent's card
 * advertises URLs under that prefix, and they are served there.
 *
 *   npx tsx examples/mount-fastify.ts
 */
import Fastify from 'fastify';
import { createAgentServer } from 'a2a-kit/server';
import { a2aFastify } from 'a2a-kit/server/fastify';
import { echo, echoCard } from './echo-agent.js';
import { freePort, tryAgent } from './try-agent.js';

const port = await freePort();
const origin = `http://127.0.0.1:${port}`; // in production: your public URL

const app = Fastify();
app.get('/health', async () => 'ok');
await app.register(a2aFastify(createAgentServer({ executor: echo, card: echoCard }), { origin })); // at the root
await app.register(a2aFastify(createAgentServer({ executor: echo, card: echoCard }), { origin }), {
  prefix: '/reporter',
});
await app.listen({ port, host: '127.0.0.1' });

await tryAgent('fastify', origin);
await tryAgent('fastify /reporter', `${origin}/reporter`);

await app.close();
