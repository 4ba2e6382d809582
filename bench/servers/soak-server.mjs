/** The soak bench's server: an echo agent that streams, asks for input, and delivers push notifications. */
import { report } from './harness.mjs';

const { createAgentServer, InMemoryTaskStore } = await import(
  new URL('../../dist/server/index.js', import.meta.url).href
);

const agent = (ctx, task) => {
  if (ctx.text === 'ask') return void task.inputRequired('answer?');
  const updates = ctx.text.startsWith('stream ') ? Number(ctx.text.slice(7)) : 1;
  for (let i = 0; i < updates; i++) task.working(`step ${i}`);
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

const server = createAgentServer({
  executor: agent,
  // A store that reaches its steady state within the first minute, so growth after that is a leak.
  store: new InMemoryTaskStore({ maxTasks: 5_000 }),
  push: { policy: { allowLoopback: true } },
  card: (origin) => ({
    name: 'soak',
    description: 'Echo agent for the soak bench',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['bench'] }],
  }),
});
report(await server.listen(0));
