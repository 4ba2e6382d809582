/**
 * Where the official TCK comes from and the Python it runs on. Nothing of the TCK is kept in this
 * repository: it is checked out at the pinned commit into a cache folder outside it, with a virtual
 * environment of its own, both reused by later runs.
 *
 * - The TCK's source: `A2A_TCK_DIR` (a clone of a2aproject/a2a-tck), else the machine's mirror of it.
 * - The cache: `A2A_KIT_CACHE`, else `~/.cache/a2a-kit`.
 * - Python packages come from the machine's package index (pip as configured), by name only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The TCK commit every run uses (a2aproject/a2a-tck `main`, 2026-03-13: `return_immediately`). */
export const TCK_COMMIT = '410ba92e1b264df895e1fe6eccfe22db7aeaab06';

/** The mirror this machine keeps of a2aproject/a2a-tck, used when `A2A_TCK_DIR` is not set. */
const MIRROR = '/work/.mirror/a2aproject+a2a-tck/repo';

/**
 * What the TCK imports (its pyproject names more: report and lint tools the runner does not use).
 * pytest-timeout is ours: every test gets a deadline, so no test can hold the run.
 */
const PACKAGES = [
  'pytest',
  'pytest-asyncio',
  'pytest-timeout',
  'httpx',
  'requests',
  'responses',
  'protobuf>=5.29',
  'grpcio',
  'googleapis-common-protos',
  'jsonschema',
  'aiohttp',
  'python-dotenv',
  'packaging',
  'pyyaml',
  'pyopenssl',
  'deepdiff',
];

/** The cache folder for everything fetched or installed for conformance runs. */
export function cacheDir() {
  return process.env.A2A_KIT_CACHE || join(homedir(), '.cache', 'a2a-kit');
}

/** The TCK's source repository, or undefined with the reason when there is none. */
export function tckSource() {
  const dir = process.env.A2A_TCK_DIR || MIRROR;
  if (!existsSync(dir)) {
    return {
      problem:
        `no copy of the A2A TCK at ${dir}: set A2A_TCK_DIR to a clone of a2aproject/a2a-tck ` +
        `(commit ${TCK_COMMIT.slice(0, 7)} is used)`,
    };
  }
  return { dir };
}

const git = (args, cwd) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' }).trim();

/** A checkout of the pinned commit in the cache (made once); returns its folder. */
export function checkout(source) {
  const dir = join(cacheDir(), `a2a-tck-${TCK_COMMIT.slice(0, 12)}`);
  if (existsSync(join(dir, 'run_tck.py'))) {
    try {
      if (git(['rev-parse', 'HEAD'], dir) === TCK_COMMIT) return dir;
    } catch {
      // not a usable checkout: made again below
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(cacheDir(), { recursive: true });
  git(['clone', '--quiet', '--no-checkout', source, dir]);
  git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', TCK_COMMIT], dir);
  return dir;
}

/** The checkout's virtual environment with {@link PACKAGES} (made once per package list); returns its python. */
export function venv(dir, log) {
  const env = join(dir, '.venv-a2a-kit');
  const python = join(env, 'bin', 'python');
  const stamp = join(env, 'a2a-kit-packages');
  const want = createHash('sha256').update(PACKAGES.join('\n')).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return python;
  log(`creating the TCK's Python environment in ${env}`);
  rmSync(env, { recursive: true, force: true });
  run('python3', ['-m', 'venv', env]);
  // --retries 0: an index this machine cannot reach fails at once instead of after minutes.
  run(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', ...PACKAGES]);
  writeFileSync(stamp, want);
  return python;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.slice(0, 4).join(' ')} … failed (${r.error?.message ?? r.status})`,
    );
  }
}
