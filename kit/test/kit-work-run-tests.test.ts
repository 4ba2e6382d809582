import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_NICE, WorkspaceError, runTests } from '../src/work/index.js';
import type { RunTestsProgress } from '../src/work/index.js';

const samples = fileURLToPath(new URL('../../samples', import.meta.url));

/** True while any live (non-zombie) process belongs to process group `pgid`. */
async function groupAlive(pgid: number): Promise<boolean> {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

async function waitFor(check: () => Promise<boolean>, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries; i += 1) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** A workspace whose only test records its pid, starts a grandchild, and then never finishes. */
async function hangingWorkspace(): Promise<string> {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-hang-'));
  await mkdir(path.join(ws, 'proj', 'test'), { recursive: true });
  await writeFile(path.join(ws, 'proj', 'package.json'), '{"type":"module"}\n');
  await writeFile(
    path.join(ws, 'proj', 'test', 'hang.test.js'),
    `import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
test('hangs forever', async () => {
  const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(${JSON.stringify(path.join(ws, 'pids'))}, process.pid + ' ' + sleeper.pid);
  await new Promise(() => setInterval(() => {}, 1000));
});
`,
  );
  return ws;
}

test('run-tests: change-ok sample passes all 8 tests', async () => {
  const events: RunTestsProgress[] = [];
  const r = await runTests({
    workspaceRoot: samples,
    target: 'change-ok',
    timeoutMs: 60_000,
    onProgress: (e) => events.push(e),
  });
  assert.equal(r.passed, 8);
  assert.equal(r.failed, 0);
  assert.equal(r.skipped, 0);
  assert.deepEqual(r.failures, []);
  assert.equal(r.exitCode, 0);
  assert.equal(r.timedOut, false);
  assert.equal(r.canceled, false);
  assert.deepEqual(r.files, ['change-ok/test/math.test.js', 'change-ok/test/text.test.js']);
  assert.equal(events[0]?.kind, 'start');
  assert.equal(events.at(-1)?.kind, 'end');
  assert.equal(events.filter((e) => e.kind === 'test' && e.status === 'pass').length, 8);
});

test('run-tests: change-broken sample reports its two failures', async () => {
  const r = await runTests({
    workspaceRoot: samples,
    target: path.join(samples, 'change-broken'),
    timeoutMs: 60_000,
  });
  assert.equal(r.passed, 6);
  assert.equal(r.failed, 2);
  assert.equal(r.exitCode, 1);
  assert.deepEqual(r.failures.map((f) => f.name).sort(), [
    'clamp keeps values inside the range',
    'truncate cuts long text with an ellipsis',
  ]);
  assert.equal(
    r.failures.find((f) => f.name.startsWith('clamp'))?.file,
    'change-broken/test/math.test.js',
  );
  assert.ok(r.failures.every((f) => f.message.includes('Expected values to be strictly equal')));
});

test('run-tests: a single file target, skips, suites and a file that does not load', async (t) => {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-rt-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  await mkdir(path.join(ws, 'test'));
  await writeFile(path.join(ws, 'package.json'), '{"type":"module"}\n');
  await writeFile(
    path.join(ws, 'test', 'mixed.test.js'),
    `import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
console.log('noise on stdout must not confuse the parser');
test('skipped', { skip: true }, () => {});
describe('group', () => { test('inner ok', () => {}); test('inner bad', () => assert.ok(false, 'boom')); });
test('parent', async (t) => { await t.test('child', () => {}); });
`,
  );
  await writeFile(path.join(ws, 'test', 'broken.test.js'), 'this is not javascript (\n');
  const one = await runTests({
    workspaceRoot: ws,
    target: 'test/mixed.test.js',
    timeoutMs: 60_000,
  });
  assert.deepEqual([one.passed, one.failed, one.skipped], [2, 1, 1]);
  assert.deepEqual(
    one.failures.map((f) => [f.name, f.message]),
    [['inner bad', 'boom']],
  );
  const all = await runTests({ workspaceRoot: ws, target: '.', timeoutMs: 60_000 });
  assert.equal(all.failed, 2);
  const load = all.failures.find((f) => f.file === 'test/broken.test.js');
  assert.ok(load, 'the unloadable file is reported as a failure');
  assert.match(load.message, /SyntaxError/);
});

test('run-tests: the run gives way to the agents: its test processes run at BACKGROUND_NICE', async (t) => {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-nice-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  await mkdir(path.join(ws, 'test'));
  await writeFile(path.join(ws, 'package.json'), '{"type":"module"}\n');
  await writeFile(
    path.join(ws, 'test', 'nice.test.js'),
    `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
test('priority', () => assert.equal(getPriority(), ${Math.min(19, os.getPriority() + BACKGROUND_NICE)}));
`,
  );
  const before = os.getPriority();
  const r = await runTests({ workspaceRoot: ws, target: '.', timeoutMs: 60_000 });
  assert.deepEqual([r.passed, r.failed], [1, 0], JSON.stringify(r.failures));
  assert.equal(os.getPriority(), before, 'the agents keep their priority');
});

test('run-tests: refuses targets outside the workspace, missing paths and symlink escapes', async (t) => {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-ws-'));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'kit-outside-'));
  t.after(async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });
  await writeFile(path.join(outside, 'evil.test.js'), 'process.exit(0);\n');
  await symlink(outside, path.join(ws, 'escape'));
  await writeFile(path.join(ws, 'notes.txt'), 'hello');
  const cases: [string, string][] = [
    ['../', 'OUTSIDE_WORKSPACE'],
    ['../../etc', 'OUTSIDE_WORKSPACE'],
    [outside, 'OUTSIDE_WORKSPACE'],
    ['escape', 'OUTSIDE_WORKSPACE'],
    ['escape/evil.test.js', 'OUTSIDE_WORKSPACE'],
    ['missing/dir', 'NOT_FOUND'],
    ['', 'INVALID_INPUT'],
    ['notes.txt', 'INVALID_INPUT'],
    ['.', 'NO_TESTS'],
  ];
  for (const [target, code] of cases) {
    await assert.rejects(
      runTests({ workspaceRoot: ws, target, timeoutMs: 5_000 }),
      (err: unknown) => {
        assert.ok(err instanceof WorkspaceError, `${target}: ${String(err)}`);
        assert.equal(err.code, code, `${target}: ${err.message}`);
        return true;
      },
    );
  }
  await assert.rejects(runTests({ workspaceRoot: ws, target: '.', timeoutMs: 0 }), WorkspaceError);
});

