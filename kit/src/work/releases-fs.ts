import { createHash, randomBytes } from 'node:crypto';
import {
  mkdir,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';

/** Why the release manager refused or stopped. */
export type ReleaseErrorCode =
  | 'INVALID_TARGET'
  | 'INVALID_VERSION'
  | 'VERSION_EXISTS'
  | 'UNKNOWN_VERSION'
  | 'SOURCE_INVALID'
  | 'NO_PREVIOUS_RELEASE'
  | 'LIMIT_EXCEEDED'
  | 'ABORTED';

/** Typed failure of a release operation; `message` is meant for the requester. */
export class ReleaseError extends Error {
  override readonly name = 'ReleaseError';
  constructor(
    readonly code: ReleaseErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** One file of a release, as recorded in its manifest. */
export interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
}

/** Bounds on what one publish may copy. */
export interface CopyLimits {
  maxFiles: number;
  maxBytes: number;
  maxFileBytes: number;
  maxDepth: number;
}

export const DEFAULT_COPY_LIMITS: CopyLimits = {
  maxFiles: 10_000,
  maxBytes: 256 * 1024 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
  maxDepth: 32,
};

/** Progress while a release is copied. */
export interface CopyProgress {
  file: string;
  copiedFiles: number;
  totalFiles: number;
  bytes: number;
}

/**
 * Lists what a publish will copy: regular files only (symlinks are skipped so a release can never point
 * back outside itself), `exclude` names skipped at any depth, `topLevelExclude` only at the top.
 */
export async function listSourceFiles(
  source: string,
  exclude: ReadonlySet<string>,
  topLevelExclude: ReadonlySet<string>,
  limits: CopyLimits,
): Promise<{ files: string[]; bytes: number }> {
  const files: string[] = [];
  let bytes = 0;
  const queue: { abs: string; rel: string; depth: number }[] = [{ abs: source, rel: '', depth: 0 }];
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next) break;
    for (const item of await readdir(next.abs, { withFileTypes: true })) {
      if (exclude.has(item.name) || (next.rel === '' && topLevelExclude.has(item.name))) continue;
      const rel = next.rel === '' ? item.name : `${next.rel}/${item.name}`;
      const abs = path.join(next.abs, item.name);
      if (item.isDirectory()) {
        if (next.depth + 1 > limits.maxDepth)
          throw new ReleaseError(
            'LIMIT_EXCEEDED',
            `source is nested deeper than ${limits.maxDepth} levels`,
          );
        queue.push({ abs, rel, depth: next.depth + 1 });
      } else if (item.isFile()) {
        const size = (await stat(abs)).size;
        if (size > limits.maxFileBytes)
          throw new ReleaseError(
            'LIMIT_EXCEEDED',
            `"${rel}" is larger than ${limits.maxFileBytes} bytes`,
          );
        bytes += size;
        files.push(rel);
        if (files.length > limits.maxFiles)
          throw new ReleaseError('LIMIT_EXCEEDED', `source has more than ${limits.maxFiles} files`);
        if (bytes > limits.maxBytes)
          throw new ReleaseError(
            'LIMIT_EXCEEDED',
            `source is larger than ${limits.maxBytes} bytes`,
          );
      }
    }
  }
  return { files: files.sort(), bytes };
}

/** Copies `files` from `source` into `dest`, hashing as it goes; stops with ABORTED between files. */
export async function copyFiles(
  source: string,
  dest: string,
  files: string[],
  signal: AbortSignal | undefined,
  onProgress: ((p: CopyProgress) => void) | undefined,
): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  let bytes = 0;
  for (const rel of files) {
    if (signal?.aborted)
      throw new ReleaseError('ABORTED', 'publish was canceled before it completed');
    const data = await readFile(path.join(source, rel));
    const to = path.join(dest, rel);
    await mkdir(path.dirname(to), { recursive: true });
    await writeFile(to, data, { flag: 'wx' });
    bytes += data.length;
    out.push({
      path: rel,
      sha256: createHash('sha256').update(data).digest('hex'),
      size: data.length,
    });
    onProgress?.({ file: rel, copiedFiles: out.length, totalFiles: files.length, bytes });
  }
  if (signal?.aborted)
    throw new ReleaseError('ABORTED', 'publish was canceled before it completed');
  return out;
}

/** A digest of the release content (paths and file hashes), independent of timestamps. */
export function contentHash(files: ManifestFile[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1)))
    h.update(`${f.path}\0${f.sha256}\n`);
  return h.digest('hex');
}

/** A short random suffix for temp names that must not collide between concurrent writers. */
export function tempSuffix(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Writes JSON so readers see either the old or the new document, never half of one. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const tmp = `${file}.tmp-${tempSuffix()}`;
  try {
    await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { flag: 'wx' });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Points `link` at `targetRel` atomically: a fresh symlink renamed over the old one. */
export async function switchLink(link: string, targetRel: string): Promise<void> {
  const tmp = path.join(path.dirname(link), `.${path.basename(link)}-${tempSuffix()}`);
  await symlink(targetRel, tmp);
  try {
    await rename(tmp, link);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The last path segment the link points at, or null when the link does not exist. */
export async function readLinkName(link: string): Promise<string | null> {
  try {
    return path.basename(await readlink(link));
  } catch {
    return null;
  }
}
