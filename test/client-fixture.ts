/**
 * Small real HTTP servers standing in for A2A agents in the client tests. They speak the spec's
 * wire format by hand (card, JSON-RPC envelopes, google.rpc.Status errors, SSE) so the client is
 * tested against the spec, not against our own server code.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Task, TaskState } from '../src/protocol/index.js';

export interface Recorded {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Parsed body when it was JSON. */
  readonly json: any;
}

export type Handler = (req: Recorded, res: ServerResponse) => unknown;

export interface TestServer {
  readonly url: string;
  readonly requests: Recorded[];
  /** Requests other than the card fetch. */
  calls(): Recorded[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, port 0, recording every request before the handler sees it. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const rec: Recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        json,
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(err) } });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: () => requests.filter((r) => r.path !== '/.well-known/agent-card.json'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  res.flushHeaders();
}

export function sseEvent(res: ServerResponse, data: unknown, id?: string): void {
  res.write(`${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

/** A JSON-RPC success envelope. */
export const rpcResult = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });
/** A JSON-RPC error envelope with an ErrorInfo detail. */
export const rpcError = (id: unknown, code: number, message: string, reason: string) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code,
    message,
    data: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
    ],
  },
});
/** A google.rpc.Status body (§11.6). */
export const restError = (code: number, status: string, message: string, reason: string) => ({
  error: {
    code,
    status,
    message,
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
    ],
  },
});

export function task(id: string, state: TaskState = 'TASK_STATE_WORKING'): Task {
  return { id, contextId: 'ctx-1', status: { state, timestamp: '2026-01-01T00:00:00Z' } };
}

export const statusUpdate = (taskId: string, state: TaskState) => ({
  statusUpdate: {
    taskId,
    contextId: 'ctx-1',
    status: { state, timestamp: '2026-01-01T00:00:01Z' },
  },
});

export const userMessage = (text: string) => ({
  message: {
    messageId: `m-${text.length}-${text.slice(0, 8)}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
  },
});

/** A valid 1.0 card; interfaces default to one JSON-RPC 1.0 entry at `${base}/a2a/jsonrpc`. */
export function makeCard(base: string, overrides: Partial<AgentCard> = {}): AgentCard {
  return {
    name: 'test-agent',
    description: 'an agent for client tests',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'] }],
    ...overrides,
  };
}

export const restCard = (base: string, overrides: Partial<AgentCard> = {}): AgentCard =>
  makeCard(base, {
    supportedInterfaces: [
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    ...overrides,
  });
