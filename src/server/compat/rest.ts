/**
 * A2A 0.3 over HTTP+JSON, at the URL of the 1.0 HTTP+JSON interface: the 1.0 binding hands over every
 * request that asks for 0.3 (or for no version). Routes below `/v1`; bodies in the 0.3 proto's JSON
 * form, which is what 0.3 SDKs send and parse (the JSON-RPC form is accepted on input too); errors as
 * a bare `{code, message, data?}`; stream events as bare proto StreamResponses, errors as `error` events.
 */
import {
  A2AError,
  OPERATIONS_BY_NAME,
  type AgentCard,
  type OperationName,
} from '../../protocol/index.js';
import {
  ROUTES_V03,
  V03,
  errorToV03,
  eventToV03,
  proto03,
  type Event03,
  type Task03,
  type TaskPushNotificationConfig03,
} from '../../protocol/v03/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { answerHeaders, type BindingOptions } from '../bindings/common.js';
import { asA2AError } from '../kernel/errors.js';
import { BodyReadError, BodyTooLargeError, type HttpExchange } from '../bindings/exchange.js';
import { isJsonContentType } from '../bindings/http-util.js';
import { DEFAULT_MAX_BODY_BYTES } from '../kernel/limits.js';
import type { RestOtherVersion } from '../bindings/rest.js';
import { matchRoute } from '../bindings/rest-routes.js';
import { requestFromV03, resultToV03 } from './calls.js';
import type { V03Registrations } from './registrations.js';
import { V03_EXTENSIONS_HEADER, contextOfV03, whyV03 } from './context.js';
import type { V03CardWriter } from './jsonrpc.js';
import { callV03, streamV03 } from './run.js';

const JSON_TYPE = 'application/json';

interface Route {
  op: OperationName;
  verbs: string[];
  pattern: RegExp;
  names: string[];
}

// Longest literal first, so `/v1/tasks/{id}:cancel` is tried before `/v1/tasks/{id}`.
const ROUTES: Route[] = (
  Object.entries(ROUTES_V03) as Array<[OperationName, { verbs: string[]; path: string }]>
)
  .map(([op, r]) => {
    const names: string[] = [];
    // The paths hold only letters, `/`, `:` and `{name}`: nothing else needs escaping.
    const source = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+?)';
    });
    return {
      op,
      verbs: r.verbs,
      pattern: new RegExp(`^${source}$`),
      names,
      weight: r.path.replace(/\{\w+\}/g, '').length,
    };
  })
  .sort((a, b) => b.weight - a.weight);

type Match = { route: Route; params: Record<string, string> } | { allow: string[] } | undefined;

function match(verb: string, path: string): Match {
  let allow: string[] | undefined;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (!route.verbs.includes(verb)) {
      allow ??= route.verbs;
      continue;
    }
    const params: Record<string, string> = {};
    for (const [i, n] of route.names.entries()) {
      try {
        params[n] = decodeURIComponent(m[i + 1]!);
      } catch {
        throw A2AError.invalidParams([
          { field: n, description: 'is not valid percent-encoded UTF-8' },
        ]);
      }
    }
    return { route, params };
  }
  return allow ? { allow } : undefined;
}

function intParam(query: URLSearchParams | undefined, name: string): number | undefined {
  const v = query?.get(name) ?? query?.get(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  if (v === null || v === undefined || v === '') return undefined;
  if (!/^-?\d{1,15}$/.test(v))
    throw A2AError.invalidParams([
      { field: name, description: `must be a decimal integer, got "${v.slice(0, 20)}"` },
    ]);
  return Number(v);
}

/** The 0.3 request params of a route (JSON-RPC form), from its path, query and proto-JSON body. */
function paramsOf(
  op: OperationName,
  path: Record<string, string>,
  query: URLSearchParams | undefined,
  body: unknown,
): unknown {
  switch (op) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return proto03.sendParamsFromProto(body);
    case 'GetTask': {
      const historyLength = intParam(query, 'historyLength');
      return { id: path.id, ...(historyLength !== undefined ? { historyLength } : {}) };
    }
    case 'CreateTaskPushNotificationConfig': {
      const { taskId, pushNotificationConfig } = proto03.taskPushConfigFromProto(body);
      if (taskId !== undefined && taskId !== path.id) {
        throw A2AError.invalidParams([
          {
            field: 'name',
            description: `names task "${taskId.slice(0, 80)}" but the path says "${path.id!.slice(0, 80)}"`,
          },
        ]);
      }
      return { taskId: path.id, pushNotificationConfig };
    }
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { id: path.id, pushNotificationConfigId: path.configId };
    default:
      return { id: path.id };
  }
}

