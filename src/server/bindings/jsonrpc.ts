/**
 * JSON-RPC 2.0 binding (§9): one POST endpoint, PascalCase methods from the operation table,
 * errors with HTTP 200 (except HTTP-level ones: 401, 405, 413, 415), streams as SSE where every
 * event is a JSON-RPC response carrying the request id.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, OPERATIONS_BY_METHOD, type StreamResponse } from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { answerHeaders, asA2AError, contextOf, type BindingOptions } from './common.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, isJsonContentType, queryOf, readBody } from './http-util.js';
import { SseWriter } from './sse.js';
import { resultJson } from '../tasks/json.js';

type Id = string | number | null;
const JSON_TYPE = 'application/json';

/** A node:http listener serving the JSON-RPC binding of `service`. */
export function jsonRpcListener(service: OperationDispatcher, opts: BindingOptions = {}) {
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const logger = opts.logger ?? service.logger;

  const sendError = (res: ServerResponse, id: Id, err: A2AError, cc?: CallContext, httpStatus = 200): void => {
    const details = err.wireDetails();
    const error = details.length > 0
      ? { code: err.spec.jsonRpcCode, message: err.message, data: details }
      : { code: err.spec.jsonRpcCode, message: err.message };
    const headers = answerHeaders(cc, JSON_TYPE);
    // Authentication and authorization are HTTP-level outcomes (§7.4, §7.5): 401 with a challenge, 403.
    if (err.kind === 'Unauthenticated') {
      httpStatus = 401;
      headers['www-authenticate'] = opts.challenge ?? 'Bearer';
    } else if (err.kind === 'PermissionDenied') {
      httpStatus = 403;
    }
    res.writeHead(httpStatus, headers).end(JSON.stringify({ jsonrpc: '2.0', id, error }));
  };

  return async function handleJsonRpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendError(res, null, new A2AError('InvalidRequest', `JSON-RPC requests must be POSTed, not ${req.method}`), undefined, 405);
    }
    // §9.1: JSON bodies. A missing Content-Type is tolerated (simple clients), a different one is not.
    const type = req.headers['content-type'];
    if (type !== undefined && !isJsonContentType(type)) {
      const msg = `Unsupported content type "${type.slice(0, 80)}": send JSON-RPC requests as application/json`;
      return sendError(res, null, new A2AError('InvalidRequest', msg), undefined, 415);
    }
    let body: Buffer;
    try {
      body = await readBody(req, limit);
    } catch (e) {
      if (e instanceof BodyTooLargeError) return sendError(res, null, new A2AError('InvalidRequest', e.message), undefined, 413);
      return void res.destroy();
    }
    let msg: unknown;
    try {
      msg = JSON.parse(body.toString('utf8'));
    } catch {
      return sendError(res, null, new A2AError('ParseError', 'Invalid JSON payload: the body is not valid JSON'));
    }
    const envelope = checkEnvelope(msg);
    if (envelope instanceof A2AError) return sendError(res, idOf(msg), envelope);
    const { id, method, params } = envelope;
    const op = OPERATIONS_BY_METHOD.get(method);
    if (!op) return sendError(res, id, new A2AError('MethodNotFound', `Method not found: ${method}`));
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      return sendError(res, id, A2AError.invalidParams([{ field: 'params', description: 'must be an object' }]));
    }
    let cc: CallContext | undefined;
    try {
      const pending = contextOf(req, res, opts, queryOf(req.url), 'JSONRPC');
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await service.call(op, params, cc);
        const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson(op.name, result)}}`;
        // With a length the head and body go out in one write, not as a chunked stream.
        const headers = answerHeaders(cc, JSON_TYPE);
        headers['content-length'] = String(Buffer.byteLength(text));
        res.writeHead(200, headers).end(text);
        return;
      }
      const lastEventId = req.headers['last-event-id'];
      const stream = await service.stream(op, params, cc, typeof lastEventId === 'string' ? lastEventId : undefined);
      const sse = new SseWriter(res, { ...opts.sse, headers: answerHeaders(cc, 'text/event-stream') });
      const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
      sse.onClose(() => stream.close());
      stream.open({
        event: (event: StreamResponse, eventId: string) => sse.event(`${prefix}${JSON.stringify(event)}}`, eventId),
        end: () => sse.end(),
      });
    } catch (err) {
      if (res.headersSent) return void res.end();
      sendError(res, id, asA2AError(err, logger), cc);
    }
  };
}

function idOf(msg: unknown): Id {
  const id = (msg as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** §9.3 / JSON-RPC 2.0: a request object with jsonrpc "2.0", a string method, and a string/number/null id. */
function checkEnvelope(msg: unknown): { id: Id; method: string; params: unknown } | A2AError {
  if (Array.isArray(msg)) return new A2AError('InvalidRequest', 'Batch requests are not supported: send one request object');
  if (typeof msg !== 'object' || msg === null) return new A2AError('InvalidRequest', 'The request must be a JSON-RPC request object');
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return new A2AError('InvalidRequest', 'The request must have "jsonrpc": "2.0"');
  if (typeof m.method !== 'string' || m.method === '') {
    return new A2AError('InvalidRequest', 'The request must have a "method" string');
  }
  if (m.id !== undefined && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number') {
    return new A2AError('InvalidRequest', 'The request "id" must be a string, a number or null');
  }
  return { id: (m.id as Id | undefined) ?? null, method: m.method, params: m.params };
}
