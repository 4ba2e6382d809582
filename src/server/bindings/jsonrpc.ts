/**
 * JSON-RPC 2.0 binding (§9): one POST endpoint, PascalCase methods from the operation table,
 * errors with HTTP 200 (except HTTP-level ones: 401, 405, 413, 415), streams as SSE where every
 * event is a JSON-RPC response carrying the request id. The protocol version is checked before the
 * method is looked up (§3.6.2): what a method name means depends on it.
 */
import {
  A2AError,
  MAX_ID_LENGTH,
  OPERATIONS_BY_METHOD,
  PROTOCOL_VERSION,
  mayHaveProtoNames,
  requestedVersion,
  withJsonNames,
  type StreamResponse,
} from '../../protocol/index.js';
import { V03_METHODS } from '../../protocol/v03/methods.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import {
  answerHeaders,
  authenticateEarly,
  contextOf,
  versionNotSupported,
  withV03Hint,
  type BindingOptions,
} from './common.js';
import { asA2AError } from '../kernel/errors.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH } from '../kernel/limits.js';
import { BodyTooLargeError, type HttpExchange } from './exchange.js';
import {
  isJsonContentType,
  jsonTooDeep,
  queryOf,
  requestedVersionParam,
  tooDeepMessage,
  unsupportedEncoding,
} from './http-util.js';
import { SseWriter } from './sse.js';
import { resultJson } from '../tasks/json.js';
import { answerBody, eventBody } from '../kernel/encode-cache.js';

/** A JSON-RPC request id. */
export type JsonRpcId = string | number | null;
type Id = JsonRpcId;
const JSON_TYPE = 'application/json';

/** A request as the binding parsed it (the envelope is the same in every protocol version). */
export interface JsonRpcEnvelope {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/**
 * Another protocol version served at the same URL (§3.6.2 lets one URL answer in several): requests
 * that ask for it are handed over whole, after the envelope is read and before any method lookup.
 */
export interface JsonRpcOtherVersion {
  /** The Major.Minor it answers. */
  readonly version: string;
  handle(
    ex: HttpExchange,
    request: JsonRpcEnvelope,
    query: URLSearchParams | undefined,
    sent: string | undefined,
  ): Promise<void>;
}

/** The JSON-RPC binding of `service`, answering one exchange (node:http or Web) at a time. */
export function jsonRpcBinding(
  service: OperationDispatcher,
  opts: BindingOptions = {},
  other?: JsonRpcOtherVersion,
) {
  const served = other ? [PROTOCOL_VERSION, other.version] : [PROTOCOL_VERSION];
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxDepth = opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const logger = opts.logger ?? service.logger;

  const sendError = (
    ex: HttpExchange,
    id: Id,
    err: A2AError,
    cc?: CallContext,
    httpStatus = 200,
    allow?: string,
  ): void => {
    if (ex.answered) return ex.drop();
    const error = errorObject(err);
    const headers = answerHeaders(cc, JSON_TYPE);
    if (allow) headers.allow = allow;
    // Authentication and authorization are HTTP-level outcomes (§7.4, §7.5): 401 with a challenge, 403.
    if (err.kind === 'Unauthenticated') {
      httpStatus = 401;
      headers['www-authenticate'] = opts.challenge ?? 'Bearer';
    } else if (err.kind === 'PermissionDenied') {
      httpStatus = 403;
    }
    try {
      ex.reply(httpStatus, headers, JSON.stringify({ jsonrpc: '2.0', id, error }));
    } catch (e) {
      // Even the error could not be written (a header the agent set was invalid): drop the connection.
      logger.error({ err: e }, 'could not write a JSON-RPC error answer');
      ex.drop();
    }
  };

  return async function handleJsonRpc(ex: HttpExchange): Promise<void> {
    if (ex.method !== 'POST') {
      const err = new A2AError(
        'InvalidRequest',
        `JSON-RPC requests must be POSTed, not ${ex.method}`,
      );
      return sendError(ex, null, err, undefined, 405, 'POST');
    }
    // §9.1: JSON bodies. A missing Content-Type is tolerated (simple clients), a different one is not.
    const type = ex.header('content-type');
    if (type !== undefined && !isJsonContentType(type)) {
      const msg = `Unsupported content type "${type.slice(0, 80)}": send JSON-RPC requests as application/json`;
      return sendError(ex, null, new A2AError('InvalidRequest', msg), undefined, 415);
    }
    const encoding = unsupportedEncoding(ex.header('content-encoding'));
    if (encoding)
      return sendError(ex, null, new A2AError('InvalidRequest', encoding), undefined, 415);
    // A 1.0 request's caller is known from its headers: a stranger is refused before the body is read.
    if (requestedVersion(requestedVersionParam(ex, queryOf(ex.url))) === PROTOCOL_VERSION) {
      const early = authenticateEarly(ex, opts);
      const refusal = early instanceof Promise ? await early : early;
      if (refusal !== undefined) return sendError(ex, null, asA2AError(refusal, logger));
    }
    let body: string;
    try {
      body = await ex.readBody(limit);
    } catch (e) {
      if (e instanceof BodyTooLargeError)
        return sendError(ex, null, new A2AError('InvalidRequest', e.message), undefined, 413);
      return ex.drop();
    }
    if (jsonTooDeep(body, maxDepth))
      return sendError(ex, null, new A2AError('InvalidRequest', tooDeepMessage(maxDepth)));
    let msg: unknown;
    try {
      msg = JSON.parse(body);
    } catch {
      return sendError(
        ex,
        null,
        new A2AError('ParseError', 'Invalid JSON payload: the body is not valid JSON'),
      );
    }
    const envelope = checkEnvelope(msg);
    if (envelope instanceof A2AError) return sendError(ex, idOf(msg), envelope);
    const { id, method } = envelope;
    const query = queryOf(ex.url);
    const sent = requestedVersionParam(ex, query);
    if (sent !== PROTOCOL_VERSION) {
      const version = requestedVersion(sent);
      if (version !== PROTOCOL_VERSION) {
        if (other && version === other.version) return other.handle(ex, envelope, query, sent);
        return sendError(ex, id, versionNotSupported(sent, served));
      }
    }
    // Proto field names (`message_id`) are read as their JSON names; the usual request skips this.
    const params = mayHaveProtoNames(body) ? withJsonNames(envelope.params) : envelope.params;
    const op = OPERATIONS_BY_METHOD.get(method);
    if (!op) return sendError(ex, id, methodNotFound(method));
    if (
      params !== undefined &&
      (typeof params !== 'object' || params === null || Array.isArray(params))
    ) {
      return sendError(
        ex,
        id,
        A2AError.invalidParams([{ field: 'params', description: 'must be an object' }]),
      );
    }
    let cc: CallContext | undefined;
    let sse: SseWriter | undefined;
    try {
      const pending = contextOf(ex, opts, query, 'JSONRPC', sent);
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await service.call(op, params, cc);
        ex.reply(
          200,
          answerHeaders(cc, JSON_TYPE),
          answerBody(
            `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`,
            resultJson(op.name, result),
            '}',
            op.name === 'GetTask' ? result : undefined,
          ),
        );
        return;
      }
      const stream = await service.stream(op, params, cc, ex.header('last-event-id'));
      sse = new SseWriter(ex, { ...opts.sse, headers: answerHeaders(cc, 'text/event-stream') });
      const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
      const writer = sse;
      writer.onClose(() => stream.close());
      const error = (err: A2AError) =>
        writer.event(JSON.stringify({ jsonrpc: '2.0', id, error: errorObject(err) }));
      writer.onSlowReader(error);
      stream.open({
        event: (event: StreamResponse, eventId: string) => {
          const body = eventBody(event);
          if (typeof body === 'string') writer.event(`${prefix}${body}}`, eventId);
          else writer.eventBytes(prefix, body, '}', eventId);
        },
        error,
        idle: (why: string) => writer.comment(why),
        end: () => writer.end(),
      });
    } catch (err) {
      if (sse) return sse.end();
      sendError(ex, id, withV03Hint(asA2AError(err, logger), params), cc);
    }
  };
}

