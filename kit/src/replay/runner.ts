import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bindExpectation, evaluate } from './expect.js';
import { resolveTarget, send } from './http.js';
import type { PreparedRequest } from './http.js';
import { parseHttpFile } from './parser.js';
import { substitute } from './variables.js';
import type { VariableScope } from './variables.js';
import type {
  ExchangeResult,
  Expectation,
  Failure,
  HttpFile,
  RecordedResponse,
  ReplayReport,
  RequestSpec,
} from './types.js';

/** Options of {@link replayHttpFile}. */
export interface ReplayOptions {
  /** Variables that override the file's `@name = value` (base URLs, the deployer token, ids). */
  readonly variables?: Readonly<Record<string, string>>;
  /** Source of `{{$processEnv NAME}}`; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Bound on each send, headers and whole body (default 10 s); `# @timeout` overrides it per exchange. */
  readonly timeoutMs?: number;
  /** Bound on each response body (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Pause between `@retry-until` tries when the exchange has no `@wait` (default 250 ms). */
  readonly retryDelayMs?: number;
  /** Called after each exchange, e.g. to print progress live. */
  readonly onExchange?: (result: ExchangeResult) => void;
  readonly signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_RETRY_DELAY_MS = 250;

/**
 * Replays the requests of a parsed file in order against local servers and checks each
 * exchange's `@expect` lines. Never throws for a failing exchange: every problem lands in the
 * report, and later exchanges still run (a reference to a failed one then fails precisely).
 */
export async function replayHttpFile(
  file: HttpFile,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const responses = new Map<string, RecordedResponse>();
  const scope: VariableScope = {
    overrides: options.variables ?? {},
    fileVariables: file.variables,
    env: options.env ?? process.env,
    responses,
    requestNames: new Set(file.requests.flatMap((r) => (r.name ? [r.name] : []))),
  };
  const exchanges: ExchangeResult[] = [];
  for (const spec of file.requests) {
    if (options.signal?.aborted) break;
    const result = await runExchange(spec, scope, responses, options);
    exchanges.push(result);
    options.onExchange?.(result);
  }
  return {
    ...(file.path !== undefined && { file: file.path }),
    passed: exchanges.every((e) => e.passed) && exchanges.length === file.requests.length,
    exchanges,
    warnings: file.warnings,
  };
}

/** Reads, parses and replays one `.http` file; a parse error throws `HttpFileParseError`. */
export async function replayHttpPath(
  path: string,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const text = await readFile(path, 'utf8');
  return replayHttpFile(parseHttpFile(text, { path }), options);
}

async function runExchange(
  spec: RequestSpec,
  scope: VariableScope,
  responses: Map<string, RecordedResponse>,
  options: ReplayOptions,
): Promise<ExchangeResult> {
  const failures: Failure[] = [];
  let request = `${spec.method} ${spec.target}`;
  let response: RecordedResponse | undefined;
  let attempts = 0;
  const result = (): ExchangeResult => ({
    index: spec.index,
    title: spec.title,
    ...(spec.name !== undefined && { name: spec.name }),
    line: spec.line,
    request,
    ...(response !== undefined && { status: response.status }),
    passed: failures.length === 0,
    failures,
    attempts,
  });
  try {
    if (spec.waitMs) await sleep(spec.waitMs, undefined, { signal: options.signal });
    const maxTries = spec.retry?.maxTries ?? 1;
    // Bounded: at most maxTries sends (the parser caps it), each bounded by its timeout.
    while (attempts < maxTries) {
      if (attempts > 0)
        await sleep(spec.waitMs || (options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS), undefined, {
          signal: options.signal,
        });
      const prepared = prepare(spec, scope);
      request = `${prepared.method} ${prepared.url.href}`;
      attempts += 1;
      response = await send(prepared, {
        timeoutMs: spec.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        ...(spec.maxEvents !== undefined && { maxEvents: spec.maxEvents }),
        ...(options.signal !== undefined && { signal: options.signal }),
      });
      if (!spec.retry || evaluate(bind(spec.retry.until, scope), response).ok) break;
    }
  } catch (err) {
    failures.push({ kind: 'error', message: (err as Error).message, line: spec.line });
    return result();
  }
  if (!response) return result();
  // Recorded before the checks so `{{thisRequest.response…}}` works in its own expectations.
  if (spec.name) responses.set(spec.name, response);
  if (spec.retry) {
    const until = bindOrFail(spec.retry.until, scope, failures);
    const verdict = until && evaluate(until, response);
    if (until && verdict && !verdict.ok) {
      failures.push({
        kind: 'expectation',
        message: `retry-until ${until.source}: still not true after ${attempts} tries: expected ${verdict.expected}, actual ${verdict.actual}`,
        expectation: until.source,
        expected: verdict.expected,
        actual: verdict.actual,
        line: until.line,
      });
    }
  }
  for (const written of spec.expectations) {
    const exp = bindOrFail(written, scope, failures);
    if (!exp) continue;
    const verdict = evaluate(exp, response);
    if (verdict.ok) continue;
    failures.push({
      kind: 'expectation',
      message: `${exp.source}: expected ${verdict.expected}, actual ${verdict.actual}`,
      expectation: exp.source,
      expected: verdict.expected,
      actual: verdict.actual,
      line: exp.line,
    });
  }
  return result();
}

function bind(exp: Expectation, scope: VariableScope): Expectation {
  return bindExpectation(exp, (template) => substitute(template, scope));
}

function bindOrFail(
  exp: Expectation,
  scope: VariableScope,
  failures: Failure[],
): Expectation | undefined {
  try {
    return bind(exp, scope);
  } catch (err) {
    failures.push({
      kind: 'error',
      message: `${exp.source}: ${(err as Error).message}`,
      expectation: exp.source,
      line: exp.line,
    });
    return undefined;
  }
}

/** Substitutes every template of the request; fresh per try so `{{$guid}}` differs between tries. */
function prepare(spec: RequestSpec, scope: VariableScope): PreparedRequest {
  const headers = spec.headers.map(
    (h) => [substitute(h.name, scope), substitute(h.value, scope)] as const,
  );
  const host = headers.find(([name]) => name.toLowerCase() === 'host')?.[1];
  const url = resolveTarget(substitute(spec.target, scope), host);
  return {
    method: spec.method,
    url,
    headers,
    ...(spec.body !== undefined && { body: substitute(spec.body, scope) }),
  };
}

/** One line per exchange: `✔/✘ title · status · reason`. */
export function formatExchange(result: ExchangeResult, file?: string): string {
  const where = file ? `${basename(file)} › ` : '';
  const status = result.status !== undefined ? String(result.status) : '---';
  const reason = result.passed
    ? `${result.request}${result.attempts > 1 ? ` (${result.attempts} tries)` : ''}`
    : result.failures.map((f) => `line ${f.line ?? result.line}: ${f.message}`).join('; ');
  return `${result.passed ? '✔' : '✘'} ${where}${result.title} · ${status} · ${reason}`;
}

/** The whole report as text, one line per exchange plus warnings. */
export function formatReport(report: ReplayReport): string {
  return [
    ...report.warnings.map((w) => `! ${w}`),
    ...report.exchanges.map((e) => formatExchange(e, report.file)),
  ].join('\n');
}
