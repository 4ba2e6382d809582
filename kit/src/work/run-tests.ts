import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runInBackground } from './background.js';
import { REPORTER_SOURCE, TestEventTally, parseEventLine } from './test-events.js';
import {
  SUPERVISOR_SOURCE,
  cleanStaleRunFoldersOnce,
  createRunFolder,
  killRunGroup,
  removeRunFolder,
  trackRun,
} from './run-guard.js';
import type { TestFailure, TestOutcome } from './test-events.js';
import { WorkspaceError, resolveInWorkspace, walkFiles } from './workspace.js';

export type { TestFailure, TestOutcome } from './test-events.js';

/** Progress events streamed while tests run. */
export type RunTestsProgress =
  | { kind: 'start'; files: string[]; pid: number | undefined }
  | ({ kind: 'test' } & TestOutcome)
  | { kind: 'end'; timedOut: boolean; canceled: boolean; exitCode: number | null };

/** Options for {@link runTests}. */
export interface RunTestsOptions {
  /** Directory the runner may touch; the target must resolve inside it. */
  workspaceRoot: string;
  /** Directory or test file, relative to the root or absolute inside it. */
  target: string;
  /** Wall-clock limit for the whole run; the process group is killed when it passes. */
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (ev: RunTestsProgress) => void;
  /**
   * Environment for the test processes (default: this process's). Tests run arbitrary workspace code,
   * so an agent holding secrets in its environment should pass a trimmed one.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Where the run's temporary folder (reporter and supervisor scripts) goes. Default `os.tmpdir()`.
   * Folders a crashed process left here are removed before the first run of this process.
   */
  tempDir?: string;
}

/** Outcome of a run. Test failures are data here, never exceptions. */
export interface RunTestsResult {
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  failures: TestFailure[];
  timedOut: boolean;
  canceled: boolean;
  /** Exit code of `node --test`; null when it was killed. */
  exitCode: number | null;
  /** Test files that were run, relative to the workspace root. */
  files: string[];
  /** Tail of the runner's own stderr (capped), useful when the runner itself failed. */
  stderr: string;
}

const TEST_FILE = /\.(?:c|m)?js$/;
const STDERR_CAP = 16_000;
const LINE_CAP = 64_000;
const MAX_TIMEOUT_MS = 60 * 60 * 1000;

/** Mirrors Node's default discovery patterns, so a directory target finds what `node --test` would. */
export function isTestFile(rel: string): boolean {
  if (!TEST_FILE.test(rel)) return false;
  const base = rel.slice(rel.lastIndexOf('/') + 1).replace(TEST_FILE, '');
  if (
    base === 'test' ||
    base.startsWith('test-') ||
    base.endsWith('.test') ||
    base.endsWith('-test') ||
    base.endsWith('_test')
  ) {
    return true;
  }
  return rel.split('/').slice(0, -1).includes('test');
}

/**
 * Runs a project's tests with Node's test runner, confined to `workspaceRoot`.
 *
 * Throws {@link WorkspaceError} for bad input only (target outside the root, missing, no test files).
 * The runner is spawned in its own process group, under a supervisor that kills the group when this process
 * dies (see run-guard.ts), so a timeout, an abort, an exit or a `kill -9` of the agent ends every test
 * process it started; the temporary folder goes with it.
 */
export async function runTests(opts: RunTestsOptions): Promise<RunTestsResult> {
  if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0 || opts.timeoutMs > MAX_TIMEOUT_MS) {
    throw new WorkspaceError('INVALID_INPUT', `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}`);
  }
  const target = await resolveInWorkspace(opts.workspaceRoot, opts.target);
  let cwd: string;
  let files: string[];
  if (target.isDirectory) {
    cwd = target.absolute;
    files = await walkFiles(target.absolute, isTestFile);
    if (files.length === 0) {
      throw new WorkspaceError(
        'NO_TESTS',
        `no test files (*.test.js, test/**/*.js, …) under "${opts.target}"`,
      );
    }
  } else {
    if (!TEST_FILE.test(target.absolute)) {
      throw new WorkspaceError(
        'INVALID_INPUT',
        `"${opts.target}" is not a JavaScript test file (.js, .mjs, .cjs)`,
      );
    }
    cwd = path.dirname(target.absolute);
    files = [path.basename(target.absolute)];
  }
  const relFiles = files.map((f) =>
    path.relative(target.root, path.join(cwd, f)).split(path.sep).join('/'),
  );
  const started = Date.now();
  const empty = { passed: 0, failed: 0, skipped: 0, failures: [], files: relFiles, stderr: '' };
  if (opts.signal?.aborted) {
    return { ...empty, durationMs: 0, timedOut: false, canceled: true, exitCode: null };
  }
  const tempRoot = opts.tempDir ?? os.tmpdir();
  await cleanStaleRunFoldersOnce(tempRoot);
  const tmp = await createRunFolder(tempRoot);
  try {
    const reporter = path.join(tmp, 'reporter.mjs');
    const supervisor = path.join(tmp, 'supervisor.cjs');
    await writeFile(reporter, REPORTER_SOURCE);
    await writeFile(supervisor, SUPERVISOR_SOURCE);
    const outcome = await spawnRunner(
      { cwd, root: target.root, tmp, reporter, supervisor, files, relFiles },
      opts,
    );
    return { ...outcome, durationMs: Date.now() - started, files: relFiles };
  } finally {
    await removeRunFolder(tmp);
  }
}

