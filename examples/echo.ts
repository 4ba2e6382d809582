/**
 * The echo agent and its card, with nothing of Node in them so that every runtime imports them: Node
 * (examples/echo-agent.ts), Bun and Deno (examples/runtimes/serve-fetch.ts), Workers
 * (examples/runtimes/worker.ts).
 */
import type { AgentCard } from 'a2a-kit';
import type { AgentExecutor } from 'a2a-kit/server';

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
