/** a2a-kit's echo agent, from the built dist/: JSON-RPC always, HTTP+JSON when that binding is built. */
import { pathToFileURL } from 'node:url';
import { echo, report } from './harness.mjs';

// BENCH_OURS_DIST points at another build (e.g. a copy of dist/ before a change) for A/B runs.
const dist = process.env.BENCH_OURS_DIST
  ? pathToFileURL(`${process.env.BENCH_OURS_DIST}/`).href
  : new URL('../../dist/', import.meta.url).href;
const { createAgentServer } = await import(`${dist}server/index.js`);
const { SERVED_BINDINGS } = await import(`${dist}server/bindings/registry.js`);

const hasRest = Boolean(SERVED_BINDINGS['HTTP+JSON']);

const server = createAgentServer({
  executor: echo,
  card: (origin) => ({
    name: 'echo',
    description: 'Echoes what you send',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ...(hasRest
        ? [{ url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]
        : []),
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
  }),
});

const origin = await server.listen(Number(process.env.PORT ?? 0));
// gRPC scenarios: the same agent (same dispatcher, tasks and store) on a gRPC port as well.
const grpc = process.env.BENCH_GRPC
  ? await (await import(`${dist}server/grpc/index.js`)).serveGrpc(server)
  : undefined;
report(origin, { rest: hasRest, ...(grpc ? { grpc: grpc.target } : {}) });
