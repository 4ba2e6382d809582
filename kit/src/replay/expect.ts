import { getPath, parseJsonPath } from './jsonpath.js';
import type { Check, Expectation, Json, RecordedResponse, Subject } from './types.js';

const OPS = [
  '==',
  '!=',
  '<=',
  '>=',
  '<',
  '>',
  'in',
  'contains',
  'matches',
  'exists',
  'absent',
] as const;
type Op = (typeof OPS)[number];

/**
 * Parses the text after `@expect` (or `@retry-until`) into a typed predicate.
 * Grammar: `status [op] N` · `header NAME op [value]` · `body $.path op [value]` ·
 * `events count [op] N`. Values are JSON literals; header values may also be bare text.
 * Throws an Error with a readable message on bad syntax.
 */
export function parseExpectation(source: string, line: number): Expectation {
  const text = source.trim();
  // A value may reference variables (`== "{{taskId}}"`); it is checked here with a stand-in
  // and bound for real, via bindExpectation, just before evaluation.
  const dynamic = text.includes('{{');
  const m = /^(\S+)\s*(.*)$/.exec(dynamic ? text.replace(/\{\{.*?\}\}/g, '0') : text);
  if (!m) throw new Error('empty expectation');
  const keyword = m[1] ?? '';
  let rest = m[2] ?? '';
  let subject: Subject;
  switch (keyword) {
    case 'status':
      subject = { kind: 'status' };
      break;
    case 'header': {
      const h = /^([!#$%&'*+.^_`|~\w-]+)\s*(.*)$/.exec(rest);
      if (!h?.[1]) throw new Error(`header expectation needs a header name: ${text}`);
      subject = { kind: 'header', name: h[1] };
      rest = h[2] ?? '';
      break;
    }
    case 'body': {
      const p = /^(\$[^\s<>=!]*)\s*(.*)$/.exec(rest);
      if (!p?.[1]) throw new Error(`body expectation needs a JSONPath starting with "$": ${text}`);
      subject = { kind: 'body', path: parseJsonPath(p[1]), pathText: p[1] };
      rest = p[2] ?? '';
      break;
    }
    case 'events': {
      const c = /^count\b\s*(.*)$/.exec(rest);
      if (!c) throw new Error(`only "events count …" is supported: ${text}`);
      subject = { kind: 'eventsCount' };
      rest = c[1] ?? '';
      break;
    }
    default:
      throw new Error(
        `unknown expectation subject "${keyword}" (use status, header, body or events)`,
      );
  }
  return {
    source: text,
    line,
    subject,
    check: parseCheck(subject, rest.trim(), text),
    ...(dynamic && { dynamic: true }),
  };
}

/** Resolves the `{{…}}` references of a dynamic expectation; a static one is returned as is. */
export function bindExpectation(
  exp: Expectation,
  substitute: (template: string) => string,
): Expectation {
  if (!exp.dynamic) return exp;
  const bound = parseExpectation(substitute(exp.source), exp.line);
  return bound.dynamic ? { ...bound, dynamic: false } : bound;
}

function parseCheck(subject: Subject, text: string, whole: string): Check {
  const numeric = subject.kind === 'status' || subject.kind === 'eventsCount';
  let op = OPS.find(
    (o) => text === o || text.startsWith(`${o} `) || (/^[<>=!]/.test(o) && text.startsWith(o)),
  );
  const valueText = op ? text.slice(op.length).trim() : text;
  if (!op) {
    if (!numeric) throw new Error(`missing operator (one of ${OPS.join(' ')}): ${whole}`);
    op = '=='; // `status 200` is shorthand for `status == 200`
  }
  if (op === 'exists' || op === 'absent') {
    if (numeric) throw new Error(`"${op}" does not apply to ${subject.kind}: ${whole}`);
    if (valueText) throw new Error(`"${op}" takes no value: ${whole}`);
    return { op };
  }
  if (!valueText) throw new Error(`"${op}" needs a value: ${whole}`);
  const value = parseValue(valueText, subject.kind === 'header', whole);
  return buildCheck(op, value, numeric, whole);
}

function parseValue(text: string, bareAllowed: boolean, whole: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    if (bareAllowed) return text;
    throw new Error(`value is not a JSON literal (quote strings): ${whole}`);
  }
}

function buildCheck(
  op: Exclude<Op, 'exists' | 'absent'>,
  value: Json,
  numeric: boolean,
  whole: string,
): Check {
  switch (op) {
    case '<':
    case '<=':
    case '>':
    case '>=':
      if (typeof value !== 'number') throw new Error(`"${op}" needs a number: ${whole}`);
      return { op, value };
    case 'in':
      if (!Array.isArray(value)) throw new Error(`"in" needs a JSON array: ${whole}`);
      return { op, value };
    case 'matches': {
      if (typeof value !== 'string')
        throw new Error(`"matches" needs a regular expression string: ${whole}`);
      return { op, value, regex: new RegExp(value) };
    }
    default:
      if (numeric && typeof value !== 'number')
        throw new Error(`"${op}" needs a number here: ${whole}`);
      return { op, value };
  }
}

/** Result of checking one expectation against a response. */
export type Verdict = { ok: true } | { ok: false; expected: string; actual: string };

/** Checks a parsed expectation against a recorded response. */
export function evaluate(exp: Expectation, res: RecordedResponse): Verdict {
  const actual = actualOf(exp.subject, res);
  const ok = holds(exp.check, actual, exp.subject.kind === 'header');
  return ok
    ? { ok: true }
    : { ok: false, expected: describeCheck(exp.check), actual: describe(actual) };
}

function actualOf(subject: Subject, res: RecordedResponse): unknown {
  switch (subject.kind) {
    case 'status':
      return res.status;
    case 'header':
      return res.headers.get(subject.name) ?? undefined;
    case 'body':
      return getPath(res.doc, subject.path);
    case 'eventsCount':
      return res.events?.length;
  }
}

function holds(check: Check, actual: unknown, headerText: boolean): boolean {
  // Header values are text; compare them with the literal's text so `== 12` matches "12".
  const asText = (v: Json): Json => (headerText && typeof v !== 'string' ? JSON.stringify(v) : v);
  switch (check.op) {
    case 'exists':
      return actual !== undefined;
    case 'absent':
      return actual === undefined;
    case '==':
      return deepEqual(actual, asText(check.value));
    case '!=':
      return actual !== undefined && !deepEqual(actual, asText(check.value));
    case '<':
      return typeof actual === 'number' && actual < check.value;
    case '<=':
      return typeof actual === 'number' && actual <= check.value;
    case '>':
      return typeof actual === 'number' && actual > check.value;
    case '>=':
      return typeof actual === 'number' && actual >= check.value;
    case 'in':
      return check.value.some((v) => deepEqual(actual, asText(v)));
    case 'matches':
      return typeof actual === 'string' && check.regex.test(actual);
    case 'contains': {
      const v = asText(check.value);
      if (typeof actual === 'string') return typeof v === 'string' && actual.includes(v);
      return Array.isArray(actual) && actual.some((item) => deepEqual(item, v));
    }
  }
}

function describeCheck(check: Check): string {
  switch (check.op) {
    case 'exists':
      return 'present';
    case 'absent':
      return 'absent';
    case 'matches':
      return `matches /${check.value}/`;
    default:
      return `${check.op} ${JSON.stringify(check.value)}`;
  }
}

/** Short, single-line rendering of an actual value for failure messages. */
export function describe(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
