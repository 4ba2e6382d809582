/** The smallest useful agent: echoes the text it receives as an artifact. Run: npx tsx examples/echo-agent.ts */
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';

export const echo: AgentExecutor = async (ctx, task) => {
  task.working('echoing');
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

/** Start the echo agent on `port` (0 picks a free one); resolves with its origin and a way to stop it. */
export async function echoAgent(port = 0): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createAgentServer({
    executor: echo,
    card: (origin) => ({
      name: 'echo', description: 'Echoes what you send', version: '1.0.0',
      supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
    }),
  });
  const origin = await server.listen(port);
  return { origin, close: () => server.close() };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`echo agent at ${(await echoAgent(Number(process.env.PORT ?? 41240))).origin}`);
