/**
 * The shortest agent: it echoes the text it receives as an artifact, over JSON-RPC and HTTP+JSON.
 *
 *   npx tsx examples/echo-agent.ts          # listens on 41240 (PORT=0 picks a free port), Ctrl-C stops
 *   npx tsx examples/client.ts http://127.0.0.1:41240 hello
 */
import { pathToFileURL } from 'node:url';
import type { AgentCard } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';

/** The agent: one artifact with the text, then done. */
export const echo: AgentExecutor = (ctx, task) => {
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

/** Its card, built for the URL the agent is served at (`http://127.0.0.1:41240`, `https://example.com/echo`…). */
export const echoCard = (base: string): AgentCard => ({
  name: 'echo',
  description: 'Echoes what you send',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
});

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
