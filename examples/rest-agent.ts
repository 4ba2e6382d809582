/**
 * An agent on both bindings: JSON-RPC at /a2a/jsonrpc and HTTP+JSON at /a2a/rest (tenants as a
 * leading path segment: /a2a/rest/{tenant}/tasks). "slow …" keeps working until canceled.
 * Run: npx tsx examples/rest-agent.ts, then e.g.
 *   curl -H 'A2A-Version: 1.0' http://127.0.0.1:41241/a2a/rest/tasks
 */
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';

const agent: AgentExecutor = async (ctx, task) => {
  task.working('on it');
  if (ctx.text.startsWith('slow')) {
    await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true }));
    return;
  }
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

/** Start it on `port` (0 picks a free one). */
export async function restAgent(port = 0): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createAgentServer({
    executor: agent,
    card: (origin) => ({
      name: 'echo-both', description: 'Echoes over JSON-RPC and HTTP+JSON', version: '1.0.0',
      supportedInterfaces: [
        { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
    }),
  });
  const origin = await server.listen(port);
  return { origin, close: () => server.close() };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`agent at ${(await restAgent(Number(process.env.PORT ?? 41241))).origin}`);
