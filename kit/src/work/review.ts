import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RuleOptions } from './review-rules.js';
import {
  DEFAULT_MAX_FINDINGS,
  SOURCE_EXT,
  type FileReview,
  type ReviewJobFile,
  type ReviewReport,
} from './review-core.js';
import { ReviewPool } from './review-pool.js';
import { WorkspaceError, resolveInWorkspace, walkFiles } from './workspace.js';

export type { ReviewFinding, Severity } from './review-rules.js';
export type { FileReview, ReviewReport } from './review-core.js';

/** A file handed to the reviewer; `path` is relative ('/' separators, no `..`). */
export interface SourceInput {
  path: string;
  content: string;
}

/** Size limits of one review, checked before any work starts; beyond them the review is refused. */
export interface ReviewLimits {
  /** Files in one review (source files and package.json files together). Default 500. */
  maxFiles: number;
  /** Bytes (UTF-8) of one file. Default 1,000,000. */
  maxFileBytes: number;
  /** Bytes of all files of one review together. Default 4,000,000. */
  maxTotalBytes: number;
  /**
   * Findings one review lists; past it they are only counted (`omitted`), so that a review is never
   * many times larger than what was sent. Default 1,000.
   */
  maxFindings: number;
}

/** The defaults of {@link ReviewLimits}. */
export const DEFAULT_REVIEW_LIMITS: Readonly<ReviewLimits> = {
  maxFiles: 500,
  maxFileBytes: 1_000_000,
  maxTotalBytes: 4_000_000,
  maxFindings: DEFAULT_MAX_FINDINGS,
};

/** Options for every review entry point. */
export interface ReviewOptions extends RuleOptions {
  onFile?: (review: FileReview) => void | Promise<void>;
  /** Aborting stops the review (its worker is terminated); the review rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Size limits; each missing one takes its default from {@link DEFAULT_REVIEW_LIMITS}. */
  limits?: Partial<ReviewLimits>;
  /** The workers to review in. Default: one shared pool with {@link DEFAULT_REVIEW_POOL} settings. */
  pool?: ReviewPool;
}

let sharedPool: ReviewPool | undefined;

/** The pool used when a review names none; created on first use. */
export function defaultReviewPool(): ReviewPool {
  sharedPool ??= new ReviewPool();
  return sharedPool;
}

function limitsOf(opts: ReviewOptions): ReviewLimits {
  return { ...DEFAULT_REVIEW_LIMITS, ...opts.limits };
}

function bytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}

function normalizeInputPath(p: string): string {
  if (typeof p !== 'string' || p.trim() === '' || p.includes('\0')) {
    throw new WorkspaceError('INVALID_INPUT', 'every file needs a non-empty path');
  }
  const norm = path.posix.normalize(p.replace(/\\/g, '/'));
  if (norm.startsWith('/') || norm === '..' || norm.startsWith('../')) {
    throw new WorkspaceError(
      'INVALID_INPUT',
      `file path "${p}" must be relative and stay inside the reviewed tree`,
    );
  }
  return norm;
}

function tooBig(name: string, size: number, limit: number): WorkspaceError {
  return new WorkspaceError(
    'LIMIT_EXCEEDED',
    `file "${name}" is ${bytes(size)}; the reviewer accepts at most ${bytes(limit)} per file`,
  );
}

/**
 * Reviews in-memory sources in a worker thread: one TypeScript Program over all of them (strict, allowJs +
 * checkJs, no emit; imports resolve only among these files), then the plain rules. Non-source entries
 * (package.json, …) are visible to module resolution but not reviewed.
 *
 * Throws {@link WorkspaceError} for bad input and exceeded limits (before any work starts), and
 * `ReviewError` when the pool is busy, the review runs over its time budget or its worker dies.
 */
