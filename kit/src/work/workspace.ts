import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Why a workspace path was refused. */
export type WorkspaceErrorCode =
  'INVALID_INPUT' | 'NOT_FOUND' | 'OUTSIDE_WORKSPACE' | 'NO_TESTS' | 'LIMIT_EXCEEDED';

/**
 * Thrown when a caller names a path the kit must not touch (outside the workspace, missing, malformed).
 * Agents turn it into a rejected task with `message`, so the message is written for the requester.
 */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A target resolved to its real location, guaranteed to live inside the workspace root. */
export interface ResolvedTarget {
  /** Real path of the workspace root. */
  root: string;
  /** Real absolute path of the target. */
  absolute: string;
  /** Path relative to the root ('' when the target is the root itself), always with '/' separators. */
  relative: string;
  isDirectory: boolean;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves `target` (relative to `workspaceRoot`, or absolute) through realpath and refuses anything that
 * ends up outside the root: `..` segments, absolute paths elsewhere, and symlinks pointing out all fail.
 */
export async function resolveInWorkspace(
  workspaceRoot: string,
  target: string,
): Promise<ResolvedTarget> {
  if (typeof workspaceRoot !== 'string' || workspaceRoot.trim() === '') {
    throw new WorkspaceError('INVALID_INPUT', 'workspaceRoot must be a non-empty path');
  }
  if (typeof target !== 'string' || target.trim() === '' || target.includes('\0')) {
    throw new WorkspaceError(
      'INVALID_INPUT',
      'target must be a non-empty path without NUL characters',
    );
  }
  let root: string;
  try {
    root = await realpath(workspaceRoot);
  } catch {
    throw new WorkspaceError('NOT_FOUND', `workspace root does not exist: ${workspaceRoot}`);
  }
  const joined = path.resolve(root, target);
  // Check the lexical form first so `..` is refused even when the outside path does not exist.
  if (!isInside(root, joined) && !isInside(path.resolve(workspaceRoot), joined)) {
    throw new WorkspaceError(
      'OUTSIDE_WORKSPACE',
      `target "${target}" is outside the workspace root`,
    );
  }
  let absolute: string;
  try {
    absolute = await realpath(joined);
  } catch {
    throw new WorkspaceError('NOT_FOUND', `target "${target}" does not exist in the workspace`);
  }
  if (!isInside(root, absolute)) {
    throw new WorkspaceError(
      'OUTSIDE_WORKSPACE',
      `target "${target}" resolves outside the workspace root`,
    );
  }
  const st = await stat(absolute);
  return {
    root,
    absolute,
    relative: path.relative(root, absolute).split(path.sep).join('/'),
    isDirectory: st.isDirectory(),
  };
}

/** Bounds for {@link walkFiles}; every directory walk in the kit is finite. */
export interface WalkLimits {
  maxDepth: number;
  maxEntries: number;
  maxFiles: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = {
  maxDepth: 12,
  maxEntries: 20_000,
  maxFiles: 2_000,
};

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/**
 * Lists regular files under `dir` (relative '/' paths, sorted) accepted by `accept`. Symlinks are never
 * followed, so a link inside the workspace cannot lead the walk outside it. Throws LIMIT_EXCEEDED rather
 * than silently returning a partial list.
 */
export async function walkFiles(
  dir: string,
  accept: (relPath: string) => boolean,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
): Promise<string[]> {
  const out: string[] = [];
  let entries = 0;
  const queue: { abs: string; rel: string; depth: number }[] = [{ abs: dir, rel: '', depth: 0 }];
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next) break;
    const items = await readdir(next.abs, { withFileTypes: true });
    for (const item of items) {
      entries += 1;
      if (entries > limits.maxEntries) {
        throw new WorkspaceError(
          'LIMIT_EXCEEDED',
          `more than ${limits.maxEntries} entries under the target`,
        );
      }
      const rel = next.rel === '' ? item.name : `${next.rel}/${item.name}`;
      if (item.isDirectory()) {
        if (SKIPPED_DIRS.has(item.name) || item.name.startsWith('.')) continue;
        if (next.depth + 1 <= limits.maxDepth)
          queue.push({ abs: path.join(next.abs, item.name), rel, depth: next.depth + 1 });
      } else if (item.isFile() && accept(rel)) {
        out.push(rel);
        if (out.length > limits.maxFiles) {
          throw new WorkspaceError(
            'LIMIT_EXCEEDED',
            `more than ${limits.maxFiles} matching files under the target`,
          );
        }
      }
    }
  }
  return out.sort();
}
