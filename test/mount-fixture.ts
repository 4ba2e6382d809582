/**
 * Shared by the mount-* tests: an echo agent, cards with chosen interfaces, node servers on
 * 127.0.0.1:0 that are closed after the test, and a round trip through our own client that calls the
 * URL the card advertises — the check that what is advertised is what is served.
 */
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import { after } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { AgentCard, AgentInterface } from '../src/protocol/index.js';
import {
  createAgentServer,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
  type Logger,
} from '../src/server/index.js';
import { A2AClient, userMessage } from '../src/client/index.js';

/** Upper bound of any single wait (a hang fails the test instead of blocking it). */
export const BOUND_MS = 10_000;

export const echo: AgentExecutor = (ctx, task) => {
  task.working('echoing');
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

export const jsonrpc = (url: string): AgentInterface => ({
  url,
  protocolBinding: 'JSONRPC',
  protocolVersion: '1.0',
});
export const rest = (url: string): AgentInterface => ({
  url,
  protocolBinding: 'HTTP+JSON',
  protocolVersion: '1.0',
});

export function cardWith(interfaces: AgentInterface[]): AgentCard {
  return {
    name: 'mount-test',
    description: 'mounting tests',
    version: '1.0.0',
    supportedInterfaces: interfaces,
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'] }],
  };
}

/** Both bindings below the base URL the server is reached at (what most agents do). */
export const bothBindings = (base: string): AgentCard =>
  cardWith([jsonrpc(`${base}/a2a/jsonrpc`), rest(`${base}/a2a/rest`)]);

export function options(extra: Partial<AgentServerOptions> = {}): AgentServerOptions {
  return { executor: echo, card: bothBindings, sse: { keepAliveMs: 0 }, ...extra };
}

/** A logger that keeps what was logged at error level. */
export function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const noop = (): void => {};
  return {
    errors,
    debug: noop,
    info: noop,
    warn: noop,
    error: (_o, msg) => void errors.push(msg ?? ''),
  };
}

const open: Server[] = [];

/** Listen on 127.0.0.1:0; the server is closed by {@link closeAll}. */
export async function listenOn(
  listener: RequestListener | Server,
): Promise<{ server: Server; origin: string; port: number }> {
  const server = typeof listener === 'function' ? createServer(listener) : listener;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(server);
  const port = (server.address() as AddressInfo).port;
  return { server, origin: `http://127.0.0.1:${port}`, port };
}

/** A port that was free a moment ago (for cards that name a second port). */
export { freePort } from './service-fixture.js';

/**
 * A maker of agent servers with {@link options}`(extra)`; every one it made is closed after the test
 * file, and so is every server of {@link listenOn}. Call it once, at the top of a test file.
 */
export function agentMaker(): (extra?: Partial<AgentServerOptions>) => AgentServer {
  const made: AgentServer[] = [];
  after(async () => {
    for (const a of made.splice(0)) await a.close(200);
    await closeAll();
  });
  return (extra = {}) => {
    const a = createAgentServer(options(extra));
    made.push(a);
    return a;
  };
}

export async function closeAll(): Promise<void> {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}

export const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers, signal: AbortSignal.timeout(BOUND_MS) });

/**
 * Discover the card at `base`, then for each binding call SendMessage and a stream through the URL the
 * card advertises for it; returns those URLs.
 */
export async function roundTrip(
  base: string,
  bindings: readonly string[] = ['JSONRPC', 'HTTP+JSON'],
): Promise<string[]> {
  const urls: string[] = [];
  for (const binding of bindings) {
    const client = await A2AClient.connect(base, {
      bindings: [binding],
      fallback: false,
      cache: false,
      cardTimeoutMs: BOUND_MS,
      timeoutMs: BOUND_MS,
    });
    assert.equal(client.interface.binding, binding);
    urls.push(client.interface.url);
    const sent = await client.sendMessage({ message: userMessage(`hello over ${binding}`) });
    assert.ok('task' in sent, JSON.stringify(sent));
    assert.equal(sent.task.artifacts?.[0]?.parts[0]?.text, `hello over ${binding}`);
    const states: string[] = [];
    for await (const ev of client.sendStreamingMessage({ message: userMessage('streamed') })) {
      if ('statusUpdate' in ev) states.push(ev.statusUpdate.status.state);
    }
    assert.equal(states.at(-1), 'TASK_STATE_COMPLETED', `${binding} stream: ${states.join(', ')}`);
  }
  return urls;
}
