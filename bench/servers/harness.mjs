/**
 * Shared by the three bench servers: report the listening origin to the parent over IPC and
 * answer memory probes ({ cmd: 'mem' } → process.memoryUsage() after a forced GC), so memory is
 * measured without adding any admin route to the servers themselves; { cmd: 'cpu' } → process.cpuUsage().
 */
import { setImmediate } from 'node:timers';

export function report(origin, info = {}) {
  if (!process.send) {
    console.log(`listening at ${origin}`);
    if (info.grpc) console.log(`gRPC at ${info.grpc}`);
    return;
  }
  process.on('message', async (msg) => {
    if (msg?.cmd === 'mem') {
      // Several GC passes with a turn of the event loop between them let finalizers and weak refs settle.
      for (let i = 0; i < 3; i++) {
        globalThis.gc?.();
        await new Promise((r) => setImmediate(r));
      }
      process.send({
        cmd: 'mem',
        mem: process.memoryUsage(),
        gc: typeof globalThis.gc === 'function',
      });
    } else if (msg?.cmd === 'cpu') {
      process.send({ cmd: 'cpu', cpu: process.cpuUsage() });
    } else if (msg?.cmd === 'exit') {
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ cmd: 'ready', origin, ...info });
}

/** Text of the echo request decides the shape of the task: `stream:K` asks for K extra status updates. */
export function extraUpdates(text) {
  if (!text.startsWith('stream:')) return 0;
  const k = Number(text.slice(7));
  return Number.isInteger(k) && k > 0 && k <= 10_000 ? k : 0;
}

/** The bench's agent for our server: working, `stream:K` extra updates, one artifact echoing the text, completed. */
export function echo(ctx, task) {
  task.working();
  for (let i = extraUpdates(ctx.text); i > 0; i--) task.working();
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
}

/** The echo agent's card, JSON-RPC only, at `origin` (the JSON-RPC URL is `${origin}/a2a/jsonrpc`). */
export function echoCard(origin, { name = 'echo', description = 'Echoes what you send' } = {}) {
  return {
    name,
    description,
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
  };
}
