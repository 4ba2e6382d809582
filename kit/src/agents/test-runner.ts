/**
 * The test-runner agent: runs a workspace project's tests with Node's test runner, one WORKING update per
 * finished test, and answers with a `test-results` artifact (text summary + data part). Failing tests are
 * a result, so the task COMPLETES with `failed > 0`; a run that could not execute FAILS; a path outside
 * the workspace is REJECTED.
 */
import {
  cleanStaleRunFoldersOnce,
  runTests,
  WorkspaceError,
  type RunTestsProgress,
  type RunTestsResult,
} from '../work/index.js';
import { silentLogger, type AgentExecutor, type Logger } from 'a2a-kit/server';
import type { JsonObject } from 'a2a-kit';
import { childEnv, guarded, inbound, stringField, unquote } from './common.js';
import { testTargetText } from './sentences.js';

/** Settings of the test-runner agent. */
export interface TestRunnerOptions {
  /** Directory the agent may run tests in; every requested path must resolve inside it. */
  workspaceRoot: string;
  /** Wall-clock limit of one run. Default 60 s. */
  timeoutMs?: number;
  logger?: Logger;
  /** Environment of the test processes. Default: a minimal one without this process's secrets. */
  env?: NodeJS.ProcessEnv;
  /**
   * Where each run's temporary folder goes. Default `os.tmpdir()`. Folders left there by a process that
   * crashed are removed when the executor is created.
   */
  tempDir?: string;
}

/** What the agent answers when it cannot tell what is asked. */
export const TEST_RUNNER_USAGE =
  'I run a project\'s tests. Send a data part {"path": "<directory in my workspace>"} or the text ' +
  '"run tests in <directory>", e.g. "run tests in change-ok".';

/** The directory (or test file) a message asks to test, if any. */
export function testTargetOf(message: Parameters<AgentExecutor>[0]['message']): string | undefined {
  const { text, data } = inbound(message);
  const fromData = stringField(data, 'path', 'dir', 'directory', 'target');
  if (fromData) return fromData;
  const target = testTargetText(text);
  return target ? unquote(target) : undefined;
}

/**
 * The test-runner's executor. Its test processes never outlive the agent (they die with it, even after
 * `kill -9`), and creating it clears temporary folders a crashed predecessor left behind.
 */
export function testRunnerExecutor(opts: TestRunnerOptions): AgentExecutor {
  const logger = opts.logger ?? silentLogger;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  void cleanStaleRunFoldersOnce(opts.tempDir).then((removed) => {
    if (removed.length > 0)
      logger.info(
        { removed },
        'removed temporary folders of test runs a previous process left behind',
      );
  });
  return guarded('test-runner', logger, async (ctx, task) => {
    const target = testTargetOf(ctx.message);
    if (!target) return task.reply(TEST_RUNNER_USAGE);
    let result: RunTestsResult;
    try {
      result = await runTests({
        workspaceRoot: opts.workspaceRoot,
        target,
        timeoutMs,
        signal: ctx.signal,
        env: opts.env ?? childEnv(),
        ...(opts.tempDir !== undefined ? { tempDir: opts.tempDir } : {}),
        onProgress: (ev) => progress(task, target, ev),
      });
    } catch (err) {
      if (err instanceof WorkspaceError)
        return task.reject(`Cannot run tests in "${target}": ${err.message}`);
      throw err;
    }
    if (result.canceled || ctx.signal.aborted) return; // the task is already CANCELED
    logger.info(
      { taskId: task.taskId, target, passed: result.passed, failed: result.failed },
      'test run finished',
    );
    const ran = result.passed + result.failed + result.skipped;
    task.addArtifact({
      name: 'test-results',
      description: `Results of the tests in ${target}`,
      parts: [{ text: summary(target, result, timeoutMs) }, { data: resultData(target, result) }],
    });
    if (result.timedOut)
      return task.fail(
        `The tests in ${target} did not finish within ${seconds(timeoutMs)} s and were stopped.`,
      );
    if (ran === 0 && result.exitCode !== 0) {
      const tail = result.stderr.trim().split('\n').slice(-5).join('\n');
      return task.fail(
        `The test runner could not run the tests in ${target}${tail ? `:\n${tail}` : '.'}`,
      );
    }
    task.complete(
      result.failed > 0
        ? `${result.failed} of ${ran} tests failed in ${target}.`
        : `All ${result.passed} tests passed in ${target}${result.skipped ? ` (${result.skipped} skipped)` : ''}.`,
    );
  });
}

function progress(task: Parameters<AgentExecutor>[1], target: string, ev: RunTestsProgress): void {
  if (ev.kind === 'start') {
    task.working({
      parts: [
        { text: `Running ${ev.files.length} test file(s) in ${target}` },
        { data: { event: 'start', files: ev.files } },
      ],
    });
  } else if (ev.kind === 'test') {
    const mark = ev.status === 'pass' ? 'pass' : ev.status === 'fail' ? 'FAIL' : 'skip';
    const where = ev.file ? ` (${ev.file})` : '';
    const data: JsonObject = { event: 'test', name: ev.name, status: ev.status };
    if (ev.file) data.file = ev.file;
    if (ev.durationMs !== undefined) data.durationMs = Math.round(ev.durationMs * 10) / 10;
    if (ev.message) data.message = ev.message;
    task.working({
      parts: [
        { text: `${mark} ${ev.name}${where}${ev.message ? ` — ${ev.message}` : ''}` },
        { data },
      ],
    });
  }
}

function resultData(target: string, r: RunTestsResult): JsonObject {
  return {
    path: target,
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped,
    durationMs: Math.round(r.durationMs),
    timedOut: r.timedOut,
    files: r.files,
    failures: r.failures.map((f) => {
      const o: JsonObject = { name: f.name, message: f.message };
      if (f.file) o.file = f.file;
      if (f.line !== undefined) o.line = f.line;
      return o;
    }),
  };
}

function summary(target: string, r: RunTestsResult, timeoutMs: number): string {
  const lines = [
    `${target}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped in ${(r.durationMs / 1000).toFixed(1)} s`,
  ];
  if (r.timedOut) lines.push(`Stopped after the ${seconds(timeoutMs)} s time limit.`);
  for (const f of r.failures) {
    const where = f.file ? ` (${f.file}${f.line !== undefined ? `:${f.line}` : ''})` : '';
    lines.push(`✗ ${f.name}${where}: ${oneLine(f.message)}`);
  }
  return lines.join('\n');
}

/** A multi-line assertion message folded into one short line for the summary. */
function oneLine(message: string): string {
  const flat = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
