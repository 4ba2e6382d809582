/**
 * HTTP+JSON binding (§11): every operation at its route from the operation table, with an optional
 * leading `/{tenant}` segment; request fields from the path, then the JSON body (POST) or the query
 * string (GET, DELETE, §11.5); answers in `application/a2a+json`, errors as google.rpc.Status
 * (§11.6), streams as SSE whose events are bare StreamResponse objects (§11.7).
 */
import {
  A2AError,
  PROTOCOL_VERSION,
  mayHaveProtoNames,
  requestedVersion,
  withJsonNames,
  type FieldViolation,
  type StreamResponse,
} from '../../protocol/index.js';
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
import { BodyReadError, BodyTooLargeError, type HttpExchange } from './exchange.js';
import {
  isJsonContentType,
  jsonTooDeep,
  pathOf,
  queryOf,
  requestedVersionParam,
  tooDeepMessage,
  unsupportedEncoding,
} from './http-util.js';
import { jsonTypeFor, sendRestError, statusBody, type RestErrorOptions } from './rest-errors.js';
import { matchRoute, queryParams } from './rest-routes.js';
import { SseWriter } from './sse.js';
import { resultJson } from '../tasks/json.js';
import { answerBody, eventBody } from '../kernel/encode-cache.js';
import { plainCopy } from '../util/plain-copy.js';

/** Why a body cannot be used, and the HTTP status to say so with when it is not the catalogue's. */
class BodyProblem {
  constructor(
    readonly error: A2AError,
    readonly status?: number,
  ) {}
}

/**
 * Another protocol version served at the same URL (§3.6.2): requests that ask for it are handed over
 * before any route is matched, since routes differ between versions (0.3's live below `/v1`).
 */
export interface RestOtherVersion {
  /** The Major.Minor it answers. */
  readonly version: string;
  handle(
    ex: HttpExchange,
    subpath: string,
    query: URLSearchParams | undefined,
    sent: string | undefined,
  ): Promise<void>;
}

/**
 * The HTTP+JSON binding of `service`, answering one exchange (node:http or Web) at a time.
 * `subpath` is the request path below the interface URL; without it the whole request path is used.
 */
export function restBinding(
  service: OperationDispatcher,
  opts: BindingOptions = {},
  other?: RestOtherVersion,
) {
  const served = other ? [PROTOCOL_VERSION, other.version] : [PROTOCOL_VERSION];
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxDepth = opts.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const logger = opts.logger ?? service.logger;

  const fail = (ex: HttpExchange, err: A2AError, o: RestErrorOptions = {}): void => {
    try {
      sendRestError(ex, err, { challenge: opts.challenge, ...o });
    } catch (e) {
      // Even the error could not be written (a header the agent set was invalid): drop the connection.
      logger.error({ err: e }, 'could not write an HTTP+JSON error answer');
      ex.drop();
    }
  };

  const handle = async (ex: HttpExchange, subpath?: string): Promise<void> => {
    const url = ex.url;
    const query = queryOf(url);
    // §3.6.2: the version comes first; which routes exist, and what they mean, depends on it.
    const sent = requestedVersionParam(ex, query);
    if (sent !== PROTOCOL_VERSION) {
      const version = requestedVersion(sent);
      if (version !== PROTOCOL_VERSION) {
        if (other && version === other.version)
          return other.handle(ex, subpath ?? pathOf(url), query, sent);
        return fail(ex, versionNotSupported(sent, served));
      }
    }
    const verb = ex.method;
    const match = matchRoute(verb, subpath ?? pathOf(url));
    if (match.kind === 'none') {
      return fail(
        ex,
        new A2AError(
          'MethodNotFound',
          `No A2A operation is served at ${verb} ${pathOf(url).slice(0, 200)}`,
        ),
      );
    }
    if (match.kind === 'wrong-verb') {
      const allow = match.allow.join(', ');
      const err = new A2AError(
        'MethodNotFound',
        `${verb} is not allowed on ${match.template}; use ${allow}`,
      );
      return fail(ex, err, { httpStatus: 405, headers: { allow } });
    }
    if (match.kind === 'bad') return fail(ex, match.error);
    const { op, params: pathParams, tenant } = match;
    // The caller is known from the headers: a stranger is refused before the body is read.
    if (verb === 'POST') {
      const early = authenticateEarly(ex, opts);
      const refusal = early instanceof Promise ? await early : early;
      if (refusal !== undefined) return fail(ex, asA2AError(refusal, logger));
    }

    let input: Record<string, unknown> | undefined;
    let cc: CallContext | undefined;
    let sse: SseWriter | undefined;
    try {
      if (verb === 'POST') {
        const body = await bodyOf(ex, limit, maxDepth);
        if (body instanceof BodyProblem)
          return fail(ex, body.error, body.status ? { httpStatus: body.status } : {});
        input = body;
      } else {
        input = queryParams(op, query);
      }
      const params = merge(input, pathParams, tenant);
      const pending = contextOf(ex, opts, query, 'HTTP+JSON', sent);
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await service.call(op, params, cc);
        ex.reply(
          200,
          answerHeaders(cc, jsonTypeFor(ex.header('accept'))),
          answerBody(
            '',
            resultJson(op.name, result),
            '',
            op.name === 'GetTask' ? result : undefined,
          ),
        );
        return;
      }
      const stream = await service.stream(op, params, cc, ex.header('last-event-id'));
      sse = new SseWriter(ex, { ...opts.sse, headers: answerHeaders(cc, 'text/event-stream') });
      const writer = sse;
      writer.onClose(() => stream.close());
      const error = (err: A2AError) => writer.event(JSON.stringify(statusBody(err)));
      writer.onSlowReader(error);
      stream.open({
        event: (event: StreamResponse, eventId: string) => {
          const body = eventBody(event);
          if (typeof body === 'string') writer.event(body, eventId);
          else writer.eventBytes('', body, '', eventId);
        },
        error,
        idle: (why: string) => writer.comment(why),
        end: () => writer.end(),
      });
    } catch (err) {
      if (err instanceof BodyReadError) return ex.drop();
      if (sse) return sse.end();
      fail(ex, withV03Hint(asA2AError(err, logger), input), { cc });
    }
  };

  return function handleRest(ex: HttpExchange, subpath?: string): Promise<void> {
    // The caller does not await us (a node listener cannot): nothing may escape as a rejection.
    return handle(ex, subpath).catch((err: unknown) => {
      logger.error({ err }, 'HTTP+JSON request failed unexpectedly');
      if (!ex.answered) fail(ex, new A2AError('Internal'));
      else ex.drop();
    });
  };
}

