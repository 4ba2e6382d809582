/**
 * A2A 0.3 over HTTP+JSON, behind the same {@link Transport} as 1.0. Routes below `/v1`; bodies in the
 * 0.3 proto's JSON form, which is what 0.3 agents parse (answers in the JSON-RPC form are read too);
 * errors as bare `{code, message}` objects; stream events as bare StreamResponses, errors as `error` events.
 */
import { A2AError, type OperationName } from '../../protocol/index.js';
import { ROUTES_V03, errorFromV03, proto03, type MessageSendParams03, type TaskPushNotificationConfig03 } from '../../protocol/v03/index.js';
import { A2AClientError } from '../errors.js';
import { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES, exchange, parseJson, readText, toClientError, type FetchLike } from '../http.js';
import { isEventStream, readSse } from '../sse.js';
import type { HttpTransportOptions, StreamEvent, Transport, TransportRequest } from '../transport.js';
import { authFailure, tagHttpFailure, withQuery } from '../wire.js';
import { eventFromV03, paramsToV03, resultFromV03 } from './convert.js';
import { v03Headers } from './wire.js';

const JSON_TYPE = 'application/json';
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A proto answer of `operation` in the 0.3 JSON-RPC form the readers take. */
function fromProto(operation: OperationName, value: unknown): unknown {
  switch (operation) {
    case 'SendMessage':
      return proto03.eventFromProto(value);
    case 'GetTask':
    case 'CancelTask':
      return proto03.taskFromProto(value);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return proto03.taskPushConfigFromProto(value);
    case 'ListTaskPushNotificationConfigs': {
      const list = Array.isArray(value) ? value : isObj(value) && Array.isArray(value.configs) ? value.configs : [];
      return list.map((c) => proto03.taskPushConfigFromProto(c));
    }
    default:
      return value;
  }
}

/** Talks A2A 0.3 HTTP+JSON to one interface URL (the `/v1/…` routes are appended to it). */
export class RestV03Transport implements Transport {
  readonly binding = 'HTTP+JSON';
  readonly url: string;
  private readonly fetch: FetchLike;
  private readonly maxResponseBytes: number;
  private readonly maxEventBytes: number;
  private readonly idleTimeoutMs: number | undefined;

  constructor(url: string, options: HttpTransportOptions = {}) {
    this.url = url.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs;
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const res = await this.send(operation, params, req, JSON_TYPE);
    req.onStatus?.(res.status);
    const text = await this.read(res, operation);
    if (!res.ok) throw this.failure(res, text, operation);
    if (operation === 'DeleteTaskPushNotificationConfig') return {};
    return resultFromV03(operation, fromProto(operation, parseJson(text, operation, res.status)), this.url);
  }

  async *stream(operation: OperationName, params: object, req: TransportRequest): AsyncGenerator<StreamEvent> {
    const res = await this.send(operation, params, req, 'text/event-stream');
    req.onStatus?.(res.status);
    if (!res.ok || !isEventStream(res)) {
      const text = await this.read(res, operation);
      if (!res.ok) throw this.failure(res, text, operation);
      throw new A2AClientError('BAD_RESPONSE', `${operation}: expected an event stream from ${this.url}, got ${res.headers.get('content-type') ?? 'no content type'}`);
    }
    for await (const ev of readSse(res, { maxEventBytes: this.maxEventBytes, what: operation, url: this.url, idleTimeoutMs: this.idleTimeoutMs })) {
      if (ev.data.trim() === '') continue;
      const value = parseJson(ev.data, `${operation} stream event`);
      if (ev.event === 'error' || (isObj(value) && typeof value.code === 'number' && typeof value.message === 'string')) {
        throw tagHttpFailure(errorFromV03(isObj(value) ? value : {}), res);
      }
      yield { id: ev.id, data: eventFromV03(proto03.eventFromProto(value), operation, this.url) };
    }
  }

  private async send(operation: OperationName, params: object, req: TransportRequest, accept: string): Promise<Response> {
    const route = ROUTES_V03[operation];
    const v03 = paramsToV03(operation, params, `the HTTP+JSON 0.3 interface at ${this.url}`) ?? {};
    if (!route) throw new A2AError('UnsupportedOperation', `${operation} has no A2A 0.3 HTTP+JSON route`);
    const segment = (name: string): string => {
      const v = name === 'configId' ? v03.pushNotificationConfigId : (v03.id ?? v03.taskId);
      if (typeof v !== 'string' || v === '') throw A2AError.invalidParams([{ field: name === 'configId' ? 'id' : 'taskId', description: 'is required and must be a non-empty string' }]);
      return encodeURIComponent(v);
    };
    const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => segment(name));
    let body: string | undefined;
    if (operation === 'SendMessage' || operation === 'SendStreamingMessage') body = JSON.stringify(proto03.sendParamsToProto(v03 as unknown as MessageSendParams03));
    else if (operation === 'CreateTaskPushNotificationConfig') body = JSON.stringify(proto03.taskPushConfigToProto(v03 as unknown as TaskPushNotificationConfig03));
    const query: Record<string, string> = {};
    if (operation === 'GetTask' && typeof v03.historyLength === 'number') query.historyLength = String(v03.historyLength);
    const verb = route.verbs[0]!;
    const init = {
      method: verb,
      headers: v03Headers(req, body !== undefined ? JSON_TYPE : undefined, accept),
      ...(body !== undefined ? { body } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    };
    return exchange(this.fetch, withQuery(withQuery(`${this.url}${path}`, query), req.query), init, operation, req.timeoutMs);
  }

  private async read(res: Response, operation: OperationName): Promise<string> {
    try {
      return await readText(res, this.maxResponseBytes, operation);
    } catch (err) {
      throw toClientError(err, operation, this.url);
    }
  }

  private failure(res: Response, text: string, operation: OperationName): Error {
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isObj(body) && typeof body.code === 'number') return tagHttpFailure(errorFromV03(body), res);
    if (isObj(body) && isObj(body.error)) return tagHttpFailure(A2AError.fromHttp(res.status, body), res); // a 1.0 agent's answer
    if (res.status === 401 || res.status === 403) return authFailure(res, operation, this.url);
    if (res.status === 404 || res.status === 405) {
      return new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: ${res.url || this.url} answered HTTP ${res.status} without an A2A error; is ${this.url} the agent's HTTP+JSON 0.3 interface URL?`,
        { status: res.status },
      );
    }
    return tagHttpFailure(A2AError.fromHttp(res.status, body), res);
  }
}
