/**
 * A2A 0.3 over HTTP+JSON, behind the same {@link Transport} as 1.0. Routes below `/v1`; bodies in the
 * 0.3 proto's JSON form, which is what 0.3 agents parse (answers in the JSON-RPC form are read too);
 * errors as bare `{code, message}` objects; stream events as bare StreamResponses, errors as `error` events.
 */
import { A2AError, type OperationName } from '../../protocol/index.js';
import {
  ROUTES_V03,
  errorFromV03,
  errorFromV03Status,
  proto03,
  type MessageSendParams03,
  type TaskPushNotificationConfig03,
} from '../../protocol/v03/index.js';
import { exchange, parseJson } from '../http.js';
import { HttpTransport } from '../http-transport.js';
import type { HttpTransportOptions, StreamEvent, TransportRequest } from '../transport.js';
import { tagHttpFailure, withQuery } from '../wire.js';
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
      const list = Array.isArray(value)
        ? value
        : isObj(value) && Array.isArray(value.configs)
          ? value.configs
          : [];
      return list.map((c) => proto03.taskPushConfigFromProto(c));
    }
    default:
      return value;
  }
}

/** Talks A2A 0.3 HTTP+JSON to one interface URL (the `/v1/…` routes are appended to it). */
export class RestV03Transport extends HttpTransport {
  readonly binding = 'HTTP+JSON';
  /** Set once the agent answered GET `:subscribe` with 405: its server maps it to POST, as some 0.3 servers did. */
  #subscribeByPost = false;

  constructor(url: string, options: HttpTransportOptions = {}) {
    super(url.replace(/\/+$/, ''), options);
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const res = await this.send(operation, params, req, JSON_TYPE);
    req.onStatus?.(res.status);
    const text = await this.read(res, operation);
    if (!res.ok) throw this.failure(res, text, operation);
    if (operation === 'DeleteTaskPushNotificationConfig') return {};
    return resultFromV03(
      operation,
      fromProto(operation, parseJson(text, operation, res.status)),
      this.url,
    );
  }

  async *stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent> {
    let res = await this.send(operation, params, req, 'text/event-stream');
    if (res.status === 405 && operation === 'SubscribeToTask' && !this.#subscribeByPost) {
      // The proto's GET was refused: this server wants the other verb 0.3 servers used.
      await res.body?.cancel();
      this.#subscribeByPost = true;
      res = await this.send(operation, params, req, 'text/event-stream');
    }
    req.onStatus?.(res.status);
    await this.expectStream(res, operation, this.url, (text) => this.failure(res, text, operation));
    for await (const ev of this.events(res, operation, this.url)) {
      const value = parseJson(ev.data, `${operation} stream event`);
      if (
        ev.event === 'error' ||
        (isObj(value) && typeof value.code === 'number' && typeof value.message === 'string')
      ) {
        throw tagHttpFailure(errorFromV03(isObj(value) ? value : {}), res);
      }
      yield { id: ev.id, data: eventFromV03(proto03.eventFromProto(value), operation, this.url) };
    }
  }

  private async send(
    operation: OperationName,
    params: object,
    req: TransportRequest,
    accept: string,
  ): Promise<Response> {
    const route = ROUTES_V03[operation];
    const v03 = paramsToV03(operation, params, `the HTTP+JSON 0.3 interface at ${this.url}`) ?? {};
    if (!route)
      throw new A2AError('UnsupportedOperation', `${operation} has no A2A 0.3 HTTP+JSON route`);
    const segment = (name: string): string => {
      const v = name === 'configId' ? v03.pushNotificationConfigId : (v03.id ?? v03.taskId);
      if (typeof v !== 'string' || v === '')
        throw A2AError.invalidParams([
          {
            field: name === 'configId' ? 'id' : 'taskId',
            description: 'is required and must be a non-empty string',
          },
        ]);
      return encodeURIComponent(v);
    };
    const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => segment(name));
    let body: string | undefined;
    if (operation === 'SendMessage' || operation === 'SendStreamingMessage')
      body = JSON.stringify(proto03.sendParamsToProto(v03 as unknown as MessageSendParams03));
    else if (operation === 'CreateTaskPushNotificationConfig')
      body = JSON.stringify(
        proto03.taskPushConfigToProto(v03 as unknown as TaskPushNotificationConfig03),
      );
    const query: Record<string, string> = {};
    if (operation === 'GetTask' && typeof v03.historyLength === 'number')
      query.historyLength = String(v03.historyLength);
    const verb =
      operation === 'SubscribeToTask' && this.#subscribeByPost ? 'POST' : route.verbs[0]!;
    const init = {
      method: verb,
      headers: v03Headers(req, body !== undefined ? JSON_TYPE : undefined, accept),
      ...(body !== undefined ? { body } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    };
    return exchange(
      this.fetch,
      withQuery(withQuery(`${this.url}${path}`, query), req.query),
      init,
      operation,
      req.timeoutMs,
    );
  }

  private failure(res: Response, text: string, operation: OperationName): Error {
    const body = HttpTransport.lenientJson(text);
    if (isObj(body) && typeof body.code === 'number')
      return tagHttpFailure(errorFromV03(body), res);
    if (isObj(body) && isObj(body.error))
      return tagHttpFailure(A2AError.fromHttp(res.status, body), res); // a 1.0 agent's answer
    if (
      isObj(body) &&
      typeof body.message === 'string' &&
      res.status !== 401 &&
      res.status !== 403
    ) {
      // A 0.3 server's error without a code (Python's): the status names the kind.
      const err = errorFromV03Status(res.status, body.message, operation);
      if (err) return tagHttpFailure(err, res);
    }
    const wrongUrl = `${res.url || this.url} answered HTTP ${res.status} without an A2A error; is ${this.url} the agent's HTTP+JSON 0.3 interface URL?`;
    return (
      this.notTheAgent(res, operation, wrongUrl) ??
      tagHttpFailure(A2AError.fromHttp(res.status, body), res)
    );
  }
}
