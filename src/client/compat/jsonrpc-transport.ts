/**
 * A2A 0.3 over JSON-RPC, behind the same {@link Transport} as 1.0: the client hands it 1.0 requests
 * and gets 1.0 results, events and errors back. On the wire: slash-style methods, `kind`-discriminated
 * objects, streams whose events are JSON-RPC responses carrying 0.3 events.
 */
import { A2AError, type OperationName } from '../../protocol/index.js';
import { METHOD_OF_V03, errorFromV03 } from '../../protocol/v03/index.js';
import { A2AClientError } from '../errors.js';
import { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES, exchange, parseJson, readText, toClientError, type FetchLike } from '../http.js';
import { isEventStream, readSse } from '../sse.js';
import type { HttpTransportOptions, StreamEvent, Transport, TransportRequest } from '../transport.js';
import { authFailure, tagHttpFailure, withQuery } from '../wire.js';
import { eventFromV03, paramsToV03, resultFromV03 } from './convert.js';
import { v03Headers } from './wire.js';

const JSON_TYPE = 'application/json';

interface Envelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

/** Talks A2A 0.3 JSON-RPC to one interface URL. */
export class JsonRpcV03Transport implements Transport {
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

  private where(): string {
    return `the JSON-RPC 0.3 interface at ${this.url}`;
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, JSON_TYPE);
    req.onStatus?.(res.status);
    const env = await this.readEnvelope(res, operation);
    return resultFromV03(operation, this.unwrap(env, id, operation, res), this.url);
  }

  async *stream(operation: OperationName, params: object, req: TransportRequest): AsyncGenerator<StreamEvent> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, 'text/event-stream');
    req.onStatus?.(res.status);
    if (!isEventStream(res)) {
      this.unwrap(await this.readEnvelope(res, operation), id, operation, res);
      throw new A2AClientError('BAD_RESPONSE', `${operation}: expected an event stream from ${this.url}, got ${res.headers.get('content-type') ?? 'no content type'}`);
    }
    for await (const ev of readSse(res, { maxEventBytes: this.maxEventBytes, what: operation, url: this.url, idleTimeoutMs: this.idleTimeoutMs })) {
      if (ev.data.trim() === '') continue;
      const env = parseJson(ev.data, `${operation} stream event`) as Envelope;
      yield { id: ev.id, data: eventFromV03(this.unwrap(env, id, operation, res), operation, this.url) };
    }
  }

  private async post(operation: OperationName, id: number, params: object, req: TransportRequest, accept: string): Promise<Response> {
    const method = METHOD_OF_V03[operation];
    const v03 = paramsToV03(operation, params, this.where());
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(v03 !== undefined ? { params: v03 } : {}) });
    const init = { method: 'POST', headers: v03Headers(req, JSON_TYPE, accept), body, ...(req.signal ? { signal: req.signal } : {}) };
    return exchange(this.fetch, withQuery(this.url, req.query), init, operation, req.timeoutMs);
  }

  private async readEnvelope(res: Response, operation: OperationName): Promise<Envelope> {
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
    const env = parsed as Envelope;
    if (!res.ok && env.error === undefined) throw this.httpFailure(res, operation, parsed);
    return env;
  }

  private httpFailure(res: Response, operation: OperationName, body: unknown): Error {
    if (res.status === 401 || res.status === 403) return authFailure(res, operation, this.url);
    if (res.status === 404 || res.status === 405) {
      return new A2AClientError('BAD_RESPONSE', `${operation}: ${this.url} answered HTTP ${res.status} without a JSON-RPC response; is this the agent's JSON-RPC 0.3 URL?`, { status: res.status });
    }
    return tagHttpFailure(A2AError.fromHttp(res.status, body), res);
  }

  private unwrap(env: Envelope, id: number, operation: OperationName, res: Response): unknown {
    if (env.error !== undefined && env.error !== null) {
      const e = (typeof env.error === 'object' ? env.error : {}) as Record<string, unknown>;
      // A 1.0 agent answering a 0.3 request (e.g. VersionNotSupported) sends its details as a list.
      const err = Array.isArray(e.data) ? A2AError.fromJsonRpc(e as { code: number; message?: string; data?: unknown }) : errorFromV03(e);
      throw tagHttpFailure(err, res);
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
