/**
 * A test run never outlives the process that started it: after `kill -9` of the agents' process no test
 * process keeps running and no temporary folder stays behind; folders a crash left are removed at the next
 * start; finished and aborted runs take their folder along.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RUN_FOLDER_PREFIX, cleanStaleRunFolders, runTests } from '../src/work/index.js';

const READY_MS = 90_000; // the agents' process loads the TypeScript compiler before it listens
const BOUND_MS = 30_000;

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

async function until(
  check: () => boolean | Promise<boolean>,
  boundMs = BOUND_MS,
): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (let i = 0; i < 10_000 && Date.now() < deadline; i += 1) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

async function runFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.startsWith(RUN_FOLDER_PREFIX));
}

/** A workspace whose test writes its pid and a grandchild's pid to `pidFile`, then waits forever. */
async function hangingWorkspace(root: string, pidFile: string): Promise<string> {
  const ws = path.join(root, 'workspace');
  await mkdir(path.join(ws, 'hang', 'test'), { recursive: true });
  await writeFile(path.join(ws, 'hang', 'package.json'), '{"type":"module"}\n');
  await writeFile(
    path.join(ws, 'hang', 'test', 'hang.test.js'),
    `import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
test('waits until it is killed', async () => {
  const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(${JSON.stringify(pidFile)}, process.pid + ' ' + sleeper.pid);
  await new Promise(() => setInterval(() => {}, 1000));
});
`,
  );
  return ws;
}

test('kill -9 of the agents process: its test processes die and the run folder is removed', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kit-kill9-'));
  const tmp = path.join(dir, 'tmp');
  await mkdir(tmp);
  const pidFile = path.join(dir, 'pids');
  const ws = await hangingWorkspace(dir, pidFile);
  let pids: number[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: tmp,
    DEPLOYER_TOKEN: 'kill9-token-0123456789abcdef',
    LOG_LEVEL: 'warn',
  };
  delete env.NODE_TEST_CONTEXT;
  const agents = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'kit/src/cli/agents.ts',
      '--ports',
      '0,0,0',
      '--work-dir',
      path.join(dir, 'work'),
      '--workspace',
      ws,
      '--memory',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(async () => {
    if (agents.exitCode === null && agents.signalCode === null) agents.kill('SIGKILL');
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  let out = '';
  let err = '';
  agents.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  agents.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  assert.ok(
    await until(() => out.includes('Press Ctrl-C') || agents.exitCode !== null, READY_MS),
    `the agents did not come up:\n${out}\n${err}`,
  );
  const origin = /test-runner\s+\S+\s+\(listening on (\S+)\)/.exec(out)?.[1];
  assert.ok(origin, out);

  const r = await fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: 'kill9-run',
          role: 'ROLE_USER',
          parts: [{ text: 'run tests in hang' }],
        },
        configuration: { returnImmediately: true },
      },
    }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  assert.equal(r.status, 200);
  assert.ok(
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').split(' ').length === 2),
    `the hanging test never started:\n${err}`,
  );
  pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
  assert.ok(pids.every(alive), 'the test process and its grandchild run');
  assert.equal((await runFolders(tmp)).length, 1, 'the run has its temporary folder');

  agents.kill('SIGKILL');
  assert.ok(
    await until(() => pids.every((p) => !alive(p))),
    `test processes outlived the agents: ${pids.filter(alive).join(', ')}`,
  );
  assert.ok(
    await until(async () => (await runFolders(tmp)).length === 0),
    `run folders left behind: ${(await runFolders(tmp)).join(', ')}`,
  );
});

test("folders left by a crashed owner are removed before the first run; a live owner's stay; runs leave none", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kit-stale-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const tmp = path.join(dir, 'tmp');
  await mkdir(tmp);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  const deadPid = Number(dead.stdout);
  assert.ok(deadPid > 0 && !alive(deadPid));
  const stale = path.join(tmp, `${RUN_FOLDER_PREFIX}${deadPid}-AbC123`);
  const liveOwner = path.join(tmp, `${RUN_FOLDER_PREFIX}${process.ppid}-XyZ789`); // the test runner: alive, not this process
  const unrelated = path.join(tmp, 'kit-reporter-notes');
  for (const d of [stale, liveOwner, unrelated]) await mkdir(d);
  await writeFile(path.join(stale, 'reporter.mjs'), '// left by a crash\n');

  const ws = path.join(dir, 'ws');
  await mkdir(path.join(ws, 'test'), { recursive: true });
  await writeFile(path.join(ws, 'test', 'ok.test.js'), "require('node:test')('ok', () => {});\n");
  const r = await runTests({ workspaceRoot: ws, target: '.', timeoutMs: BOUND_MS, tempDir: tmp });
  assert.equal(r.passed, 1);
  assert.deepEqual(
    (await readdir(tmp)).sort(),
    [path.basename(unrelated), path.basename(liveOwner)].sort(),
  );

  // An aborted run removes its folder too.
  await writeFile(
    path.join(ws, 'test', 'slow.test.js'),
    "require('node:test')('slow', () => new Promise((r) => setTimeout(r, 600000)));\n",
  );
  const ac = new AbortController();
  const run = runTests({
    workspaceRoot: ws,
    target: '.',
    timeoutMs: BOUND_MS,
    tempDir: tmp,
    signal: ac.signal,
    onProgress: (e) => e.kind === 'start' && ac.abort(),
  });
  const aborted = await run;
  assert.equal(aborted.canceled, true);
  assert.deepEqual(
    (await readdir(tmp)).sort(),
    [path.basename(unrelated), path.basename(liveOwner)].sort(),
  );

  // A later sweep leaves a live owner's folder alone.
  assert.deepEqual(await cleanStaleRunFolders(tmp), []);
});
