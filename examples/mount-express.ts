/**
 * Agents in an Express app: one at the root, one under a prefix. The prefixed agent's card advertises
 * URLs under that prefix, and they are served there.
 *
 *   npx tsx examples/mount-express.ts
 */
import express from 'express';
import { createAgentServer } from 'a2a-kit/server';
import { a2aExpress } from 'a2a-kit/server/express';
import { echo, echoCard } from './echo-agent.js';
import { freePort, tryAgent } from './try-agent.js';

const port = await freePort();
const origin = `http://127.0.0.1:${port}`; // in production: your public URL

const app = express();
app.get('/health', (_req, res) => void res.send('ok'));
app.use('/reporter', a2aExpress(createAgentServer({ executor: echo, card: echoCard }), { origin })); // under /reporter
app.use(a2aExpress(createAgentServer({ executor: echo, card: echoCard }), { origin })); // at the root
const server = app.listen(port, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', resolve));

await tryAgent('express', origin);
await tryAgent('express /reporter', `${origin}/reporter`);

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
