/**
 * The HTTP+JSON route table (§5.3, §11.3), compiled once from the operation table: each path
 * template with the operation behind each verb, with and without a leading `/{tenant}` segment.
 * Also the typed query parameters of GET/DELETE operations (§11.5).
 */
import {
  A2AError,
  OPERATIONS,
  protoName,
  type FieldViolation,
  type HttpVerb,
  type Operation,
  type OperationName,
} from '../../protocol/index.js';

interface Segment {
  /** A fixed segment (`tasks`). */
  literal?: string;
  /** A path parameter (`{id}`), optionally followed by a custom verb (`:cancel`). */
  param?: string;
  suffix?: string;
}

interface CompiledRoute {
  template: string;
  segments: Segment[];
  /** Literal characters in the template: the more, the more specific (`{id}:cancel` beats `{id}`). */
  weight: number;
  byVerb: Map<string, Operation>;
}

export type RouteMatch =
  | { kind: 'found'; op: Operation; params: Record<string, string>; tenant?: string }
  | { kind: 'wrong-verb'; allow: string[]; template: string }
  | { kind: 'none' }
  | { kind: 'bad'; error: A2AError };

function compile(): CompiledRoute[] {
  const byTemplate = new Map<string, CompiledRoute>();
  for (const op of OPERATIONS) {
    let route = byTemplate.get(op.rest.path);
    if (!route) {
      const segments = op.rest.path
        .split('/')
        .slice(1)
        .map((s): Segment => {
          const m = /^\{(\w+)\}(.*)$/.exec(s);
          return m ? { param: m[1]!, ...(m[2] ? { suffix: m[2] } : {}) } : { literal: s };
        });
      const weight = segments.reduce(
        (n, s) => n + (s.literal?.length ?? 0) + (s.suffix?.length ?? 0),
        0,
      );
      route = { template: op.rest.path, segments, weight, byVerb: new Map() };
      byTemplate.set(op.rest.path, route);
    }
    for (const verb of op.rest.verbs) route.byVerb.set(verb, op);
  }
  return [...byTemplate.values()].sort((a, b) => b.weight - a.weight);
}

const ROUTES = compile();

/** Raw (still percent-encoded) parameter values when `segments` fit the route. */
function fit(route: CompiledRoute, segments: string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const raw: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const want = route.segments[i]!;
    const got = segments[i]!;
    if (want.literal !== undefined) {
      if (got !== want.literal) return undefined;
    } else if (want.suffix) {
      if (!got.endsWith(want.suffix)) return undefined;
      raw[want.param!] = got.slice(0, -want.suffix.length);
    } else {
      raw[want.param!] = got;
    }
  }
  return raw;
}

// C0 controls and DEL: never part of an id a client meant to send.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Percent-decode a path value, refusing malformed encodings, control characters and empty values. */
function decode(name: string, raw: string): string | FieldViolation {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return { field: name, description: 'is not valid percent-encoded UTF-8' };
  }
  if (value === '') return { field: name, description: 'must not be empty' };
  if (CONTROL.test(value))
    return { field: name, description: 'must not contain control characters' };
  return value;
}

function resolve(
  route: CompiledRoute,
  raw: Record<string, string>,
  verb: string,
  rawTenant?: string,
): RouteMatch {
  const op = route.byVerb.get(verb);
  if (!op) return { kind: 'wrong-verb', allow: [...route.byVerb.keys()], template: route.template };
  const violations: FieldViolation[] = [];
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const d = decode(name, value);
    if (typeof d === 'string') params[name] = d;
    else violations.push(d);
  }
  let tenant: string | undefined;
  if (rawTenant !== undefined) {
    const d = decode('tenant', rawTenant);
    if (typeof d === 'string') tenant = d;
    else violations.push(d);
  }
  if (violations.length > 0) return { kind: 'bad', error: A2AError.invalidParams(violations) };
  return { kind: 'found', op, params, ...(tenant !== undefined ? { tenant } : {}) };
}

/**
 * Find the operation for `verb` on `subpath` (the path below the interface URL). A path is read
 * without a tenant first, then with its first segment as the tenant; where both readings name an
 * operation (`GET /tasks/tasks`: task "tasks", or tenant "tasks" listing), the one without wins.
 */