test('run-tests: timeout kills the whole process group of a hanging run', async (t) => {
  const ws = await hangingWorkspace();
  t.after(() => rm(ws, { recursive: true, force: true }));
  let pgid: number | undefined;
  const r = await runTests({
    workspaceRoot: ws,
    target: 'proj',
    // Long enough for the hanging test to start (and write its pids) on a loaded machine.
    timeoutMs: 8_000,
    onProgress: (e) => {
      if (e.kind === 'start') pgid = e.pid;
    },
  });
  assert.equal(r.timedOut, true);
  assert.equal(r.canceled, false);
  assert.equal(r.exitCode, null);
  assert.ok(pgid !== undefined);
  assert.ok(
    await waitFor(async () => !(await groupAlive(pgid as number))),
    'process group is gone',
  );
  const pids = (await readFile(path.join(ws, 'pids'), 'utf8')).split(' ').map(Number);
  assert.equal(pids.length, 2, 'the hanging test started (test process and its grandchild)');
});

test('run-tests: abort signal cancels the run and kills the process group', async (t) => {
  const ws = await hangingWorkspace();
  t.after(() => rm(ws, { recursive: true, force: true }));
  const ac = new AbortController();
  let pgid: number | undefined;
  const run = runTests({
    workspaceRoot: ws,
    target: 'proj',
    timeoutMs: 120_000,
    signal: ac.signal,
    onProgress: (e) => {
      if (e.kind === 'start') pgid = e.pid;
    },
  });
  assert.ok(await waitFor(async () => existsSync(path.join(ws, 'pids'))), 'hanging test started');
  assert.equal(await groupAlive(pgid as number), true, 'the probe sees the running group');
  ac.abort();
  const r = await run;
  assert.equal(r.canceled, true);
  assert.equal(r.timedOut, false);
  assert.ok(
    await waitFor(async () => !(await groupAlive(pgid as number))),
    'process group is gone',
  );

  const pre = await runTests({
    workspaceRoot: ws,
    target: 'proj',
    timeoutMs: 5_000,
    signal: AbortSignal.abort(),
  });
  assert.equal(pre.canceled, true);
  assert.equal(pre.passed + pre.failed, 0);
});

test('run-tests: the env option replaces the environment the tests see', async (t) => {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-env-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  await writeFile(
    path.join(ws, 'env.test.mjs'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n" +
      "test('sees only the given env', () => {\n  assert.equal(process.env.KIT_MARK, 'given');\n  assert.equal(process.env.KIT_SECRET, undefined);\n});\n",
  );
  process.env.KIT_SECRET = 'do-not-leak';
  t.after(() => {
    delete process.env.KIT_SECRET;
  });
  const r = await runTests({
    workspaceRoot: ws,
    target: 'env.test.mjs',
    timeoutMs: 60_000,
    env: { PATH: process.env.PATH, KIT_MARK: 'given' },
  });
  assert.deepEqual([r.passed, r.failed], [1, 0]);
});

test('run-tests: a test file named like a node flag is run as a file, not parsed as an option', async (t) => {
  const ws = await mkdtemp(path.join(os.tmpdir(), 'kit-flag-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  await writeFile(
    path.join(ws, '--test-name-pattern=zzz.test.mjs'),
    "import { test } from 'node:test';\ntest('ran as a file', () => {});\n",
  );
  const r = await runTests({ workspaceRoot: ws, target: '.', timeoutMs: 60_000 });
  assert.deepEqual([r.passed, r.failed, r.files], [1, 0, ['--test-name-pattern=zzz.test.mjs']]);
});
