/**
 * Shared by the HTTP+JSON and equivalence tests: small agents, servers with both bindings on
 * 127.0.0.1:0, and one raw driver that performs an operation over either binding (built from the
 * operation table, not from our client) and reduces the answer to a binding-neutral outcome.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import {
  A2AError,
  ERRORS,
  OPERATIONS_BY_NAME,
  type A2AErrorKind,
  type AgentCapabilities,
  type AgentCard,
  type OperationName,
} from '../src/protocol/index.js';
import {
  createAgentServer,
  silentLogger,
  type AgentExecutor,
  type AgentServerOptions,
} from '../src/server/index.js';

export const BOUND_MS = 5000;
export const REQUIRED_EXT = 'https://example.com/ext/required/v1';
export const OPTIONAL_EXT = 'https://example.com/ext/optional/v1';
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A local webhook receiver, so push deliveries stay on 127.0.0.1; unref'd so it never holds the process. */
const receiver = createServer((req, res) => {
  req.resume();
  res.writeHead(204).end();
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
receiver.unref();
export const HOOK = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const waitAbort = (signal: AbortSignal): Promise<void> =>
  new Promise<void>((r) => {
    if (signal.aborted) return r();
    signal.addEventListener('abort', () => r());
    setTimeout(r, BOUND_MS).unref();
  });

/** The first word of the text picks the behaviour. */
export const agent: AgentExecutor = async (ctx, task) => {
  if (ctx.requestedExtensions.includes(OPTIONAL_EXT)) ctx.activateExtension(OPTIONAL_EXT);
  if (ctx.requestedExtensions.includes(REQUIRED_EXT)) ctx.activateExtension(REQUIRED_EXT);
  if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
    task.addArtifact({ name: 'answer', parts: [{ text: `chose ${ctx.text}` }] });
    task.complete('thanks');
    return;
  }
  const [cmd] = ctx.text.split(/\s+/, 1);
  switch (cmd) {
    case 'reply':
      return task.reply(`you said ${ctx.text}`);
    case 'ask':
      task.working();
      return task.inputRequired('red or blue?');
    case 'slow':
      task.working('taking my time');
      await waitAbort(ctx.signal);
      return;
    case 'empty':
      return;
    case 'boom':
      throw new Error('secret internal detail /etc/passwd');
    case 'media':
      throw new A2AError('ContentTypeNotSupported', 'image/tiff is not accepted');
    default:
      task.working('echoing');
      task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
      task.complete();
  }
};

export type Kind = 'full' | 'bare' | 'ext';

const CAPS: Record<Kind, AgentCapabilities> = {
  full: { streaming: true, pushNotifications: true, extendedAgentCard: true },
  bare: {},
  ext: {
    streaming: true,
    extendedAgentCard: true,
    extensions: [
      { uri: REQUIRED_EXT, description: 'must be used', required: true },
      { uri: OPTIONAL_EXT, description: 'may be used', required: false },
    ],
  },
};

export function cardFor(origin: string, kind: Kind, restPath = '/a2a/rest'): AgentCard {
  return {
    name: `${kind}-agent`,
    description: 'binding test agent',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}${restPath}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: CAPS[kind],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'] }],
  };
}

/** Server options for an agent of `kind`: `Bearer good` is alice; only the full one has an extended card. */
export function optionsFor(
  kind: Kind,
  extra: Partial<AgentServerOptions> = {},
): AgentServerOptions {
  return {
    executor: agent,
    card: (o) => cardFor(o, kind),
    sse: { keepAliveMs: 0 },
    // The agent throws on purpose: the default stderr lines would be noise here.
    logger: silentLogger,
    // Webhooks in these tests live on 127.0.0.1, which the push SSRF guard refuses by default.
    ...({ push: { policy: { allowLoopback: true } } } as object),
    authenticate: (req) =>
      req.headers.authorization === 'Bearer good' ? { id: 'alice' } : undefined,
    challenge: 'Bearer realm="test"',
    ...(kind === 'full'
      ? {
          extendedCard: (caller) => ({
            ...cardFor('http://x', kind),
            name: `extended for ${caller.id}`,
          }),
        }
      : {}),
    ...extra,
  };
}

export async function startAgent(kind: Kind, extra: Partial<AgentServerOptions> = {}) {
  const server = createAgentServer(optionsFor(kind, extra));
  const origin = await server.listen(0);
  return { server, origin, close: () => server.close(1000) };
}

export type Binding = 'jsonrpc' | 'rest';
export const BINDINGS: Binding[] = ['jsonrpc', 'rest'];