/** MethodNotFound, saying so when the name is a 0.3 one sent as 1.0 (usually a missing 0.3 header elsewhere). */
function methodNotFound(method: string): A2AError {
  const v10 = V03_METHODS[method];
  return new A2AError(
    'MethodNotFound',
    v10
      ? `Method not found: ${method} is the A2A 0.3 name of ${v10}; this request asked for A2A-Version ${PROTOCOL_VERSION}, where it is called ${v10}`
      : `Method not found: ${method.slice(0, 100)}`,
  );
}

/** The JSON-RPC `error` member of an A2A error, with its google.rpc details as `data`. */
function errorObject(err: A2AError): { code: number; message: string; data?: unknown[] } {
  const details = err.wireDetails();
  return details.length > 0
    ? { code: err.spec.jsonRpcCode, message: err.message, data: details }
    : { code: err.spec.jsonRpcCode, message: err.message };
}

function idOf(msg: unknown): Id {
  const id = (msg as { id?: unknown } | null)?.id;
  return (typeof id === 'string' && id.length <= MAX_ID_LENGTH) || typeof id === 'number'
    ? id
    : null;
}

/** §9.3 / JSON-RPC 2.0: a request object with jsonrpc "2.0", a string method, and a string/number/null id. */
function checkEnvelope(msg: unknown): { id: Id; method: string; params: unknown } | A2AError {
  if (Array.isArray(msg))
    return new A2AError(
      'InvalidRequest',
      'Batch requests are not supported: send one request object',
    );
  if (typeof msg !== 'object' || msg === null)
    return new A2AError('InvalidRequest', 'The request must be a JSON-RPC request object');
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0')
    return new A2AError('InvalidRequest', 'The request must have "jsonrpc": "2.0"');
  if (typeof m.method !== 'string' || m.method === '') {
    return new A2AError('InvalidRequest', 'The request must have a "method" string');
  }
  if (m.id !== undefined && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number') {
    return new A2AError('InvalidRequest', 'The request "id" must be a string, a number or null');
  }
  // The id is echoed in the answer and in every stream event: a megabyte id would be echoed with each.
  if (typeof m.id === 'string' && m.id.length > MAX_ID_LENGTH) {
    return new A2AError(
      'InvalidRequest',
      `The request "id" must be at most ${MAX_ID_LENGTH} characters`,
    );
  }
  return { id: m.id ?? null, method: m.method, params: m.params };
}
