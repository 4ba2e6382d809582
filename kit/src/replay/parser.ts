import { parseExpectation } from './expect.js';
import type { Expectation, FileVariable, HeaderSpec, HttpFile, RequestSpec } from './types.js';

/** One problem found while parsing, with its 1-based line. */
export interface Diagnostic {
  readonly line: number;
  readonly message: string;
}

/** Thrown by {@link parseHttpFile} with every problem in the file, not just the first. */
export class HttpFileParseError extends Error {
  constructor(
    readonly diagnostics: readonly Diagnostic[],
    readonly path?: string,
  ) {
    super(diagnostics.map((d) => `${path ?? '<http>'}:${d.line}: ${d.message}`).join('\n'));
    this.name = 'HttpFileParseError';
  }
}

// Bounds keep a scenario file from stalling a test run for minutes.
export const MAX_WAIT_MS = 60_000;
export const MAX_TIMEOUT_MS = 120_000;
export const MAX_TRIES = 100;
export const MAX_EVENTS = 10_000;
export const DEFAULT_RETRY_TRIES = 10;

const METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT';
const REQUEST_LINE = new RegExp(`^(${METHODS})\\s+(.+?)(?:\\s+HTTP\\/\\d(?:\\.\\d)?)?\\s*$`);
const BARE_URL = /^((?:https?:\/\/|\{\{)\S*?)(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/;
const COMMENT = /^\s*(?:#|\/\/)/;
const METADATA = /^\s*(?:#|\/\/)\s*@([\w-]+)\s*(.*?)\s*$/;
const FILE_VARIABLE = /^\s*@([\w.-]+)\s*=\s*(.*?)\s*$/;
const HEADER = /^([^:\s]+)\s*:\s*(.*?)\s*$/;
const RESPONSE_LINE = /^HTTP\/\d(?:\.\d)?\s+\d{3}\b/;
/** Directives the replay reads; other `@` tags belong to the editors. */
const OURS = new Set([
  'name',
  'expect',
  'wait',
  'retry-until',
  'retry-max',
  'timeout',
  'max-events',
]);
const EDITORS = new Set([
  'note',
  'prompt',
  'no-redirect',
  'no-cookie-jar',
  'no-log',
  'connection-timeout',
  'use-os-credentials',
  'no-auto-encoding',
]);

interface Line {
  readonly text: string;
  readonly no: number;
}
interface Meta {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/**
 * Parses a `.http` file (the subset VS Code REST Client and the JetBrains HTTP client share,
 * plus `# @expect` style comments that both editors ignore). Throws {@link HttpFileParseError}
 * listing every problem.
 */
export function parseHttpFile(text: string, options: { path?: string } = {}): HttpFile {
  const diagnostics: Diagnostic[] = [];
  const warnings: string[] = [];
  const variables = new Map<string, FileVariable>();
  const requests: RequestSpec[] = [];
  const names = new Set<string>();
  const where = options.path ?? '<http>';

  let title = '';
  let block: Line[] = [];
  const flush = (): void => {
    const req = parseBlock(block, title, requests.length + 1, {
      diag: (line, message) => diagnostics.push({ line, message }),
      warn: (line, message) => warnings.push(`${where}:${line}: ${message}`),
      variable: (name, value, line) => variables.set(name, { value, line }),
    });
    if (req) {
      if (req.name && names.has(req.name))
        diagnostics.push({ line: req.line, message: `duplicate @name ${req.name}` });
      if (req.name) names.add(req.name);
      requests.push(req);
    }
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const sep = /^\s*###(.*)$/.exec(raw);
    if (sep) {
      flush();
      title = (sep[1] ?? '').trim();
      block = [];
    } else {
      block.push({ text: raw, no: i + 1 });
    }
  });
  flush();
  if (requests.length === 0) warnings.push(`${where}: no requests in this file`);
  if (diagnostics.length > 0) throw new HttpFileParseError(diagnostics, options.path);
  return {
    ...(options.path !== undefined && { path: options.path }),
    variables,
    requests,
    warnings,
  };
}

interface Sink {
  diag(line: number, message: string): void;
  warn(line: number, message: string): void;
  variable(name: string, value: string, line: number): void;
}

function parseBlock(
  lines: readonly Line[],
  title: string,
  index: number,
  sink: Sink,
): RequestSpec | undefined {
  const meta: Meta[] = [];
  const headers: HeaderSpec[] = [];
  const body: Line[] = [];
  let request: { method: string; target: string; line: number } | undefined;
  let state: 'pre' | 'headers' | 'body' = 'pre';

  for (const { text, no } of lines) {
    if (state === 'body') {
      // REST Client drops comment lines everywhere in a request, the body included; so do we.
      if (COMMENT.test(text)) checkBodyComment(text, no, sink);
      else if (RESPONSE_LINE.test(text.trim())) sink.diag(no, RESPONSE_IN_BODY);
      else body.push({ text, no });
      continue;
    }
    if (text.trim() === '') {
      if (state === 'headers') state = 'body';
      continue;
    }
    const m = METADATA.exec(text);
    if (m) {
      meta.push({ key: m[1] ?? '', value: m[2] ?? '', line: no });
      continue;
    }
    if (COMMENT.test(text)) continue;
    if (state === 'pre') {
      const v = FILE_VARIABLE.exec(text);
      if (v) {
        sink.variable(v[1] ?? '', v[2] ?? '', no);
        continue;
      }
      // A block that starts with a status line is a saved response; editors skip it too.
      if (RESPONSE_LINE.test(text.trim())) return undefined;
      request = parseRequestLine(text.trim(), no, sink);
      state = 'headers';
      continue;
    }
    // REST Client lets a long query string continue on lines starting with ? or &.
    if (request && headers.length === 0 && /^\s*[?&]/.test(text)) {
      request.target += text.trim();
      continue;
    }
    const h = HEADER.exec(text.trim());
    if (h) headers.push({ name: h[1] ?? '', value: h[2] ?? '' });
    else
      sink.diag(
        no,
        `expected "Name: value" header or a blank line before the body: ${text.trim()}`,
      );
  }

  if (!request) {
    for (const m of meta) if (OURS.has(m.key)) sink.diag(m.line, `@${m.key} outside any request`);
    return undefined;
  }
  while (body.length > 0 && body[body.length - 1]?.text.trim() === '') body.pop();
  const bodyText = body.length > 0 ? body.map((l) => l.text).join('\n') : undefined;
  return {
    index,
    title: title || `${request.method} ${request.target}`,
    line: request.line,
    method: request.method,
    target: request.target,
    headers,
    ...(bodyText !== undefined && { body: bodyText }),
    ...readMeta(meta, sink),
  };
}

function parseRequestLine(
  text: string,
  no: number,
  sink: Sink,
): { method: string; target: string; line: number } {
  const r = REQUEST_LINE.exec(text);
  if (r) return { method: r[1] ?? 'GET', target: r[2] ?? '', line: no };
  const bare = BARE_URL.exec(text);
  if (bare) return { method: 'GET', target: bare[1] ?? '', line: no };
  sink.diag(no, `expected a request line "METHOD URL [HTTP/1.1]": ${text}`);
  return { method: 'GET', target: '', line: no };
}

const RESPONSE_IN_BODY =
  'a response status line inside a request block; editors would send it as body — remove the response text';

/** Our directives after the blank line would be ignored by REST Client but sent as body by other clients. */
function checkBodyComment(text: string, no: number, sink: Sink): void {
  const m = METADATA.exec(text);
  if (m && OURS.has(m[1] ?? '')) {
    sink.diag(
      no,
      `@${m[1]} after the blank line that starts the body; move it above the request line`,
    );
  }
}

type MetaFields = Pick<
  RequestSpec,
  'name' | 'expectations' | 'waitMs' | 'retry' | 'timeoutMs' | 'maxEvents'
>;

function readMeta(meta: readonly Meta[], sink: Sink): MetaFields {
  const expectations: Expectation[] = [];
  const out: { -readonly [K in keyof MetaFields]?: MetaFields[K] } = {};
  let until: Expectation | undefined;
  let tries: number | undefined;
  const expectation = (m: Meta): Expectation | undefined => {
    try {
      return parseExpectation(m.value, m.line);
    } catch (err) {
      sink.diag(m.line, `@${m.key}: ${(err as Error).message}`);
      return undefined;
    }
  };
  const int = (m: Meta, min: number, max: number): number | undefined => {
    const n = Number(m.value);
    if (/^\d+$/.test(m.value) && n >= min && n <= max) return n;
    sink.diag(m.line, `@${m.key} needs an integer from ${min} to ${max}, got "${m.value}"`);
    return undefined;
  };
  for (const m of meta) {
    switch (m.key) {
      case 'name':
        // REST Client only recognises \w+ names.
        if (/^\w+$/.test(m.value)) out.name = m.value;
        else
          sink.diag(m.line, `@name needs a single word of letters, digits or _, got "${m.value}"`);
        break;
      case 'expect': {
        const e = expectation(m);
        if (e) expectations.push(e);
        break;
      }
      case 'retry-until':
        until = expectation(m);
        break;
      case 'retry-max':
        tries = int(m, 1, MAX_TRIES);
        break;
      case 'wait':
        out.waitMs = int(m, 0, MAX_WAIT_MS);
        break;
      case 'max-events':
        out.maxEvents = int(m, 1, MAX_EVENTS);
        break;
      case 'timeout':
        out.timeoutMs = parseTimeout(m, sink);
        break;
      default:
        if (!EDITORS.has(m.key)) sink.warn(m.line, `unknown directive @${m.key} (ignored)`);
    }
  }
  if (until) out.retry = { until, maxTries: tries ?? DEFAULT_RETRY_TRIES };
  else if (tries !== undefined)
    sink.diag(
      meta.find((m) => m.key === 'retry-max')?.line ?? 0,
      '@retry-max without @retry-until',
    );
  for (const key of Object.keys(out) as (keyof typeof out)[])
    if (out[key] === undefined) delete out[key];
  return { ...out, expectations };
}

/** JetBrains reads `@timeout N` as seconds and accepts a unit; follow it so the editor agrees. */
function parseTimeout(m: Meta, sink: Sink): number | undefined {
  const t = /^(\d+)\s*(ms|s|m)?$/.exec(m.value);
  const factor = { ms: 1, s: 1000, m: 60_000 }[(t?.[2] ?? 's') as 'ms' | 's' | 'm'];
  const ms = t ? Number(t[1]) * factor : NaN;
  if (ms > 0 && ms <= MAX_TIMEOUT_MS) return ms;
  sink.diag(
    m.line,
    `@timeout needs "N", "N ms", "N s" or "N m" up to ${MAX_TIMEOUT_MS} ms, got "${m.value}"`,
  );
  return undefined;
}
