/**
 * The shortest agent, served on Node: it echoes the text it receives as an artifact, over JSON-RPC
 * and HTTP+JSON (the executor and its card are in echo.ts, which every runtime can import).
 *
 *   npx tsx examples/echo-agent.ts          # listens on 41240 (PORT=0 picks a free port), Ctrl-C stops
 *   npx tsx examples/client.ts http://127.0.0.1:41240 hello
 */
import { pathToFileURL } from 'node:url';
import { createAgentServer } from 'a2a-kit/server';
import { echo, echoCard } from './echo.js';

export { echo, echoCard };

/** Start the echo agent on `port` (0 picks a free one); resolves with its origin and a way to stop it. */
export async function echoAgent(port = 0): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createAgentServer({ executor: echo, card: echoCard });
  const origin = await server.listen(port);
  return { origin, close: () => server.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { origin, close } = await echoAgent(Number(process.env.PORT ?? 41240));
  console.log(`echo agent at ${origin}`);
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
}
