/**
 * The server of `bench/readers.mjs`: one agent whose task grows a large artifact, served over JSON-RPC,
 * HTTP+JSON and gRPC, from the build in BENCH_OURS_DIST (default `dist/`). The parent drives it over
 * IPC: `release` lets the agent go on (the next large artifact, then the end), `reset` starts a
 * measurement, `stats` answers the server CPU and the longest event-loop stall since the reset.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const dist = process.env.BENCH_OURS_DIST
  ? pathToFileURL(`${process.env.BENCH_OURS_DIST}/`).href
  : new URL('../../dist/', import.meta.url).href;
const { createAgentServer } = await import(`${dist}server/index.js`);

const artifactBytes = Number(process.env.ARTIFACT_BYTES ?? 3_000_000);
/** A text of about `bytes` bytes, different per label (each artifact is its own payload). */
const bulk = (label, bytes) => {
  const line = `${label}: var a = eval("x") == null; debugger; ${'x'.repeat(40)}\n`;
  return line.repeat(Math.ceil(bytes / line.length));
};

let release;
const gate = () => new Promise((r) => (release = r));

const executor = async (_ctx, task) => {
  task.working();
  task.addArtifact({
    artifactId: 'first',
    name: 'first',
    parts: [{ text: bulk('first', artifactBytes) }],
  });
  await gate();
  task.addArtifact({
    artifactId: 'second',
    name: 'second',
    parts: [{ text: bulk('second', artifactBytes) }],
  });
  await gate();
  task.complete();
};

const server = createAgentServer({
  executor,
  card: (origin, grpc) => ({
    name: 'readers',
    description: 'A task with a large artifact',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: grpc.url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'big', name: 'Big', description: 'Grows a large artifact', tags: ['bench'] }],
  }),
  grpc: { port: 0 },
  sse: { keepAliveMs: 0 },
});

const origin = await server.listen(0);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let cpu0 = process.cpuUsage();
process.on('message', (m) => {
  if (m === 'release') {
    release?.();
    process.send({ released: true });
  } else if (m === 'reset') {
    delay.reset();
    cpu0 = process.cpuUsage();
    process.send({ reset: true });
  } else if (m === 'stats') {
    const c = process.cpuUsage(cpu0);
    process.send({ cpuMs: (c.user + c.system) / 1000, maxStallMs: delay.max / 1e6 });
  } else if (m === 'stop') {
    void server.close(1000).then(() => process.exit(0));
  }
});
process.send({ origin, grpc: server.grpc.url });
