/**
 * Helpers of the auth tests: a real AgentServer on 127.0.0.1:0 whose card carries the security
 * schemes under test, and raw calls over JSON-RPC and (when the server serves it) HTTP+JSON,
 * with whatever credentials the test puts on the request.
 */
import assert from 'node:assert/strict';
import {
  ERRORS,
  type A2AErrorKind,
  type AgentCard,
  type OperationName,
} from '../src/protocol/index.js';
import {
  createAgentServer,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
} from '../src/server/index.js';
import { SERVED_BINDINGS } from '../src/server/bindings/registry.js';

export type Transport = 'jsonrpc' | 'rest';
/** The transports this build serves: REST joins as soon as its binding is registered. */
export const TRANSPORTS: Transport[] = SERVED_BINDINGS['HTTP+JSON']
  ? ['jsonrpc', 'rest']
  : ['jsonrpc'];

/** Leaves every task in input-required (non-terminal, so it can be canceled and subscribed to). */
export const asking: AgentExecutor = (_ctx, task) => {
  task.working();
  task.inputRequired('more, please');
};

export function baseCard(origin: string, extra: Partial<AgentCard> = {}): AgentCard {
  return {
    name: 'Guarded "agent"',
    description: 'auth tests',
    version: '1.0.0',
    supportedInterfaces: TRANSPORTS.map((t) =>
      t === 'jsonrpc'
        ? { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }
        : { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ),
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'does things', tags: ['t'] }],
    ...extra,
  };
}

export interface Running {
  origin: string;
  server: AgentServer;
  close(): Promise<void>;
}

/** Start a server whose card is `baseCard` plus `card` (the security parts under test). */
export async function start(
  card: Partial<AgentCard>,
  options: Omit<AgentServerOptions, 'card' | 'executor'> & { executor?: AgentExecutor } = {},
): Promise<Running> {
  const server = createAgentServer({
    executor: asking,
    ...options,
    card: (origin) => baseCard(origin, card),
  });
  const origin = await server.listen(0);
  return { origin, server, close: () => server.close(100) };
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined for SSE). */
  body: any;
  transport: Transport;
}

function restRequest(
  op: OperationName,
  params: Record<string, any>,
): { method: string; path: string; body?: unknown } {
  switch (op) {
    case 'SendMessage':
      return { method: 'POST', path: '/message:send', body: params };
    case 'SendStreamingMessage':
      return { method: 'POST', path: '/message:stream', body: params };
    case 'GetTask':
      return { method: 'GET', path: `/tasks/${encodeURIComponent(params.id)}` };
    case 'ListTasks':
      return { method: 'GET', path: '/tasks' };
    case 'CancelTask':
      return { method: 'POST', path: `/tasks/${encodeURIComponent(params.id)}:cancel`, body: {} };
    case 'SubscribeToTask':
      return { method: 'GET', path: `/tasks/${encodeURIComponent(params.id)}:subscribe` };
    case 'CreateTaskPushNotificationConfig':
      return {
        method: 'POST',
        path: `/tasks/${encodeURIComponent(params.taskId)}/pushNotificationConfigs`,
        body: params,
      };
    case 'GetExtendedAgentCard':
      return { method: 'GET', path: '/extendedAgentCard' };
    default:
      throw new Error(`no REST mapping for ${op} in this fixture`);
  }
}

/**
 * One A2A call with raw fetch. `query` is appended to the URL (API keys in the query string).
 * Streams are not read: a 200 text/event-stream answer is returned with `body` undefined.
 */
export async function call(
  origin: string,
  transport: Transport,
  op: OperationName,
  params: Record<string, any> = {},
  headers: Record<string, string> = {},
  query = '',
): Promise<Answer> {
  const h = { 'A2A-Version': '1.0', 'content-type': 'application/json', ...headers };
  let res: Response;
  if (transport === 'jsonrpc') {
    res = await fetch(`${origin}/a2a/jsonrpc${query}`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: op, params }),
    });
  } else {
    const r = restRequest(op, params);
    res = await fetch(`${origin}/a2a/rest${r.path}${query}`, {
      method: r.method,
      headers: h,
      ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
    });
  }
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, headers: res.headers, body: undefined, transport };
  }
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
    transport,
  };
}

/** Assert a successful answer and return its result object. */
export function ok(a: Answer): any {
  assert.equal(a.status, 200, `expected 200, got ${a.status}: ${JSON.stringify(a.body)}`);
  if (a.transport === 'jsonrpc') {
    assert.equal(a.body?.error, undefined, `unexpected error ${JSON.stringify(a.body?.error)}`);
    return a.body?.result;
  }
  return a.body;
}

/**
 * Assert the wire shape of an error: JSON-RPC error object with the catalogue code (HTTP 401 for
 * Unauthenticated, 200 otherwise), or google.rpc.Status with the HTTP status and status name.
 * Returns the error message.
 */
export function failed(a: Answer, kind: A2AErrorKind): string {
  const spec = ERRORS[kind];
  if (a.transport === 'jsonrpc') {
    assert.equal(
      a.body?.error?.code,
      spec.jsonRpcCode,
      `expected ${kind}, got ${a.status} ${JSON.stringify(a.body)}`,
    );
    assert.equal(a.body.jsonrpc, '2.0');
    if (kind === 'Unauthenticated') assert.equal(a.status, 401);
    return a.body.error.message as string;
  }
  assert.equal(
    a.status,
    spec.httpStatus,
    `expected ${kind}, got ${a.status} ${JSON.stringify(a.body)}`,
  );
  assert.equal(a.body?.error?.status, spec.grpcStatus);
  assert.equal(a.body.error.code, spec.httpStatus);
  return a.body.error.message as string;
}

export const bearerHeader = (token: string) => ({ authorization: `Bearer ${token}` });
export const basicHeader = (user: string, pass: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
});
export const say = (text: string) => ({
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
  },
});
