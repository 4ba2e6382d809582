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
  findings: ReviewFinding[];
  errors: number;
  warnings: number;
}

/** The whole review. */
export interface ReviewReport {
  /** Source files that were reviewed, in order. */
  files: string[];
  findings: ReviewFinding[];
  errors: number;
  warnings: number;
  infos: number;
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

function count(findings: ReviewFinding[], s: Severity): number {
  return findings.filter((f) => f.severity === s).length;
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

  const findings: ReviewFinding[] = [];
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    findings.push(toFinding(ts, d, '(program)'));
  }
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
    findings.push(...own);
    onFile({ file, findings: own, errors: count(own, 'error'), warnings: count(own, 'warning') });
  }
  const errors = count(findings, 'error');
  return {
    files: roots.map(rel),
    findings,
    errors,
    warnings: count(findings, 'warning'),
    infos: count(findings, 'info'),
    verdict: errors > 0 ? 'request-changes' : 'approve',
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
  | { type: 'failed'; id: number; message: string };
