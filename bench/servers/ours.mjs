/** a2a-kit's echo agent, from the built dist/: JSON-RPC always, HTTP+JSON when that binding is built. */
import { createAgentServer } from '../../dist/server/index.js';
import { SERVED_BINDINGS } from '../../dist/server/bindings/registry.js';
import { report, extraUpdates } from './harness.mjs';

const hasRest = Boolean(SERVED_BINDINGS['HTTP+JSON']);

/** @type {import('../../dist/server/index.js').AgentExecutor} */
const echo = (ctx, task) => {
  task.working();
  for (let i = extraUpdates(ctx.text); i > 0; i--) task.working();
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

const server = createAgentServer({
  executor: echo,
  card: (origin) => ({
    name: 'echo',
    description: 'Echoes what you send',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ...(hasRest ? [{ url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }] : []),
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
  }),
});

const origin = await server.listen(Number(process.env.PORT ?? 0));
report(origin, { rest: hasRest });
