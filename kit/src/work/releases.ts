import { mkdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_COPY_LIMITS,
  ReleaseError,
  contentHash,
  copyFiles,
  listSourceFiles,
  readLinkName,
  switchLink,
  tempSuffix,
  writeJsonAtomic,
} from './releases-fs.js';
import type { CopyLimits, CopyProgress, ManifestFile } from './releases-fs.js';

export { ReleaseError } from './releases-fs.js';
export type { CopyLimits, CopyProgress, ManifestFile, ReleaseErrorCode } from './releases-fs.js';

/** Where a release goes. */
export type ReleaseTarget = 'staging' | 'production';

export const RELEASE_TARGETS: readonly ReleaseTarget[] = ['staging', 'production'];

/** Written into every release directory; excluded from the copied source so it cannot be spoofed. */
export const MANIFEST_NAME = '.release-manifest.json';

/** What was published. */
export interface ReleaseManifest {
  version: string;
  target: ReleaseTarget;
  createdAt: string;
  contentHash: string;
  totalBytes: number;
  files: ManifestFile[];
}

/** A release as listed, newest last. */
export interface ReleaseInfo {
  version: string;
  createdAt: string;
  files: number;
  bytes: number;
  contentHash: string;
  current: boolean;
}

export interface PublishOptions {
  /** Directory holding the built project. */
  source: string;
  target: ReleaseTarget;
  /** Defaults to `<UTC timestamp>-<first 8 hex of the content hash>`. */
  version?: string;
  signal?: AbortSignal;
  onProgress?: (p: CopyProgress) => void;
}

export interface PublishResult {
  version: string;
  target: ReleaseTarget;
  /** Absolute path of the release directory. */
  path: string;
  previous: string | null;
  manifest: ReleaseManifest;
}

export interface ReleaseManagerOptions {
  /** When set, sources must resolve inside this directory. */
  sourceRoot?: string;
  /** Names skipped at any depth while copying (default `.git`, `node_modules`). */
  exclude?: string[];
  limits?: Partial<CopyLimits>;
}

interface History {
  releases: Omit<ReleaseInfo, 'current'>[];
  /** Versions in the order they became current; rollback walks back through it. */
  activations: string[];
}

const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
const MAX_ACTIVATIONS = 200;

/** A timestamp that sorts and is safe in a path: 20261202T150405Z. */
function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Versioned releases under `<root>/<target>/releases/<version>/` with an atomically switched
 * `<root>/<target>/current` symlink and a rollback history. Operations on one target are serialized
 * within this instance; run one manager per root.
 */
export class ReleaseManager {
  private readonly exclude: Set<string>;
  private readonly limits: CopyLimits;
  private readonly queues = new Map<ReleaseTarget, Promise<unknown>>();

  constructor(
    readonly root: string,
    private readonly opts: ReleaseManagerOptions = {},
  ) {
    if (typeof root !== 'string' || root.trim() === '')
      throw new ReleaseError('SOURCE_INVALID', 'releases root must be a non-empty path');
    this.exclude = new Set(opts.exclude ?? ['.git', 'node_modules']);
    this.limits = { ...DEFAULT_COPY_LIMITS, ...opts.limits };
  }

  /** Copies `source` into a new release and makes it current. Nothing is visible until it is complete. */
  async publish(opts: PublishOptions): Promise<PublishResult> {
    const target = checkTarget(opts.target);
    if (opts.version !== undefined) checkVersion(opts.version);
    return this.serialize(target, () => this.doPublish(target, opts));
  }

  /** Makes the release that was current before the present one current again. */
  async rollback(target: ReleaseTarget): Promise<{ from: string | null; to: string }> {
    const t = checkTarget(target);
    return this.serialize(t, async () => {
      const history = await this.readHistory(t);
      const from = await this.current(t);
      const stack = [...history.activations];
      while (
        stack.length > 0 &&
        (stack[stack.length - 1] === from ||
          !history.releases.some((r) => r.version === stack[stack.length - 1]))
      ) {
        stack.pop();
      }
      const to = stack[stack.length - 1];
      if (to === undefined)
        throw new ReleaseError('NO_PREVIOUS_RELEASE', `no earlier ${t} release to roll back to`);
      await switchLink(this.paths(t).current, `releases/${to}`);
      await writeJsonAtomic(this.paths(t).history, { ...history, activations: stack });
      return { from, to };
    });
  }

  /** Makes an existing release current (a roll-forward, or a jump to any kept version). */
  async activate(
    target: ReleaseTarget,
    version: string,
  ): Promise<{ from: string | null; to: string }> {
    const t = checkTarget(target);
    checkVersion(version);
    return this.serialize(t, async () => {
      const history = await this.readHistory(t);
      if (!history.releases.some((r) => r.version === version))
        throw new ReleaseError('UNKNOWN_VERSION', `no ${t} release "${version}"`);
      const from = await this.current(t);
      await switchLink(this.paths(t).current, `releases/${version}`);
      await writeJsonAtomic(this.paths(t).history, {
        ...history,
        activations: [...history.activations, version].slice(-MAX_ACTIVATIONS),
      });
      return { from, to: version };
    });
  }

  /** Releases of a target, oldest first, with the current one flagged. */
  async list(target: ReleaseTarget): Promise<ReleaseInfo[]> {
    const t = checkTarget(target);
    const [history, current] = await Promise.all([this.readHistory(t), this.current(t)]);
    return history.releases.map((r) => ({ ...r, current: r.version === current }));
  }

  /** The version `current` points at, or null before the first publish. */
  async current(target: ReleaseTarget): Promise<string | null> {
    return readLinkName(this.paths(checkTarget(target)).current);
  }

