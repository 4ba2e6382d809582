/**
 * HTTP+JSON binding (spec §11): routes come from the operation table, path fields fill the route,
 * the rest of a GET/DELETE request travels as camelCase query parameters (§11.5), errors are
 * google.rpc.Status bodies (§11.6) and stream events are bare StreamResponse objects (§11.7).
 */
import {
  A2A_MEDIA_TYPE,
  A2AError,
  OPERATIONS_BY_NAME,
  type HttpVerb,
  type OperationName,
} from '../protocol/index.js';
import { exchange, parseJson } from './http.js';
import { HttpTransport } from './http-transport.js';
import type { HttpTransportOptions, StreamEvent, TransportRequest } from './transport.js';
import { a2aHeaders, asStreamResponse, tagHttpFailure, withQuery } from './wire.js';

interface RouteCall {
  verb: HttpVerb;
  url: string;
  body: string | undefined;
}

/** Talks HTTP+JSON to one interface URL (the route paths are appended to it). */
export class RestTransport extends HttpTransport {
  readonly binding = 'HTTP+JSON';

  constructor(url: string, options: HttpTransportOptions = {}) {
    super(url.replace(/\/+$/, ''), options);
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const route = this.route(operation, params);
    const res = await this.send(operation, route, req, `${A2A_MEDIA_TYPE}, application/json`);
    req.onStatus?.(res.status);
    const text = await this.read(res, operation);
    if (!res.ok) throw this.failure(res, text, operation);
    if (text.trim() === '') return undefined;
    return parseJson(text, operation, res.status);
  }

  async *stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent> {
    let route = this.route(operation, params);
    let res = await this.send(operation, route, req, 'text/event-stream');
    // §11.3.2 says POST for subscribe, the proto's HTTP rule says GET: try the other on 405.
    if (res.status === 405 && operation === 'SubscribeToTask') {
      await res.body?.cancel().catch(() => undefined);
      route = { ...route, verb: route.verb === 'POST' ? 'GET' : 'POST' };
      res = await this.send(operation, route, req, 'text/event-stream');
    }
    req.onStatus?.(res.status);
    await this.expectStream(res, operation, route.url, (text) =>
      this.failure(res, text, operation),
    );
    for await (const ev of this.events(res, operation, route.url)) {
      const value = parseJson(ev.data, `${operation} stream event`);
      const status = (value as { error?: { code?: unknown } } | null)?.error;
      if (status && typeof status === 'object') {
        const code = typeof status.code === 'number' ? status.code : 500;
        throw tagHttpFailure(A2AError.fromHttp(code, value), res);
      }
      yield { id: ev.id, data: asStreamResponse(value, operation) };
    }
  }

  /** Fills the operation's route from the request; fields not in the path go to the body or query. */
  private route(operation: OperationName, params: object): RouteCall {
    const op = OPERATIONS_BY_NAME[operation];
    const rest: Record<string, unknown> = { ...(params as Record<string, unknown>) };
    const tenant = rest['tenant'];
    delete rest['tenant'];
    const path = op.rest.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = rest[name];
      if (typeof v !== 'string' || v === '') {
        throw A2AError.invalidParams([
          { field: name, description: 'is required and must be a non-empty string' },
        ]);
      }
      delete rest[name];
      return encodeURIComponent(v);
    });
    const prefix =
      typeof tenant === 'string' && tenant !== '' ? `/${encodeURIComponent(tenant)}` : '';
    const verb: HttpVerb =
      operation === 'SubscribeToTask' ? 'POST' : (op.rest.verbs[0] as HttpVerb);
    const base = `${this.url}${prefix}${path}`;
    if (op.rest.body) return { verb, url: base, body: JSON.stringify(rest) };
    return { verb, url: withQuery(base, toQuery(rest)), body: undefined };
  }

  private async send(
    operation: OperationName,
    route: RouteCall,
    req: TransportRequest,
    accept: string,
  ): Promise<Response> {
    const init = {
      method: route.verb,
      headers: a2aHeaders(req, route.body !== undefined ? A2A_MEDIA_TYPE : undefined, accept),
      ...(route.body !== undefined ? { body: route.body } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    };
    return exchange(this.fetch, withQuery(route.url, req.query), init, operation, req.timeoutMs);
  }

  private failure(res: Response, text: string, operation: OperationName): Error {
    const body = HttpTransport.lenientJson(text);
    // No google.rpc.Status: the route itself is unknown there, not the task.
    const hasStatus = typeof (body as { error?: unknown } | undefined)?.error === 'object';
    const wrongUrl = `${res.url || this.url} answered HTTP ${res.status} without an A2A error; is ${this.url} the agent's HTTP+JSON interface URL?`;
    return (
      (hasStatus ? undefined : this.notTheAgent(res, operation, wrongUrl)) ??
      tagHttpFailure(A2AError.fromHttp(res.status, body), res)
    );
  }
}

/** §11.5: scalars as strings, booleans lowercase, repeated fields repeated; nested objects cannot travel. */
function toQuery(fields: Record<string, unknown>): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) q[k] = v.map(String);
    else if (typeof v === 'object') {
      throw A2AError.invalidParams([
        { field: k, description: 'an object cannot be sent as a query parameter' },
      ]);
    } else q[k] = String(v);
  }
  return q;
}
