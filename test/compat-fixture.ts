/**
 * Helpers of the A2A 0.3 tests: our agent with `compat: { v03: true }` on 127.0.0.1:0 (an echo that
 * also waits, when told "wait", until it is canceled), message builders for both versions, and a
 * bounded collector for streams. Webhooks come from push-fixture.ts.
 */
import { randomUUID } from 'node:crypto';
import {
  createAgentServer,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
} from '../src/server/index.js';
import type { AgentCard } from '../src/protocol/index.js';

/** Upper bound on one wait: a hang fails the test instead of blocking the run. */
export const BOUND_MS = 30_000;

/** Echoes the text as an artifact (text and data parts); "wait" keeps the task WORKING until it is canceled. */
export const echoOrWait: AgentExecutor = async (ctx, task) => {
  task.working('on it');
  if (ctx.text === 'wait') {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return;
  }
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }, { data: { echoed: ctx.text } }] });
  task.complete();
};

/** A card with JSON-RPC and HTTP+JSON 1.0 interfaces (compat adds their 0.3 twins). */
export function compatCard(origin: string, extra: Partial<AgentCard> = {}): AgentCard {
  return {
    name: 'compat-echo',
    description: 'Echoes, over A2A 1.0 and 0.3',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
    ...extra,
  };
}

/** Our agent speaking 1.0 and 0.3 on port 0; webhooks on loopback are allowed (the tests' own). */
export async function startCompatAgent(
  extra: Partial<AgentServerOptions> = {},
): Promise<{ server: AgentServer; origin: string; close(): Promise<void> }> {
  const server = createAgentServer({
    executor: echoOrWait,
    card: (origin) => compatCard(origin),
    compat: { v03: true },
    push: { policy: { allowLoopback: true }, sender: { maxAttempts: 1 } },
    ...extra,
  });
  const origin = await server.listen(0);
  return { server, origin, close: () => server.close(500) };
}

/** A 1.0 user message. */
export const msg10 = (text: string, more: Record<string, unknown> = {}) => ({
  messageId: `m-${randomUUID()}`,
  role: 'ROLE_USER' as const,
  parts: [{ text }],
  ...more,
});

/** A 0.3 user message. */
export const msg03 = (text: string, more: Record<string, unknown> = {}) => ({
  kind: 'message' as const,
  messageId: `m-${randomUUID()}`,
  role: 'user' as const,
  parts: [{ kind: 'text' as const, text }],
  ...more,
});

/**
 * Collects a stream's items until it ends, calling `each` as they come (e.g. to cancel once the task is
 * there). Bounded in count and in time.
 */
export async function collect<T>(
  items: AsyncIterable<T>,
  each?: (item: T, index: number) => unknown,
  max = 200,
): Promise<T[]> {
  const out: T[] = [];
  const deadline = Date.now() + BOUND_MS;
  for await (const item of items) {
    out.push(item);
    await each?.(item, out.length - 1);
    if (out.length >= max || Date.now() > deadline) break;
  }
  return out;
}

/** Raw JSON-RPC over fetch, with the headers given (none by default: a 0.3 client sends no A2A-Version). */
export async function rpcRaw(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
  id: number | string = 1,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return { status: res.status, body: await res.json() };
}