/** The proto-JSON answer of a route for its 1.0 result. */
function answerOf(op: OperationName, result: unknown): unknown {
  const v03 = resultToV03(op, result);
  switch (op) {
    case 'SendMessage':
      return proto03.eventToProto(v03 as Event03);
    case 'GetTask':
    case 'CancelTask':
      return proto03.taskToProto(v03 as Task03);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return proto03.taskPushConfigToProto(v03 as TaskPushNotificationConfig03);
    case 'ListTaskPushNotificationConfigs':
      return {
        configs: (v03 as TaskPushNotificationConfig03[]).map(proto03.taskPushConfigToProto),
        nextPageToken: '',
      };
    default:
      return v03;
  }
}

/** The 0.3 HTTP+JSON handler for the 1.0 binding at the same URL. */
export function restV03(
  service: OperationDispatcher,
  opts: BindingOptions,
  extendedCard: V03CardWriter,
  registrations: V03Registrations,
): RestOtherVersion {
  const logger = opts.logger ?? service.logger;
  const run = { service, opts, registrations };
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const fail = (
    ex: HttpExchange,
    err: A2AError,
    cc?: CallContext,
    status = err.spec.httpStatus,
    extra: Record<string, string> = {},
  ): void => {
    if (ex.answered) return ex.drop();
    const headers = { ...answerHeaders(cc, JSON_TYPE, V03_EXTENSIONS_HEADER), ...extra };
    if (err.kind === 'Unauthenticated') headers['www-authenticate'] = opts.challenge ?? 'Bearer';
    try {
      ex.reply(status, headers, JSON.stringify(errorToV03(err)));
    } catch (e) {
      logger.error({ err: e }, 'could not write a 0.3 HTTP+JSON error answer');
      ex.drop();
    }
  };

  const readJson = async (ex: HttpExchange): Promise<unknown> => {
    const type = ex.header('content-type');
    let text: string;
    try {
      text = await ex.readBody(limit);
    } catch (e) {
      if (e instanceof BodyTooLargeError) throw new A2AError('InvalidRequest', e.message);
      throw new BodyReadError();
    }
    if (text.trim() === '' || text.trim() === 'null') return {}; // some 0.3 clients POST `null` for "no body"
    if (type !== undefined && !isJsonContentType(type))
      throw new A2AError(
        'InvalidRequest',
        `Unsupported content type "${type.slice(0, 80)}": send application/json`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new A2AError('ParseError', 'Invalid JSON payload: the body is not valid JSON');
    }
  };

  const handle = async (
    ex: HttpExchange,
    subpath: string,
    query: URLSearchParams | undefined,
    sent: string | undefined,
  ): Promise<void> => {
    const why = whyV03(sent);
    let found: Match;
    try {
      found = match(ex.method, subpath);
    } catch (err) {
      return fail(ex, asA2AError(err, logger));
    }
    if (!found) {
      const v10 = matchRoute(ex.method, subpath).kind === 'found';
      const msg = v10
        ? `${ex.method} ${subpath.slice(0, 100)} is an A2A 1.0 route; this request was read as A2A 0.3 ${why}, whose routes start with /v1. Send A2A-Version: 1.0 to use it`
        : `No A2A 0.3 operation is served at ${ex.method} ${subpath.slice(0, 100)} (read as 0.3 ${why})`;
      return fail(ex, new A2AError('MethodNotFound', msg));
    }
    if ('allow' in found) {
      return fail(
        ex,
        new A2AError(
          'MethodNotFound',
          `${ex.method} is not allowed here; use ${found.allow.join(', ')}`,
        ),
        undefined,
        405,
        { allow: found.allow.join(', ') },
      );
    }
    const { op: name } = found.route;
    const op = OPERATIONS_BY_NAME[name];
    let cc: CallContext | undefined;
    try {
      const body = ex.method === 'POST' ? await readJson(ex) : undefined;
      const v10 = requestFromV03(name, paramsOf(name, found.params, query, body), why);
      const pending = contextOfV03(ex, opts, query, 'HTTP+JSON');
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await callV03(run, name, v10, cc);
        const headers = answerHeaders(cc, JSON_TYPE, V03_EXTENSIONS_HEADER);
        if (name === 'DeleteTaskPushNotificationConfig') return ex.reply(204, headers);
        const answer =
          name === 'GetExtendedAgentCard'
            ? await extendedCard(result as AgentCard)
            : answerOf(name, result);
        ex.reply(200, headers, JSON.stringify(answer));
        return;
      }
      await streamV03(run, ex, name, v10, cc, {
        event: (event) => JSON.stringify(proto03.eventToProto(eventToV03(event))),
        error: (err, writer) => writer.event(JSON.stringify(errorToV03(err)), undefined, 'error'),
      });
    } catch (err) {
      if (err instanceof BodyReadError) return ex.drop();
      fail(ex, asA2AError(err, logger), cc);
    }
  };

  return {
    version: V03,
    handle: (ex, subpath, query, sent) =>
      handle(ex, subpath, query, sent).catch((err: unknown) => {
        logger.error({ err }, 'A2A 0.3 HTTP+JSON request failed unexpectedly');
        if (!ex.answered) fail(ex, new A2AError('Internal'));
        else ex.drop();
      }),
  };
}
