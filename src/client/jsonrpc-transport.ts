/**
 * JSON-RPC 2.0 binding (spec §9): every operation is a POST of a request envelope to the interface
 * URL; streams come back as SSE whose `data:` lines are JSON-RPC responses wrapping a StreamResponse.
 */
import { A2AError, OPERATIONS_BY_NAME, type OperationName } from '../protocol/index.js';
import { A2AClientError } from './errors.js';
import {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  exchange,
  parseJson,
  readText,
  toClientError,
  type FetchLike,
} from './http.js';
import { isEventStream, readSse } from './sse.js';
import type { HttpTransportOptions, StreamEvent, Transport, TransportRequest } from './transport.js';
import { a2aHeaders, asStreamResponse, authFailure, tagHttpFailure, withQuery } from './wire.js';

const JSON_TYPE = 'application/json';

interface JsonRpcEnvelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** Talks JSON-RPC 2.0 over HTTP to one interface URL. */
export class JsonRpcTransport implements Transport {
  readonly binding = 'JSONRPC';
  readonly url: string;
  private readonly fetch: FetchLike;
  private readonly maxResponseBytes: number;
  private readonly maxEventBytes: number;
  private readonly idleTimeoutMs: number | undefined;
  private nextId = 1;

  constructor(url: string, options: HttpTransportOptions = {}) {
    this.url = url;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs;
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, `${JSON_TYPE}, application/a2a+json`);
    req.onStatus?.(res.status);
    const envelope = await this.readEnvelope(res, operation);
    return this.unwrap(envelope, id, operation, res);
  }

  async *stream(operation: OperationName, params: object, req: TransportRequest): AsyncGenerator<StreamEvent> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, 'text/event-stream');
    req.onStatus?.(res.status);
    if (!isEventStream(res)) {
      // Errors found before the stream starts come back as one plain JSON-RPC response.
      const envelope = await this.readEnvelope(res, operation);
      this.unwrap(envelope, id, operation, res);
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: expected an event stream from ${this.url}, got ${res.headers.get('content-type') ?? 'no content type'}`,
      );
    }
    for await (const ev of readSse(res, { maxEventBytes: this.maxEventBytes, what: operation, url: this.url, idleTimeoutMs: this.idleTimeoutMs })) {
      if (ev.data.trim() === '') continue;
      const envelope = parseJson(ev.data, `${operation} stream event`) as JsonRpcEnvelope;
      const result = this.unwrap(envelope, id, operation, res);
      yield { id: ev.id, data: asStreamResponse(result, operation) };
    }
  }

  private async post(
    operation: OperationName,
    id: number,
    params: object,
    req: TransportRequest,
    accept: string,
  ): Promise<Response> {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: OPERATIONS_BY_NAME[operation].method, params });
    const init = { method: 'POST', headers: a2aHeaders(req, JSON_TYPE, accept), body, ...(req.signal ? { signal: req.signal } : {}) };
    return exchange(this.fetch, withQuery(this.url, req.query), init, operation, req.timeoutMs);
  }

  private async readEnvelope(res: Response, operation: OperationName): Promise<JsonRpcEnvelope> {
    let text: string;
    try {
      text = await readText(res, this.maxResponseBytes, operation);
    } catch (err) {
      throw toClientError(err, operation, this.url);
    }
    let parsed: unknown;
    try {
      parsed = parseJson(text, operation, res.status);
    } catch (err) {
      if (!res.ok) throw this.httpFailure(res, operation, undefined);
      throw err;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new A2AClientError('BAD_RESPONSE', `${operation}: response from ${this.url} is not a JSON-RPC object`);
    }
    const env = parsed as JsonRpcEnvelope;
    if (!res.ok && (env.jsonrpc !== '2.0' || env.error === undefined)) throw this.httpFailure(res, operation, parsed);
    return env;
  }

  /** A non-2xx answer without a JSON-RPC envelope: something in front of (or instead of) the agent spoke. */
  private httpFailure(res: Response, operation: OperationName, body: unknown): Error {
    if (res.status === 401 || res.status === 403) return authFailure(res, operation, this.url);
    if (res.status === 404 || res.status === 405) {
      return new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: ${this.url} answered HTTP ${res.status} without a JSON-RPC response; is this the agent's JSON-RPC interface URL?`,
        { status: res.status },
      );
    }
    return tagHttpFailure(A2AError.fromHttp(res.status, body), res);
  }

  private unwrap(env: JsonRpcEnvelope, id: number, operation: OperationName, res: Response): unknown {
    if (env.error !== undefined && env.error !== null) {
      const e = env.error;
      const code = typeof e.code === 'number' ? e.code : -32603;
      const message = typeof e.message === 'string' ? e.message : undefined;
      throw tagHttpFailure(A2AError.fromJsonRpc({ code, ...(message ? { message } : {}), data: e.data }), res);
    }
    if (env.jsonrpc !== '2.0' || !('result' in env)) {
      throw new A2AClientError('BAD_RESPONSE', `${operation}: response from ${this.url} is neither a JSON-RPC result nor an error`);
    }
    if (env.id !== id && env.id !== String(id)) {
      throw new A2AClientError('BAD_RESPONSE', `${operation}: response id ${JSON.stringify(env.id)} does not match request id ${id}`);
    }
    return env.result;
  }
}
