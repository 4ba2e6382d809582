/**
 * JSON-RPC 2.0 binding (spec §9): every operation is a POST of a request envelope to the interface
 * URL; streams come back as SSE whose `data:` lines are JSON-RPC responses wrapping a StreamResponse.
 */
import {
  A2AError,
  OPERATIONS_BY_NAME,
  type OperationName,
  type StreamResponse,
} from '../protocol/index.js';
import { A2AClientError } from './errors.js';
import { exchange, parseJson } from './http.js';
import { HttpTransport } from './http-transport.js';
import { isEventStream } from './sse.js';
import type { StreamEvent, TransportRequest } from './transport.js';
import { a2aHeaders, asStreamResponse, tagHttpFailure, withQuery } from './wire.js';

const JSON_TYPE = 'application/json';

/** A JSON-RPC response as it arrived, nothing checked yet. */
export interface JsonRpcEnvelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

/**
 * Talks JSON-RPC 2.0 over HTTP to one interface URL. The envelope, ids and HTTP failures are the same
 * in every protocol version; what a version changes (methods, params, results, errors, headers) is
 * in the protected methods a subclass overrides.
 */
export class JsonRpcTransport extends HttpTransport {
  readonly binding = 'JSONRPC';
  /** What a 404 or 405 suggests the URL should have been. */
  protected readonly urlKind: string = "the agent's JSON-RPC interface URL";
  /** What a unary call accepts. */
  protected readonly accept: string = `${JSON_TYPE}, application/a2a+json`;
  private nextId = 1;

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, this.accept);
    req.onStatus?.(res.status);
    const envelope = await this.readEnvelope(res, operation);
    return this.result(operation, this.unwrap(envelope, id, operation, res));
  }

  async *stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent> {
    const id = this.nextId++;
    const res = await this.post(operation, id, params, req, 'text/event-stream');
    req.onStatus?.(res.status);
    if (!isEventStream(res)) {
      // Errors found before the stream starts come back as one plain JSON-RPC response.
      this.unwrap(await this.readEnvelope(res, operation), id, operation, res);
      throw this.notAStream(res, operation, this.url);
    }
    for await (const ev of this.events(res, operation, this.url)) {
      const envelope = parseJson(ev.data, `${operation} stream event`) as JsonRpcEnvelope;
      yield { id: ev.id, data: this.event(operation, this.unwrap(envelope, id, operation, res)) };
    }
  }

  /** The request's `method` and `params` (none: no `params` member). */
  protected request(
    operation: OperationName,
    params: object,
  ): { method: string | undefined; params?: unknown } {
    return { method: OPERATIONS_BY_NAME[operation].method, params };
  }

  protected headers(req: TransportRequest, accept: string): Record<string, string> {
    return a2aHeaders(req, JSON_TYPE, accept);
  }

  /** A unary call's result as the client takes it. */
  protected result(_operation: OperationName, value: unknown): unknown {
    return value;
  }

  /** A stream event's result as the client takes it. */
  protected event(operation: OperationName, value: unknown): StreamResponse {
    return asStreamResponse(value, operation);
  }

  /** Whether a non-2xx answer is the agent's own JSON-RPC error (else something in front of it spoke). */
  protected isAgentError(env: JsonRpcEnvelope): boolean {
    return env.jsonrpc === '2.0' && env.error !== undefined;
  }

  /** The `error` member of a response as an error. */
  protected error(error: unknown): A2AError {
    const e = (typeof error === 'object' && error !== null ? error : {}) as {
      code?: unknown;
      message?: unknown;
      data?: unknown;
    };
    const code = typeof e.code === 'number' ? e.code : -32603;
    const message = typeof e.message === 'string' ? e.message : undefined;
    return A2AError.fromJsonRpc({ code, ...(message ? { message } : {}), data: e.data });
  }

  /** Whether an answer without `result` still means success for `operation` (a subclass's leniency). */
  protected resultMayBeOmitted(_operation: OperationName): boolean {
    return false;
  }

  private async post(
    operation: OperationName,
    id: number,
    params: object,
    req: TransportRequest,
    accept: string,
  ): Promise<Response> {
    const request = this.request(operation, params);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: request.method,
      ...(request.params !== undefined ? { params: request.params } : {}),
    });
    const init = {
      method: 'POST',
      headers: this.headers(req, accept),
      body,
      ...(req.signal ? { signal: req.signal } : {}),
    };
    return exchange(this.fetch, withQuery(this.url, req.query), init, operation, req.timeoutMs);
  }

  private async readEnvelope(res: Response, operation: OperationName): Promise<JsonRpcEnvelope> {
    const text = await this.read(res, operation);
    let parsed: unknown;
    try {
      parsed = parseJson(text, operation, res.status);
    } catch (err) {
      if (!res.ok) throw this.httpFailure(res, operation, undefined);
      throw err;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: response from ${this.url} is not a JSON-RPC object`,
      );
    }
    const env = parsed as JsonRpcEnvelope;
    if (!res.ok && !this.isAgentError(env)) throw this.httpFailure(res, operation, parsed);
    return env;
  }

  /** A non-2xx answer without a JSON-RPC envelope: something in front of (or instead of) the agent spoke. */
  private httpFailure(res: Response, operation: OperationName, body: unknown): Error {
    const wrongUrl = `${this.url} answered HTTP ${res.status} without a JSON-RPC response; is this ${this.urlKind}?`;
    return (
      this.notTheAgent(res, operation, wrongUrl) ??
      tagHttpFailure(A2AError.fromHttp(res.status, body), res)
    );
  }

  private unwrap(
    env: JsonRpcEnvelope,
    id: number,
    operation: OperationName,
    res: Response,
  ): unknown {
    if (env.error !== undefined && env.error !== null)
      throw tagHttpFailure(this.error(env.error), res);
    if (env.jsonrpc !== '2.0' || (!('result' in env) && !this.resultMayBeOmitted(operation))) {
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: response from ${this.url} is neither a JSON-RPC result nor an error`,
      );
    }
    if (env.id !== id && env.id !== String(id)) {
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: response id ${JSON.stringify(env.id)} does not match request id ${id}`,
      );
    }
    return env.result;
  }
}
