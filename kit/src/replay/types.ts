/**
 * Shared types of the `.http` replay: what the parser produces and what the runner reports.
 */

/** A JSON value as produced by `JSON.parse`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One step of a JSONPath-subset path (`$.a.b[0]` → `['a', 'b', 0]`). */
export type PathSegment = string | number;

/** What an expectation looks at. */
export type Subject =
  | { kind: 'status' }
  | { kind: 'header'; name: string }
  | { kind: 'body'; path: PathSegment[]; pathText: string }
  | { kind: 'eventsCount' };

/** Comparison applied to the subject's actual value. */
export type Check =
  | { op: 'exists' | 'absent' }
  | { op: '==' | '!=' | 'contains'; value: Json }
  | { op: '<' | '<=' | '>' | '>='; value: number }
  | { op: 'in'; value: Json[] }
  | { op: 'matches'; value: string; regex: RegExp };

/** An `@expect` (or `@retry-until`) line, parsed once into a typed predicate. */
export interface Expectation {
  /** The text after `@expect`, as written; used in failure messages. */
  readonly source: string;
  /** 1-based line in the file. */
  readonly line: number;
  readonly subject: Subject;
  /** For a dynamic expectation, a stand-in until the runner binds it. */
  readonly check: Check;
  /** True when the text holds `{{…}}` references, bound just before each evaluation. */
  readonly dynamic?: boolean;
}

/** A header line of a request; name and value may hold `{{…}}` templates. */
export interface HeaderSpec {
  readonly name: string;
  readonly value: string;
}

/** One request of a `.http` file, as written (templates not yet substituted). */
export interface RequestSpec {
  /** 1-based position among the file's requests. */
  readonly index: number;
  /** Text after `###`, or a default derived from the request line. */
  readonly title: string;
  /** From `# @name foo`; later requests may reference `{{foo.response…}}`. */
  readonly name?: string;
  /** 1-based line of the request line. */
  readonly line: number;
  readonly method: string;
  /** Absolute URL or path (then a `Host` header supplies the origin); may hold templates. */
  readonly target: string;
  readonly headers: readonly HeaderSpec[];
  /** Body text (may hold templates), or undefined when there is none. */
  readonly body?: string;
  readonly expectations: readonly Expectation[];
  /** `# @wait ms`: pause before sending. */
  readonly waitMs?: number;
  /** `# @retry-until …` with `# @retry-max n`: resend until the predicate holds. */
  readonly retry?: { readonly until: Expectation; readonly maxTries: number };
  /** `# @timeout n [ms|s|m]`: per-exchange bound on the whole exchange, in ms. */
  readonly timeoutMs?: number;
  /** `# @max-events n`: stop reading an event stream after n events. */
  readonly maxEvents?: number;
}

/** A file variable (`@name = value`); the value may reference other variables. */
export interface FileVariable {
  readonly value: string;
  readonly line: number;
}

/** A parsed `.http` file. */
export interface HttpFile {
  readonly path?: string;
  readonly variables: ReadonlyMap<string, FileVariable>;
  readonly requests: readonly RequestSpec[];
  /** Non-fatal remarks, e.g. unknown `@` metadata that an editor may understand. */
  readonly warnings: readonly string[];
}

/** Why an exchange failed. */
export interface Failure {
  /** `expectation` for a predicate that did not hold; `error` for anything that kept the exchange from completing. */
  readonly kind: 'expectation' | 'error';
  readonly message: string;
  readonly expectation?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly line?: number;
}

/** The outcome of one exchange. */
export interface ExchangeResult {
  readonly index: number;
  readonly title: string;
  readonly name?: string;
  readonly line: number;
  /** `METHOD url` after substitution (or the raw target when substitution failed). */
  readonly request: string;
  readonly status?: number;
  readonly passed: boolean;
  readonly failures: readonly Failure[];
  /** How many times the request was sent (more than 1 only with `@retry-until`). */
  readonly attempts: number;
}

/** The outcome of replaying one file. */
export interface ReplayReport {
  readonly file?: string;
  readonly passed: boolean;
  readonly exchanges: readonly ExchangeResult[];
  readonly warnings: readonly string[];
}

/** A received response as seen by expectations and by later `{{name.response…}}` references. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body; for an event stream, `{ events: [...] }` (each `data:` parsed); else the raw text. */
  readonly doc: unknown;
  /** Parsed `data:` payloads when the response is an event stream. */
  readonly events?: readonly unknown[];
}