/**
 * The JSON object in a POST body, or the error to answer with. An absent or empty body is `{}`
 * (cancel and subscribe need nothing beyond the path). The media type is checked before reading.
 */
async function bodyOf(
  ex: HttpExchange,
  limit: number,
  maxDepth: number,
): Promise<Record<string, unknown> | BodyProblem> {
  const encoding = unsupportedEncoding(ex.header('content-encoding'));
  if (encoding) return new BodyProblem(new A2AError('InvalidRequest', encoding), 415);
  const declared = ex.header('content-length');
  const announced =
    ex.header('transfer-encoding') !== undefined || (declared !== undefined && declared !== '0');
  if (announced) {
    const bad = checkContentType(ex.header('content-type'));
    if (bad) return bad;
  }
  let text: string;
  try {
    text = await ex.readBody(limit);
  } catch (e) {
    if (e instanceof BodyTooLargeError)
      return new BodyProblem(new A2AError('InvalidRequest', e.message), 413);
    throw new BodyReadError();
  }
  if (text.length === 0) return {};
  if (!announced) {
    const bad = checkContentType(ex.header('content-type'));
    if (bad) return bad;
  }
  if (jsonTooDeep(text, maxDepth))
    return new BodyProblem(new A2AError('InvalidRequest', tooDeepMessage(maxDepth)));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new BodyProblem(
      new A2AError('ParseError', 'Invalid JSON payload: the body is not valid JSON'),
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new BodyProblem(
      A2AError.invalidParams([{ field: '(body)', description: 'must be a JSON object' }]),
    );
  }
  // Proto field names (`message_id`) are read as their JSON names; the usual request skips this.
  return (mayHaveProtoNames(text) ? withJsonNames(value) : value) as Record<string, unknown>;
}

/** 415 unless the body is JSON (`application/json` or `application/a2a+json`, UTF-8). */
function checkContentType(header: string | undefined): BodyProblem | undefined {
  if (isJsonContentType(header)) return undefined;
  const got = header ? `"${header.slice(0, 80)}"` : 'none';
  const message = `Unsupported content type ${got}: send the body as application/a2a+json (or application/json) in UTF-8`;
  return new BodyProblem(new A2AError('InvalidRequest', message), 415);
}

/** Path fields win, but a body or query value that contradicts them is an error, not silently replaced. */
function merge(
  input: Record<string, unknown>,
  path: Record<string, string>,
  tenant: string | undefined,
): Record<string, unknown> {
  if (tenant === undefined && isEmpty(path)) return input;
  const violations: FieldViolation[] = [];
  const out = plainCopy(input);
  const pin = (field: string, value: string, where: string): void => {
    if (out[field] !== undefined && out[field] !== value) {
      violations.push({
        field,
        description: `is "${String(out[field]).slice(0, 80)}" but the ${where} says "${value.slice(0, 80)}"`,
      });
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