type SpawnOutcome = Omit<RunTestsResult, 'durationMs' | 'files'>;

interface RunnerSetup {
  cwd: string;
  root: string;
  tmp: string;
  reporter: string;
  supervisor: string;
  files: string[];
  relFiles: string[];
}

function spawnRunner(setup: RunnerSetup, opts: RunTestsOptions): Promise<SpawnOutcome> {
  const { cwd, root, tmp, reporter, supervisor, files, relFiles } = setup;
  const env = { ...(opts.env ?? process.env) };
  // Inside a `node --test` parent this variable makes the child speak the parent's internal protocol
  // and ignore our reporter.
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  // './' keeps a file named like a flag (`--inspect=….test.js`) from being read as one.
  const args = [
    '--test',
    `--test-reporter=${reporter}`,
    '--test-reporter-destination=stdout',
    ...files.map((f) => `./${f}`),
  ];
  // The supervisor leads the new group; its stdin is the pipe whose end tells it this process is gone.
  const child = spawn(process.execPath, [supervisor, tmp, ...args], {
    cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.on('error', () => undefined);
  // Before the supervisor starts the runner, so that the whole run (every test process) inherits it.
  if (child.pid !== undefined) runInBackground(child.pid);
  const untrack = child.pid !== undefined ? trackRun(child.pid, tmp) : () => undefined;
  const tally = new TestEventTally();
  let stderr = '';
  let pending = '';
  let timedOut = false;
  let canceled = false;
  const emit = (ev: RunTestsProgress): void => {
    try {
      opts.onProgress?.(ev);
    } catch {
      // A misbehaving listener must not break the run.
    }
  };
  const killGroup = (): void => {
    if (child.pid !== undefined) killRunGroup(child.pid);
  };
  const onLine = (line: string): void => {
    const ev = parseEventLine(line);
    if (!ev) return;
    const outcome = tally.add(ev);
    if (outcome)
      emit({
        kind: 'test',
        ...outcome,
        ...(outcome.file ? { file: relativeTo(root, outcome.file) } : {}),
      });
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
    if (pending.length > LINE_CAP) pending = '';
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_CAP);
  });
  emit({ kind: 'start', files: relFiles, pid: child.pid });
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, opts.timeoutMs);
  const onAbort = (): void => {
    canceled = true;
    killGroup();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort that came while the 'start' listener ran would otherwise be missed.
  if (opts.signal?.aborted) onAbort();
  return new Promise((resolve) => {
    let done = false;
    const finish = (exitCode: number | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // Test processes may outlive a runner that exited on its own; never leave them behind.
      killGroup();
      untrack();
      if (pending) onLine(pending);
      emit({ kind: 'end', timedOut, canceled, exitCode });
      const failures = tally.failures.map((f) =>
        f.file ? { ...f, file: relativeTo(root, f.file) } : f,
      );
      resolve({
        passed: tally.passed,
        failed: tally.failed,
        skipped: tally.skipped,
        failures,
        timedOut,
        canceled,
        exitCode,
        stderr,
      });
    };
    child.once('error', (err) => {
      stderr = (stderr + String(err)).slice(-STDERR_CAP);
      finish(null);
    });
    child.once('close', (code) => finish(code));
  });
}

function relativeTo(root: string, file: string): string {
  const abs = file.startsWith('file://') ? new URL(file).pathname : file;
  return path.isAbsolute(abs) ? path.relative(root, abs).split(path.sep).join('/') : abs;
}