export interface CallOptions {
  tenant?: string;
  headers?: Record<string, string>;
  /** Send SubscribeToTask with POST instead of GET. */
  post?: boolean;
}

/** A binding-neutral answer: a result, a stream of events, or an error kind. */
export interface Outcome {
  status: number;
  headers: Headers;
  result?: any;
  events?: any[];
  error?: { kind: A2AErrorKind; message: string; details: any[] };
}

/** The HTTP request that performs `op` on the HTTP+JSON binding (path fields, then body or query). */
export function restRequest(op: OperationName, params: Record<string, any>, o: CallOptions = {}) {
  const route = OPERATIONS_BY_NAME[op].rest;
  const rest: Record<string, any> = { ...params };
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = String(rest[name] ?? '');
    delete rest[name];
    return encodeURIComponent(v);
  });
  const prefix = o.tenant !== undefined ? `/${encodeURIComponent(o.tenant)}` : '';
  const verb = op === 'SubscribeToTask' && o.post ? 'POST' : route.verbs[0]!;
  if (route.body) return { verb, path: prefix + path, body: JSON.stringify(rest) };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) q.set(k, String(v));
  return { verb, path: prefix + path + (q.size ? `?${q}` : ''), body: undefined };
}

export async function call(
  origin: string,
  binding: Binding,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions = {},
): Promise<Outcome> {
  return outcomeOf(binding, await request(origin, binding, op, params, o));
}

/** Perform `op` and return the raw answer (its body unread: a stream can be read later). */
export async function request(
  origin: string,
  binding: Binding,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'a2a-version': '1.0',
    'content-type': 'application/a2a+json',
    ...o.headers,
  };
  let res: Response;
  if (binding === 'jsonrpc') {
    const p = o.tenant !== undefined ? { ...params, tenant: o.tenant } : params;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'req-1', method: op, params: p });
    res = await fetch(`${origin}/a2a/jsonrpc`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(BOUND_MS),
    });
  } else {
    const r = restRequest(op, params, o);
    res = await fetch(`${origin}/a2a/rest${r.path}`, {
      method: r.verb,
      headers,
      ...(r.body !== undefined ? { body: r.body } : {}),
      signal: AbortSignal.timeout(BOUND_MS),
    });
  }
  return res;
}

export async function outcomeOf(binding: Binding, res: Response): Promise<Outcome> {
  const base = { status: res.status, headers: res.headers };
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const events = (await readSse(res)).map((e) => JSON.parse(e.data));
    if (binding === 'rest') return { ...base, events };
    for (const e of events)
      assert.equal(e.id, 'req-1', 'every JSON-RPC stream event carries the request id');
    return { ...base, events: events.map((e) => e.result) };
  }
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  if (binding === 'jsonrpc') {
    if (body?.error) {
      const kind = (Object.keys(ERRORS) as A2AErrorKind[]).find(
        (k) => ERRORS[k].jsonRpcCode === body.error.code,
      );
      assert.ok(kind, `unknown JSON-RPC code ${body.error.code}`);
      return {
        ...base,
        error: { kind, message: body.error.message, details: body.error.data ?? [] },
      };
    }
    return { ...base, result: body.result };
  }
  if (res.status >= 400) {
    const e = body?.error;
    assert.equal(e?.code, res.status, 'error.code is the HTTP status');
    const info = e.details.find(
      (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
    );
    assert.ok(info, `every REST error carries an ErrorInfo: ${text}`);
    const kind = (Object.keys(ERRORS) as A2AErrorKind[]).find(
      (k) => ERRORS[k].reason === info.reason,
    );
    assert.ok(kind, `unknown reason ${info.reason}`);
    assert.equal(e.status, ERRORS[kind].grpcStatus);
    assert.equal(info.domain, ERRORS[kind].a2a ? 'a2a-protocol.org' : 'a2a-kit');
    return { ...base, error: { kind, message: e.message, details: e.details } };
  }
  return { ...base, result: body };
}

export interface SseEvent {
  id: string | undefined;
  data: string;
}

/** Every event of an SSE answer until the server ends it (bounded). */
export async function readSse(res: Response, stopAfter = Infinity): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, data: e.data }) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + BOUND_MS;
  while (Date.now() < deadline && events.length < stopAfter) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  if (events.length >= stopAfter) await reader.cancel();
  return events;
}

/** Ids and timestamps differ between runs; everything else must match across bindings. */
export function normalize(value: unknown): unknown {
  const text = JSON.stringify(value ?? null)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/"m-\d+"/g, '"<message>"');
  return JSON.parse(text);
}

let n = 0;
export function message(text: string, extra: Record<string, unknown> = {}) {
  return { messageId: `m-${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra };
}
