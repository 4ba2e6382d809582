/**
 * The bridge between `node --test` and {@link runTests}: a tiny custom reporter (written to a temp file
 * at run time, so it works from both `src/` under tsx and compiled `dist/`) prints one JSON line per event,
 * and {@link TestEventTally} folds those lines into counts. Custom reporters exist on Node 20 and 22 with
 * the same event shapes, which is sturdier than scraping TAP whose nesting changed between versions.
 */

/** Marker prefix so stray lines on the runner's stdout can never be mistaken for events. */
export const EVENT_PREFIX = '@@kit-test@@';

/** Source of the reporter module (plain ESM, no dependencies). */
export const REPORTER_SOURCE = `
const P = ${JSON.stringify(EVENT_PREFIX)};
const cut = (s, n) => (typeof s === 'string' && s.length > n ? s.slice(0, n) + '…' : s);
export default async function* kitReporter(source) {
  for await (const ev of source) {
    const d = ev.data ?? {};
    if (ev.type === 'test:pass' || ev.type === 'test:fail') {
      const e = d.details?.error;
      const cause = e?.cause;
      const msg = cause instanceof Error ? cause.message : (cause !== undefined && cause !== null ? String(cause) : e?.message);
      yield P + JSON.stringify({
        type: ev.type === 'test:pass' ? 'pass' : 'fail',
        name: cut(String(d.name ?? ''), 500), nesting: d.nesting ?? 0, file: d.file, line: d.line,
        skip: Boolean(d.skip), todo: Boolean(d.todo), suite: d.details?.type === 'suite',
        durationMs: d.details?.duration_ms, failureType: e?.failureType, message: cut(msg, 4000),
      }) + '\\n';
    } else if ((ev.type === 'test:stderr' || ev.type === 'test:stdout') && d.file) {
      yield P + JSON.stringify({ type: 'output', file: d.file, text: cut(String(d.message ?? ''), 2000) }) + '\\n';
    }
  }
}
`;

/** One line from the reporter. */
export interface RawTestEvent {
  type: 'pass' | 'fail' | 'output';
  name?: string;
  nesting?: number;
  file?: string;
  line?: number;
  skip?: boolean;
  todo?: boolean;
  suite?: boolean;
  durationMs?: number;
  failureType?: string;
  message?: string;
  text?: string;
}

/** Progress for one finished test, as given to `onProgress`. */
export interface TestOutcome {
  name: string;
  file?: string;
  status: 'pass' | 'fail' | 'skip';
  durationMs?: number;
  message?: string;
}

/** One failure in the run result. */
export interface TestFailure {
  name: string;
  file?: string;
  line?: number;
  message: string;
}

const MAX_FAILURES = 200;
const MAX_OUTPUT_PER_FILE = 4_000;

/** Parses a reporter line; anything else (or malformed JSON) yields undefined. */
export function parseEventLine(line: string): RawTestEvent | undefined {
  if (!line.startsWith(EVENT_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(line.slice(EVENT_PREFIX.length));
    if (typeof value !== 'object' || value === null) return undefined;
    const type = (value as { type?: unknown }).type;
    return type === 'pass' || type === 'fail' || type === 'output'
      ? (value as RawTestEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Counts leaf tests only: suites and tests with subtests are containers, and a container that failed only
 * because a child failed is not a second failure. Children are reported before their parent, so "has a
 * child" is known when the parent's event arrives; tracking it per file keeps concurrent files apart.
 */
export class TestEventTally {
  passed = 0;
  failed = 0;
  skipped = 0;
  readonly failures: TestFailure[] = [];
  failuresTruncated = false;
  private readonly childSeen = new Map<string, boolean[]>();
  private readonly output = new Map<string, string>();

  /** Folds one event in; returns the outcome when it completed a countable test. */
  add(ev: RawTestEvent): TestOutcome | undefined {
    if (ev.type === 'output') {
      this.keepOutput(ev.file ?? '', ev.text ?? '');
      return undefined;
    }
    const key = ev.file ?? '';
    const nesting = Math.max(0, Math.min(ev.nesting ?? 0, 1_000));
    const seen = this.childSeen.get(key) ?? [];
    this.childSeen.set(key, seen);
    const hadChildren = seen[nesting + 1] === true;
    seen[nesting + 1] = false;
    seen[nesting] = true;
    const name = ev.name ?? '(unnamed)';
    const base = {
      name,
      ...(ev.file ? { file: ev.file } : {}),
      ...(ev.durationMs !== undefined ? { durationMs: ev.durationMs } : {}),
    };
    if (ev.type === 'pass') {
      if (hadChildren || ev.suite) return undefined;
      if (ev.skip || ev.todo) {
        this.skipped += 1;
        return { ...base, status: 'skip' };
      }
      this.passed += 1;
      return { ...base, status: 'pass' };
    }
    if (hadChildren && ev.failureType === 'subtestsFailed') return undefined;
    if (ev.todo) {
      this.skipped += 1;
      return { ...base, status: 'skip' };
    }
    this.failed += 1;
    const message = this.describeFailure(ev);
    if (this.failures.length < MAX_FAILURES) {
      this.failures.push({
        name,
        message,
        ...(ev.file ? { file: ev.file } : {}),
        ...(ev.line ? { line: ev.line } : {}),
      });
    } else {
      this.failuresTruncated = true;
    }
    return { ...base, status: 'fail', message };
  }

  private describeFailure(ev: RawTestEvent): string {
    const message = (ev.message ?? '').trim() || 'test failed';
    // A file that fails to load is reported as a failing "test" named after the file with a generic
    // message; its own stderr (the syntax error, the thrown import) is what the requester needs.
    const out = ev.file ? this.output.get(ev.file) : undefined;
    if (out && (message === 'test failed' || ev.name === ev.file))
      return `${message}\n${out.trim()}`;
    return message;
  }

  private keepOutput(file: string, text: string): void {
    const prev = this.output.get(file) ?? '';
    if (prev.length >= MAX_OUTPUT_PER_FILE) return;
    this.output.set(file, (prev + text).slice(0, MAX_OUTPUT_PER_FILE));
  }
}
