/**
 * The code-reviewer agent: TypeScript compiler diagnostics plus plain rules over the files it is sent
 * (file parts), a directory of its workspace, or a pasted snippet. One WORKING update per reviewed file,
 * then a `review` artifact (text summary + data part with findings and verdict). The compiler runs in a
 * worker pool, so a big review never holds up the other agents of the process; input over the size limits
 * and a full pool are REJECTED with the limit in the message, a review over its time budget FAILS.
 */
import {
  reviewDirectory,
  reviewFiles,
  reviewSnippet,
  ReviewError,
  ReviewUnavailableError,
  WorkspaceError,
  type FileReview,
  type ReviewLimits,
  type ReviewPool,
  type ReviewReport,
  type SourceInput,
} from '../work/index.js';
import { silentLogger, type AgentExecutor, type Logger, type TaskUpdater } from 'a2a-kit/server';
import type { JsonObject, Part } from 'a2a-kit';
import { guarded, inbound, stringField, unquote, type Inbound } from './common.js';
import { looksLikeCode, stripFence } from './code-hints.js';
import { reviewTargetText } from './sentences.js';

/** Settings of the code-reviewer agent. */
export interface CodeReviewerOptions {
  /** Directory whose subdirectories may be reviewed by path. */
  workspaceRoot: string;
  logger?: Logger;
  /** Size limits of one review; missing ones take `DEFAULT_REVIEW_LIMITS` (500 files, 1 MB each, 4 MB in all). */
  limits?: Partial<ReviewLimits>;
  /**
   * The workers reviews run in (concurrency, queue, time budget, heap). Default: the process's shared pool
   * with `DEFAULT_REVIEW_POOL` settings — the one `warmUpReviewer()` warms.
   */
  pool?: ReviewPool;
}

export const CODE_REVIEWER_USAGE =
  'I review JavaScript and TypeScript. Send file parts ({"raw": <base64>, "filename": "x.ts"} or {"text": …, ' +
  '"filename": "x.ts"}), a data part {"path": "<directory in my workspace>"}, the text "review <directory>", ' +
  'or paste a code snippet.';

type Plan =
  | { kind: 'files'; files: SourceInput[] }
  | { kind: 'directory'; path: string }
  | { kind: 'snippet'; code: string; filename: string }
  | { kind: 'unsupported'; why: string };

const EXT_BY_TYPE: Record<string, string> = {
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/x-typescript': '.ts',
  'application/typescript': '.ts',
  'text/typescript': '.ts',
};

function fileOf(p: Part, n: number): SourceInput | string {
  if (typeof p.url === 'string')
    return `file parts by URL are not fetched (${p.filename ?? p.url}); send the content as raw or text`;
  const name = p.filename ?? `file-${n + 1}${EXT_BY_TYPE[p.mediaType ?? ''] ?? '.ts'}`;
  if (typeof p.raw === 'string') {
    const content = Buffer.from(p.raw, 'base64').toString('utf8');
    if (content.includes('\0')) return `"${name}" is binary, not source code`;
    return { path: name, content };
  }
  return { path: name, content: p.text ?? '' };
}

/** Decide what a message asks for. */
export function reviewPlanOf(input: Inbound): Plan {
  if (input.files.length > 0) {
    const files: SourceInput[] = [];
    for (const [n, p] of input.files.entries()) {
      const f = fileOf(p, n);
      if (typeof f === 'string') return { kind: 'unsupported', why: f };
      files.push(f);
    }
    return { kind: 'files', files };
  }
  const path = stringField(input.data, 'path', 'dir', 'directory');
  if (path) return { kind: 'directory', path };
  const code = stringField(input.data, 'code', 'snippet');
  if (code)
    return { kind: 'snippet', code, filename: stringField(input.data, 'filename') ?? 'snippet.ts' };
  const dir = reviewTargetText(input.text);
  if (dir) return { kind: 'directory', path: unquote(dir) };
  if (input.text && looksLikeCode(input.text))
    return { kind: 'snippet', code: stripFence(input.text), filename: 'snippet.ts' };
  return { kind: 'unsupported', why: '' };
}