export async function reviewFiles(
  files: SourceInput[],
  opts: ReviewOptions = {},
): Promise<ReviewReport> {
  if (!Array.isArray(files)) throw new WorkspaceError('INVALID_INPUT', 'files must be an array');
  const limits = limitsOf(opts);
  if (files.length > limits.maxFiles) {
    throw new WorkspaceError(
      'LIMIT_EXCEEDED',
      `${files.length} files sent; the reviewer accepts at most ${limits.maxFiles} files per review`,
    );
  }
  const job: ReviewJobFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const f of files) {
    const rel = normalizeInputPath(f.path);
    if (typeof f.content !== 'string')
      throw new WorkspaceError('INVALID_INPUT', `file "${f.path}" has no text content`);
    const size = Buffer.byteLength(f.content);
    if (size > limits.maxFileBytes) throw tooBig(f.path, size, limits.maxFileBytes);
    total += size;
    if (total > limits.maxTotalBytes) {
      throw new WorkspaceError(
        'LIMIT_EXCEEDED',
        `the files sent exceed ${bytes(limits.maxTotalBytes)} together, the most one review accepts`,
      );
    }
    if (seen.has(rel)) throw new WorkspaceError('INVALID_INPUT', `file "${rel}" is listed twice`);
    seen.add(rel);
    job.push({ path: rel, content: f.content });
  }
  if (!job.some((f) => SOURCE_EXT.test(f.path))) {
    throw new WorkspaceError(
      'INVALID_INPUT',
      'nothing to review: no .js/.ts (or .mjs, .cjs, .jsx, .tsx, …) files given',
    );
  }
  opts.signal?.throwIfAborted();
  const rules: RuleOptions = {
    maxFindings: limits.maxFindings,
    ...(opts.maxLineLength !== undefined ? { maxLineLength: opts.maxLineLength } : {}),
  };
  return (opts.pool ?? defaultReviewPool()).run(job, rules, {
    ...(opts.onFile ? { onFile: opts.onFile } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** Reviews one snippet as if it were a file named `filename`. */
export async function reviewSnippet(
  code: string,
  filename = 'snippet.ts',
  opts: ReviewOptions = {},
): Promise<ReviewReport> {
  return reviewFiles([{ path: filename, content: code }], opts);
}

/**
 * Reviews the source files under `dir` (a directory or one file inside `workspaceRoot`, with the same
 * confinement as the test runner). `package.json` files are loaded too so imports resolve as they would.
 * Finding paths are relative to the reviewed directory.
 */
export async function reviewDirectory(
  workspaceRoot: string,
  dir: string,
  opts: ReviewOptions = {},
): Promise<ReviewReport> {
  const limits = limitsOf(opts);
  const target = await resolveInWorkspace(workspaceRoot, dir);
  if (!target.isDirectory) {
    if (!SOURCE_EXT.test(target.absolute))
      throw new WorkspaceError('INVALID_INPUT', `"${dir}" is not a JavaScript or TypeScript file`);
    const size = (await stat(target.absolute)).size;
    if (size > limits.maxFileBytes)
      throw tooBig(path.basename(target.absolute), size, limits.maxFileBytes);
    return reviewFiles(
      [{ path: path.basename(target.absolute), content: await readFile(target.absolute, 'utf8') }],
      opts,
    );
  }
  let names: string[];
  try {
    names = await walkFiles(
      target.absolute,
      (rel) => SOURCE_EXT.test(rel) || rel.endsWith('package.json'),
      {
        maxDepth: 12,
        maxEntries: 20_000,
        maxFiles: limits.maxFiles,
      },
    );
  } catch (err) {
    if (err instanceof WorkspaceError && err.message.includes('matching files')) {
      throw new WorkspaceError(
        'LIMIT_EXCEEDED',
        `"${dir}" holds more than ${limits.maxFiles} files to review, the most one review accepts`,
      );
    }
    throw err;
  }
  if (!names.some((n) => SOURCE_EXT.test(n))) {
    throw new WorkspaceError('INVALID_INPUT', `no JavaScript or TypeScript files under "${dir}"`);
  }
  const files: SourceInput[] = [];
  let total = 0;
  for (const name of names) {
    opts.signal?.throwIfAborted();
    const size = (await stat(path.join(target.absolute, name))).size;
    if (size > limits.maxFileBytes) throw tooBig(name, size, limits.maxFileBytes);
    total += size;
    if (total > limits.maxTotalBytes) {
      throw new WorkspaceError(
        'LIMIT_EXCEEDED',
        `the files under "${dir}" exceed ${bytes(limits.maxTotalBytes)} together, the most one review accepts`,
      );
    }
    files.push({ path: name, content: await readFile(path.join(target.absolute, name), 'utf8') });
  }
  return reviewFiles(files, opts);
}

/**
 * Starts a worker of `pool` (default: the shared one) and waits until it has loaded the compiler and parsed
 * the shared declarations, so the first real review is quick. The event loop stays free meanwhile.
 */
export async function warmUpReviewer(pool: ReviewPool = defaultReviewPool()): Promise<void> {
  await pool.warmUp();
}
