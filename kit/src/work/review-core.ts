/**
 * The review itself: one TypeScript Program over the reviewed files, compiler diagnostics plus the plain
 * rules, file by file. Synchronous and CPU-bound, so it runs inside a review worker, never on the thread
 * that serves requests.
 */
import type * as TS from 'typescript';
import { plainRules } from './review-rules.js';
import type { ReviewFinding, RuleOptions, Severity } from './review-rules.js';
import { REVIEW_ROOT, reviewCompilerOptions, reviewHost, type LibMounts } from './review-host.js';

/** Files the reviewer checks (other entries, such as package.json, only inform module resolution). */
export const SOURCE_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Findings for one file, streamed through `onFile` as soon as that file is done. */
export interface FileReview {
  file: string;
  /** The file's findings, in order, as far as the review's `maxFindings` reaches. */
  findings: ReviewFinding[];
  /** Errors and warnings of the file, listed or not. */
  errors: number;
  warnings: number;
  /** Findings of the file past the review's `maxFindings`: counted, not listed. */
  omitted: number;
}

/** The whole review. */
export interface ReviewReport {
  /** Source files that were reviewed, in order. */
  files: string[];
  /** The findings, file by file, at most `maxFindings` of them. */
  findings: ReviewFinding[];
  /** Every error, warning and note, listed or not. */
  errors: number;
  warnings: number;
  infos: number;
  /**
   * Findings past `maxFindings`, counted but not listed: a file built to trip every rule on every line
   * would otherwise make a review many times the size of what was sent.
   */
  omitted: number;
  /** `request-changes` exactly when there is at least one error. */
  verdict: 'approve' | 'request-changes';
}

/** A file of a review job: `path` is already normalized (relative, '/' separators, no `..`). */
export interface ReviewJobFile {
  path: string;
  content: string;
}

function category(ts: typeof TS, c: TS.DiagnosticCategory): Severity {
  if (c === ts.DiagnosticCategory.Error) return 'error';
  return c === ts.DiagnosticCategory.Warning ? 'warning' : 'info';
}

function toFinding(ts: typeof TS, d: TS.Diagnostic, file: string): ReviewFinding {
  const pos =
    d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
  return {
    file,
    line: pos ? pos.line + 1 : 0,
    column: pos ? pos.character + 1 : 0,
    rule: `TS${d.code}`,
    code: d.code,
    severity: category(ts, d.category),
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  };
}

/** Findings a review lists when its options name no `maxFindings`. */
export const DEFAULT_MAX_FINDINGS = 1_000;

/** Every finding counted by severity; only the first `max` kept. */
class Tally {
  readonly listed: ReviewFinding[] = [];
  readonly of: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  omitted = 0;
  constructor(private readonly max: number) {}

  /** Counts `findings`, keeps what still fits; returns what was kept and how many were not. */
  add(findings: readonly ReviewFinding[]): { kept: ReviewFinding[]; omitted: number } {
    for (const f of findings) this.of[f.severity]++;
    const kept = findings.slice(0, Math.max(0, this.max - this.listed.length));
    this.listed.push(...kept);
    this.omitted += findings.length - kept.length;
    return { kept, omitted: findings.length - kept.length };
  }
}

function count(findings: readonly ReviewFinding[], s: Severity): number {
  let n = 0;
  for (const f of findings) if (f.severity === s) n++;
  return n;
}

/** Reviews validated files; `onFile` is called once per source file, in order. */
export function reviewProgram(
  ts: typeof TS,
  libs: LibMounts,
  files: readonly ReviewJobFile[],
  opts: RuleOptions,
  onFile: (review: FileReview) => void,
): ReviewReport {
  const contents = new Map(files.map((f) => [`${REVIEW_ROOT}/${f.path}`, f.content]));
  const roots = [...contents.keys()].filter((p) => SOURCE_EXT.test(p));
  const options = reviewCompilerOptions(ts, libs);
  const program = ts.createProgram({
    rootNames: roots,
    options,
    host: reviewHost(ts, libs, contents),
  });
  const rel = (abs: string): string => abs.slice(REVIEW_ROOT.length + 1);

  const tally = new Tally(opts.maxFindings ?? DEFAULT_MAX_FINDINGS);
  tally.add(
    [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((d) =>
      toFinding(ts, d, '(program)'),
    ),
  );
  for (const abs of roots) {
    const sf = program.getSourceFile(abs);
    if (!sf) continue;
    const file = rel(abs);
    const diags = [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ].map((d) => toFinding(ts, d, file));
    const own = [...diags, ...(sf.isDeclarationFile ? [] : plainRules(ts, sf, file, opts))].sort(
      (a, b) => a.line - b.line || a.column - b.column,
    );
    const { kept, omitted } = tally.add(own);
    onFile({
      file,
      findings: kept,
      errors: count(own, 'error'),
      warnings: count(own, 'warning'),
      omitted,
    });
  }
  return {
    files: roots.map(rel),
    findings: tally.listed,
    errors: tally.of.error,
    warnings: tally.of.warning,
    infos: tally.of.info,
    omitted: tally.omitted,
    verdict: tally.of.error > 0 ? 'request-changes' : 'approve',
  };
}

/** What the pool sends a review worker. */
export interface ReviewJobMessage {
  type: 'review';
  id: number;
  files: ReviewJobFile[];
  rules: RuleOptions;
}

/** What a review worker sends back: readiness once, then per job its files and its end. */
export type ReviewWorkerMessage =
  | { type: 'ready' }
  | { type: 'unavailable'; message: string }
  | { type: 'file'; id: number; review: FileReview }
  | { type: 'done'; id: number; report: ReviewReport }
  | { type: 'failed'; id: number; message: string }
  | { type: 'heap'; heapBytes: number };

/** What the pool tells a review worker when it starts it. */
export interface ReviewWorkerData {
  /** Garbage a worker lets build up before it collects right after a review. */
  heapSlackBytes: number;
}
