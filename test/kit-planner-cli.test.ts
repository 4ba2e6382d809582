/**
 * `npm start` / `npm run demo:broken` as a user runs them: the built demo in a child process, agents on
 * free ports (KIT_PORTS=0,0,0), work and workspace in a temp dir. Exit codes are the contract.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 180_000;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function demo(args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli/demo.js', ...args], {
      env: { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo ${args.join(' ')} did not finish in ${BOUND_MS} ms\n${stdout}\n${stderr}`));
    }, BOUND_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('demo CLI', { timeout: 4 * BOUND_MS }, () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    const built = spawnSync('npm', ['run', 'build'], { encoding: 'utf8', timeout: BOUND_MS });
    assert.equal(built.status, 0, `build failed: ${built.stdout}\n${built.stderr}`);
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-demo-'));
    const workspace = path.join(dir, 'samples');
    for (const s of ['change-ok', 'change-broken']) cpSync(path.join('samples', s), path.join(workspace, s), { recursive: true });
    env = { KIT_PORTS: '0,0,0', KIT_WORK_DIR: path.join(dir, 'work'), KIT_WORKSPACE: workspace };
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('node dist/cli/demo.js deploys change-ok and exits 0', async () => {
    const r = await demo([], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /skill map: run-tests → test-runner, review-code → code-reviewer, deploy → deployer/);
    assert.match(r.stdout, /✔ change-ok passed tests and review and is live on production/);
    assert.doesNotMatch(r.stdout, /:4124[123]\//, 'agents ran on the free ports asked for');
    assert.ok(existsSync(path.join(dir, 'work', 'releases', 'production', 'current')));
  });

  it('--project change-broken stops at the tests and exits 1', async () => {
    const r = await demo(['--project', 'change-broken'], env);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /✘ stopped before deploy: \d+ test\(s\) failed/);
    assert.doesNotMatch(r.stdout, /Deploy →/);
  });

  it('bad usage exits 2 with a message naming the problem', async () => {
    const r = await demo(['--target', 'moon'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /target must be staging or production, not "moon"/);
    const p = await demo(['--ports', '1,2'], env);
    assert.equal(p.code, 2);
    assert.match(p.stderr, /--ports expects three ports/);
  });
});