/** The code-reviewer's executor: decides what a message asks for, reviews it in the pool, streams file by file. */
export function codeReviewerExecutor(opts: CodeReviewerOptions): AgentExecutor {
  const logger = opts.logger ?? silentLogger;
  return guarded('code-reviewer', logger, async (ctx, task) => {
    const plan = reviewPlanOf(inbound(ctx.message));
    if (plan.kind === 'unsupported')
      return task.reply(plan.why ? `${plan.why}. ${CODE_REVIEWER_USAGE}` : CODE_REVIEWER_USAGE);
    const subject =
      plan.kind === 'directory'
        ? plan.path
        : plan.kind === 'snippet'
          ? 'the snippet'
          : `${plan.files.length} file(s)`;
    const onFile = (r: FileReview): void => fileUpdate(task, r);
    const ropts = {
      onFile,
      signal: ctx.signal,
      ...(opts.limits ? { limits: opts.limits } : {}),
      ...(opts.pool ? { pool: opts.pool } : {}),
    };
    let report: ReviewReport;
    try {
      task.working(`Reviewing ${subject}`);
      report =
        plan.kind === 'directory'
          ? await reviewDirectory(opts.workspaceRoot, plan.path, ropts)
          : plan.kind === 'snippet'
            ? await reviewSnippet(plan.code, plan.filename, ropts)
            : await reviewFiles(plan.files, ropts);
    } catch (err) {
      if (ctx.signal.aborted) return;
      if (err instanceof WorkspaceError)
        return task.reject(`Cannot review ${subject}: ${err.message}`);
      if (err instanceof ReviewError) {
        logger.warn({ taskId: task.taskId, code: err.code }, err.message);
        if (err.code === 'BUSY')
          return task.reject(`Cannot review ${subject} now: ${err.message}.`);
        return task.fail(`The review of ${subject} stopped: ${err.message}.`);
      }
      if (err instanceof ReviewUnavailableError) return task.fail(err.message);
      throw err;
    }
    if (ctx.signal.aborted) return;
    logger.info(
      { taskId: task.taskId, files: report.files.length, verdict: report.verdict },
      'review finished',
    );
    task.addArtifact({
      name: 'review',
      description: `Review of ${subject}`,
      parts: [{ text: summary(subject, report) }, { data: reportData(report) }],
    });
    task.complete(
      `Verdict: ${report.verdict} (${report.errors} error(s), ${report.warnings} warning(s) in ${report.files.length} file(s)).`,
    );
  });
}

/**
 * Findings a per-file WORKING update lists. An update is progress, and each one is kept in the task's
 * history: all of a file's findings are in the review artifact.
 */
export const UPDATE_FINDINGS = 20;

function fileUpdate(task: TaskUpdater, r: FileReview): void {
  const shown = r.findings.slice(0, UPDATE_FINDINGS);
  const more = r.findings.length - shown.length + r.omitted;
  const data: JsonObject = {
    event: 'file',
    file: r.file,
    errors: r.errors,
    warnings: r.warnings,
    findings: shown.map((f) => ({ ...f })),
    ...(more > 0 ? { moreFindings: more } : {}),
  };
  task.working({
    parts: [{ text: `${r.file}: ${r.errors} error(s), ${r.warnings} warning(s)` }, { data }],
  });
}

function reportData(r: ReviewReport): JsonObject {
  return {
    verdict: r.verdict,
    errors: r.errors,
    warnings: r.warnings,
    infos: r.infos,
    files: r.files,
    findings: r.findings.map((f) => ({ ...f })),
    ...(r.omitted > 0 ? { omittedFindings: r.omitted } : {}),
  };
}

function summary(subject: string, r: ReviewReport): string {
  const lines = [
    `Review of ${subject}: ${r.verdict} — ${r.errors} error(s), ${r.warnings} warning(s), ${r.infos} note(s) in ${r.files.length} file(s)`,
  ];
  const shown = r.findings.filter((f) => f.severity !== 'info').slice(0, 50);
  for (const f of shown)
    lines.push(
      `${f.severity === 'error' ? '✗' : '!'} ${f.file}:${f.line}:${f.column} ${f.rule}: ${f.message}`,
    );
  if (r.findings.length > shown.length)
    lines.push(`… and ${r.findings.length - shown.length} more in the data part`);
  if (r.omitted > 0)
    lines.push(
      `… and ${r.omitted} more not listed: a review lists at most ${r.findings.length} findings (counted above)`,
    );
  return lines.join('\n');
}