export function matchRoute(verb: string, subpath: string): RouteMatch {
  const fixed = FIXED.get(`${verb} ${subpath}`);
  return fixed ? { kind: 'found', op: fixed, params: {} } : matchPath(verb, subpath);
}

function matchPath(verb: string, subpath: string): RouteMatch {
  if (!subpath.startsWith('/')) return { kind: 'none' };
  const segments = subpath.split('/').slice(1);
  let plain: RouteMatch = { kind: 'none' };
  for (const route of ROUTES) {
    const raw = fit(route, segments);
    if (raw) {
      plain = resolve(route, raw, verb);
      break;
    }
  }
  if (plain.kind === 'found' || plain.kind === 'bad' || segments.length < 2) return plain;
  const rest = segments.slice(1);
  for (const route of ROUTES) {
    const raw = fit(route, rest);
    // A wrong verb without a tenant may still be a right one with a tenant (`POST /tasks/message:send`).
    if (raw) {
      const withTenant = resolve(route, raw, verb, segments[0]);
      return plain.kind === 'wrong-verb' && withTenant.kind !== 'found' ? plain : withTenant;
    }
  }
  return plain;
}

/**
 * The operation behind `VERB /path` for every route made of fixed segments only (`POST /message:send`,
 * `GET /tasks`…), as the general matcher resolves it: the usual calls skip splitting and walking the table.
 */
const FIXED = new Map<string, Operation>(
  ROUTES.filter((r) => r.segments.every((s) => s.literal !== undefined)).flatMap((r) =>
    [...r.byVerb.keys()].flatMap((verb): Array<[string, Operation]> => {
      const m = matchPath(verb, r.template);
      return m.kind === 'found' && m.tenant === undefined ? [[`${verb} ${r.template}`, m.op]] : [];
    }),
  ),
);

type QueryType = 'string' | 'int' | 'bool';

/** §11.5: request fields of body-less operations that may travel as query parameters, with their types. */
const QUERY_FIELDS: Partial<Record<OperationName, Record<string, QueryType>>> = {
  GetTask: { historyLength: 'int' },
  ListTasks: {
    contextId: 'string',
    status: 'string',
    pageSize: 'int',
    pageToken: 'string',
    historyLength: 'int',
    statusTimestampAfter: 'string',
    includeArtifacts: 'bool',
  },
  ListTaskPushNotificationConfigs: { pageSize: 'int', pageToken: 'string' },
};

const INT = /^-?\d{1,15}$/;

/**
 * The request fields an operation reads from the query string, typed strictly: integers as decimal
 * digits, booleans as `true`/`false`, each at most once. Unknown parameters are ignored (§5.7).
 */
export function queryParams(
  op: Operation,
  query: URLSearchParams | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!query) return out;
  const fields: Record<string, QueryType> = { tenant: 'string', ...QUERY_FIELDS[op.name] };
  const violations: FieldViolation[] = [];
  for (const [name, type] of Object.entries(fields)) {
    // The proto name (`history_length`) is read like the JSON name (`historyLength`).
    const snake = protoName(name);
    const values =
      snake === name ? query.getAll(name) : [...query.getAll(name), ...query.getAll(snake)];
    if (values.length === 0) continue;
    if (values.length > 1) {
      violations.push({ field: name, description: 'must be given at most once' });
      continue;
    }
    const v = values[0]!;
    if (type === 'string') out[name] = v;
    else if (type === 'int') {
      if (INT.test(v)) out[name] = Number(v);
      else
        violations.push({
          field: name,
          description: `must be a decimal integer (at most 15 digits), got "${clip(v)}"`,
        });
    } else if (v === 'true' || v === 'false') out[name] = v === 'true';
    else violations.push({ field: name, description: `must be true or false, got "${clip(v)}"` });
  }
  if (violations.length > 0) throw A2AError.invalidParams(violations);
  return out;
}

const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Every route with its verbs, for documentation and tests: `[verb, path, operation]`. */
export function restRouteTable(): Array<[HttpVerb, string, OperationName]> {
  return OPERATIONS.flatMap((o) =>
    o.rest.verbs.map((v): [HttpVerb, string, OperationName] => [v, o.rest.path, o.name]),
  );
}
