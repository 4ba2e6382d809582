/**
 * An agent inside your own node:http server, beside your other routes. The agent's listener answers
 * its card and the interfaces the card lists, and hands everything else back to you.
 *
 *   npx tsx examples/mount-node-http.ts
 */
import { createServer } from 'node:http';
import { createAgentServer } from 'a2a-kit/server';
import { echo, echoCard } from './echo-agent.js';
import { freePort, tryAgent } from './try-agent.js';

const port = await freePort();
const origin = `http://127.0.0.1:${port}`; // in production: your public URL, e.g. https://agents.example.com

const agent = createAgentServer({ executor: echo, card: echoCard });
await agent.prepare(origin); // builds the card for the origin it will be reached at

const app = createServer((req, res) => {
  agent.listener(req, res, () => {
    // Not the agent's: the rest of your application.
    if (req.url === '/health') res.end('ok');
    else res.writeHead(404).end();
  });
});
await new Promise<void>((resolve) => app.listen(port, '127.0.0.1', resolve));

await tryAgent('node:http', origin);
console.log(`node:http: /health → ${await (await fetch(`${origin}/health`)).text()}`);

await agent.close();
app.closeAllConnections();
await new Promise<void>((resolve) => app.close(() => resolve()));