  /** The manifest written with a release. */
  async manifest(target: ReleaseTarget, version: string): Promise<ReleaseManifest> {
    const t = checkTarget(target);
    checkVersion(version);
    try {
      return JSON.parse(
        await readFile(path.join(this.paths(t).releases, version, MANIFEST_NAME), 'utf8'),
      ) as ReleaseManifest;
    } catch {
      throw new ReleaseError('UNKNOWN_VERSION', `no ${t} release "${version}"`);
    }
  }

  private paths(target: ReleaseTarget): {
    dir: string;
    releases: string;
    current: string;
    history: string;
  } {
    const dir = path.join(this.root, target);
    return {
      dir,
      releases: path.join(dir, 'releases'),
      current: path.join(dir, 'current'),
      history: path.join(dir, 'history.json'),
    };
  }

  private async doPublish(target: ReleaseTarget, opts: PublishOptions): Promise<PublishResult> {
    const p = this.paths(target);
    await mkdir(p.releases, { recursive: true });
    const source = await this.checkSource(opts.source);
    if (opts.version !== undefined) await refuseExisting(p.releases, opts.version, target);
    const { files, bytes } = await listSourceFiles(
      source,
      this.exclude,
      new Set([MANIFEST_NAME]),
      this.limits,
    );
    if (files.length === 0)
      throw new ReleaseError('SOURCE_INVALID', 'source directory has no files to publish');
    // Build the release beside its final place and rename it in at the end, so an abort or a crash
    // leaves at most a dot-named temp directory that list() ignores, never a half release.
    const tmp = path.join(p.releases, `.tmp-${tempSuffix()}`);
    await mkdir(tmp);
    try {
      const copied = await copyFiles(source, tmp, files, opts.signal, opts.onProgress);
      const now = new Date();
      const hash = contentHash(copied);
      const version = opts.version ?? `${stamp(now)}-${hash.slice(0, 8)}`;
      const manifest: ReleaseManifest = {
        version,
        target,
        createdAt: now.toISOString(),
        contentHash: hash,
        totalBytes: bytes,
        files: copied,
      };
      await writeJsonAtomic(path.join(tmp, MANIFEST_NAME), manifest);
      if (opts.signal?.aborted)
        throw new ReleaseError('ABORTED', 'publish was canceled before it completed');
      await refuseExisting(p.releases, version, target);
      const finalDir = path.join(p.releases, version);
      await rename(tmp, finalDir);
      // Past this point the release exists; finish the switch even if the caller cancels now.
      const history = await this.readHistory(target);
      const previous = await this.current(target);
      history.releases.push({
        version,
        createdAt: manifest.createdAt,
        files: copied.length,
        bytes,
        contentHash: hash,
      });
      history.activations = [...history.activations, version].slice(-MAX_ACTIVATIONS);
      // Link before history: if we stop in between, rollback still finds the true previous release.
      await switchLink(p.current, `releases/${version}`);
      await writeJsonAtomic(p.history, history);
      return { version, target, path: finalDir, previous, manifest };
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  private async checkSource(source: string): Promise<string> {
    if (typeof source !== 'string' || source.trim() === '' || source.includes('\0')) {
      throw new ReleaseError('SOURCE_INVALID', 'source must be a non-empty directory path');
    }
    let real: string;
    try {
      real = await realpath(source);
    } catch {
      throw new ReleaseError('SOURCE_INVALID', `source "${source}" does not exist`);
    }
    if (!(await stat(real)).isDirectory())
      throw new ReleaseError('SOURCE_INVALID', `source "${source}" is not a directory`);
    if (this.opts.sourceRoot !== undefined && !inside(await realpath(this.opts.sourceRoot), real)) {
      throw new ReleaseError(
        'SOURCE_INVALID',
        `source "${source}" is outside the allowed source root`,
      );
    }
    const root = await realpath(this.root);
    if (inside(root, real) || inside(real, root)) {
      throw new ReleaseError(
        'SOURCE_INVALID',
        'source and releases root must not contain each other',
      );
    }
    return real;
  }

  private async readHistory(target: ReleaseTarget): Promise<History> {
    try {
      const parsed = JSON.parse(
        await readFile(this.paths(target).history, 'utf8'),
      ) as Partial<History>;
      return {
        releases: Array.isArray(parsed.releases) ? parsed.releases : [],
        activations: Array.isArray(parsed.activations) ? parsed.activations : [],
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return { releases: [], activations: [] };
      throw err;
    }
  }

  private serialize<T>(target: ReleaseTarget, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(target) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    this.queues.set(
      target,
      run.catch(() => undefined),
    );
    return run;
  }
}

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function checkTarget(target: unknown): ReleaseTarget {
  if (target === 'staging' || target === 'production') return target;
  throw new ReleaseError(
    'INVALID_TARGET',
    `target must be one of ${RELEASE_TARGETS.join(', ')}; got ${JSON.stringify(target)}`,
  );
}

function checkVersion(version: unknown): void {
  if (typeof version !== 'string' || !VERSION.test(version)) {
    throw new ReleaseError(
      'INVALID_VERSION',
      'version must be 1–64 characters of letters, digits, ".", "_", "+", "-", starting with a letter or digit',
    );
  }
}

async function refuseExisting(
  releasesDir: string,
  version: string,
  target: ReleaseTarget,
): Promise<void> {
  try {
    await stat(path.join(releasesDir, version));
  } catch {
    return;
  }
  throw new ReleaseError(
    'VERSION_EXISTS',
    `${target} release "${version}" already exists; pick a new version`,
  );
}
