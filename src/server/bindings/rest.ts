/**
 * HTTP+JSON binding (§11): every operation at its route from the operation table, with an optional
 * leading `/{tenant}` segment; request fields from the path, then the JSON body (POST) or the query
 * string (GET, DELETE, §11.5); answers in `application/a2a+json`, errors as google.rpc.Status
 * (§11.6), streams as SSE whose events are bare StreamResponse objects (§11.7).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, type FieldViolation, type StreamResponse } from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { answerHeaders, asA2AError, contextOf, type BindingOptions } from './common.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, isJsonContentType, queryOf, readBody } from './http-util.js';
import { jsonTypeFor, sendRestError, type RestErrorOptions } from './rest-errors.js';
import { matchRoute, queryParams } from './rest-routes.js';
import { SseWriter } from './sse.js';
import { resultJson } from '../tasks/json.js';
import { plainCopy } from '../util/plain-copy.js';


/** Why a body cannot be used, and the HTTP status to say so with when it is not the catalogue's. */
class BodyProblem {
  constructor(
    readonly error: A2AError,
    readonly status?: number,
  ) {}
}

/**
 * A node:http listener serving the HTTP+JSON binding of `service`. `subpath` is the request path
 * below the interface URL; without it the whole request path is used.
 */
export function restListener(service: OperationDispatcher, opts: BindingOptions = {}) {
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const logger = opts.logger ?? service.logger;

  const fail = (req: IncomingMessage, res: ServerResponse, err: A2AError, o: RestErrorOptions = {}): void => {
    try {
      sendRestError(req, res, err, { challenge: opts.challenge, ...o });
    } catch (e) {
      // Even the error could not be written (a header the agent set was invalid): drop the connection.
      logger.error({ err: e }, 'could not write an HTTP+JSON error answer');
      res.destroy();
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, subpath?: string): Promise<void> => {
    const url = req.url ?? '/';
    const query = queryOf(url);
    const verb = req.method ?? 'GET';
    const match = matchRoute(verb, subpath ?? pathOf(url));
    if (match.kind === 'none') {
      return fail(req, res, new A2AError('MethodNotFound', `No A2A operation is served at ${verb} ${pathOf(url).slice(0, 200)}`));
    }
    if (match.kind === 'wrong-verb') {
      const allow = match.allow.join(', ');
      const err = new A2AError('MethodNotFound', `${verb} is not allowed on ${match.template}; use ${allow}`);
      return fail(req, res, err, { httpStatus: 405, headers: { allow } });
    }
    if (match.kind === 'bad') return fail(req, res, match.error);
    const { op, params: pathParams, tenant } = match;

    let input: Record<string, unknown>;
    let cc: CallContext | undefined;
    try {
      if (verb === 'POST') {
        const body = await bodyOf(req, limit);
        if (body instanceof BodyProblem) return fail(req, res, body.error, body.status ? { httpStatus: body.status } : {});
        input = body;
      } else {
        input = queryParams(op, query);
      }
      const params = merge(input, pathParams, tenant);
      const pending = contextOf(req, res, opts, query, 'HTTP+JSON');
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await service.call(op, params, cc);
        const text = resultJson(op.name, result);
        const headers = answerHeaders(cc, jsonTypeFor(req));
        headers['content-length'] = String(Buffer.byteLength(text));
        res.writeHead(200, headers).end(text);
        return;
      }
      const lastEventId = req.headers['last-event-id'];
      const stream = await service.stream(op, params, cc, typeof lastEventId === 'string' ? lastEventId : undefined);
      const sse = new SseWriter(res, { ...opts.sse, headers: answerHeaders(cc, 'text/event-stream') });
      sse.onClose(() => stream.close());
      stream.open({
        event: (event: StreamResponse, eventId: string) => sse.event(JSON.stringify(event), eventId),
        end: () => sse.end(),
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'BodyReadError') return void res.destroy();
      fail(req, res, asA2AError(err, logger), { cc });
    }
  };

  return function handleRest(req: IncomingMessage, res: ServerResponse, subpath?: string): Promise<void> {
    // The caller does not await us (a node listener cannot): nothing may escape as a rejection.
    return handle(req, res, subpath).catch((err: unknown) => {
      logger.error({ err }, 'HTTP+JSON request failed unexpectedly');
      if (!res.headersSent) fail(req, res, new A2AError('Internal'));
      else res.destroy();
    });
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

/**
 * The JSON object in a POST body, or the error to answer with. An absent or empty body is `{}`
 * (cancel and subscribe need nothing beyond the path). The media type is checked before reading.
 */
async function bodyOf(req: IncomingMessage, limit: number): Promise<Record<string, unknown> | BodyProblem> {
  const declared = req.headers['content-length'];
  const announced = req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  if (announced) {
    const bad = checkContentType(req.headers['content-type']);
    if (bad) return bad;
  }
  let buf: Buffer;
  try {
    buf = await readBody(req, limit);
  } catch (e) {
    if (e instanceof BodyTooLargeError) return new BodyProblem(new A2AError('InvalidRequest', e.message), 413);
    const gone = new Error('the client went away while sending the body');
    gone.name = 'BodyReadError';
    throw gone;
  }
  if (buf.length === 0) return {};
  if (!announced) {
    const bad = checkContentType(req.headers['content-type']);
    if (bad) return bad;
  }
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch {
    return new BodyProblem(new A2AError('ParseError', 'Invalid JSON payload: the body is not valid JSON'));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new BodyProblem(A2AError.invalidParams([{ field: '(body)', description: 'must be a JSON object' }]));
  }
  return value as Record<string, unknown>;
}

/** 415 unless the body is JSON (`application/json` or `application/a2a+json`, UTF-8). */
function checkContentType(header: string | undefined): BodyProblem | undefined {
  if (isJsonContentType(header)) return undefined;
  const got = header ? `"${header.slice(0, 80)}"` : 'none';
  const message = `Unsupported content type ${got}: send the body as application/a2a+json (or application/json) in UTF-8`;
  return new BodyProblem(new A2AError('InvalidRequest', message), 415);
}


/** Path fields win, but a body or query value that contradicts them is an error, not silently replaced. */
function merge(input: Record<string, unknown>, path: Record<string, string>, tenant: string | undefined): Record<string, unknown> {
  if (tenant === undefined && isEmpty(path)) return input;
  const violations: FieldViolation[] = [];
  const out = plainCopy(input);
  const pin = (field: string, value: string, where: string): void => {
    if (out[field] !== undefined && out[field] !== value) {
      violations.push({ field, description: `is "${String(out[field]).slice(0, 80)}" but the ${where} says "${value.slice(0, 80)}"` });
    }
    out[field] = value;
  };
  for (const [k, v] of Object.entries(path)) pin(k, v, `path segment {${k}}`);
  if (tenant !== undefined) pin('tenant', tenant, 'tenant path segment');
  if (violations.length > 0) throw A2AError.invalidParams(violations);
  return out;
}

function isEmpty(o: Record<string, string>): boolean {
  for (const _ in o) return false;
  return true;
}
