/**
 * The server the fuzz suite attacks: every capability on, both HTTP bindings, a quick scripted agent,
 * and webhooks allowed to 127.0.0.1 only. Used in-process by test/fuzz.test.ts and, through
 * test/fuzz-child.ts, in a child process where a crash is seen as the process dying.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, JsonObject } from '../src/protocol/index.js';
import { createAgentServer, type AgentExecutor, type AgentServer } from '../src/server/index.js';

export const FUZZ_RPC_PATH = '/a2a/jsonrpc';
export const FUZZ_REST_PATH = '/a2a/rest';
/** The bearer token of the one authenticated caller (the extended card needs one). */
export const FUZZ_TOKEN = 'Bearer fuzz-good';

/**
 * The first word of the message text picks the behaviour: echo (default), reply, ask, later, tick, soon, chunks, data, ext, boom.
 * `boom` is the one agent failure on purpose: whatever it causes is not a server fault.
 */
export const fuzzAgent: AgentExecutor = async (ctx, task) => {
  if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
    task.addArtifact({ name: 'answer', parts: [{ text: `got ${ctx.text.slice(0, 64)}` }] });
    return task.complete('thanks');
  }
  const [cmd] = ctx.text.split(/\s+/, 1);
  switch (cmd) {
    case 'reply':
      return task.reply(`you said ${ctx.text}`);
    case 'ask':
      task.working();
      return task.inputRequired('red or blue?');
    case 'later':
    case 'tick':
    case 'soon': {
      // Agents that await a model or a tool between events: the next event comes after the stream's first write,
      // a microtask later (tick), on the next turn of the loop (soon), or after a timer (later).
      const pause = (): Promise<unknown> =>
        cmd === 'tick'
          ? Promise.resolve()
          : new Promise((r) => (cmd === 'soon' ? setImmediate(r) : setTimeout(r, 5)));
      task.working('thinking');
      await pause();
      task.addArtifact({ name: cmd, parts: [{ text: ctx.text }] });
      await pause();
      return task.complete();
    }
    case 'chunks': {
      // A model streaming tokens it already holds: each chunk a microtask after the last, as an async iterator gives them.
      task.working('streaming');
      for (let i = 0; i < 40; i++) {
        await Promise.resolve();
        task.addArtifact(
          { artifactId: 'tokens', name: 'tokens', parts: [{ text: `t${i} ` }] },
          { append: i > 0, lastChunk: i === 39 },
        );
      }
      return task.complete();
    }
    case 'ext':
      // Uses whatever extensions the caller asked for, as an agent that supports them all would.
      for (const uri of ctx.requestedExtensions) ctx.activateExtension(uri);
      return task.reply('extensions used');
    case 'boom':
      throw new Error('the agent failed on purpose');
    case 'data': {
      // Echo what the peer sent back out, so its content goes through every serialiser.
      const echo: JsonObject = {
        metadata: ctx.message.metadata ?? null,
        request: ctx.metadata ?? null,
      };
      task.addArtifact({ name: 'data', parts: [{ data: echo }] });
      return task.complete();
    }
    default:
      task.working('echoing');
      task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
      return task.complete();
  }
};

function fuzzCard(origin: string): AgentCard {
  return {
    name: 'fuzz-target',
    description: 'the server the fuzz suite attacks',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}${FUZZ_RPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}${FUZZ_REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['fuzz'] }],
  };
}

/** A running fuzz target and the local webhook receiver its push configs point to. */
export interface FuzzTarget {
  origin: string;
  /** A webhook URL on 127.0.0.1 that answers 204. */
  hook: string;
  server: AgentServer;
  close(): Promise<void>;
}

/** Start the fuzz target on 127.0.0.1:0. */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiver.unref();
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const server = createAgentServer({
    executor: fuzzAgent,
    card: fuzzCard,
    sse: { keepAliveMs: 0 },
    // Fuzzed webhook URLs must never leave the machine: only 127.0.0.1 is a permitted destination.
    push: { policy: { allowLoopback: true, onlyAllowedHosts: true, allowedHosts: ['127.0.0.1'] } },
    authenticate: (req) =>
      req.headers.authorization === FUZZ_TOKEN ? { id: 'fuzzer' } : undefined,
    extendedCard: (caller) => ({
      ...fuzzCard('http://127.0.0.1'),
      name: `extended for ${caller.id}`,
    }),
  });
  const origin = await server.listen(0);
  return {
    origin,
    hook,
    server,
    close: async () => {
      await server.close(500);
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    },
  };
}
