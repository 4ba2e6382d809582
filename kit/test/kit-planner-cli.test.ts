/**
 * `npm start` / `npm run demo:broken` as a user runs them: the built demo in a child process, agents on
 * free ports (KIT_PORTS=0,0,0), work and workspace in a temp dir. Exit codes are the contract.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { TOKEN, startKit, type KitFixture } from './kit-agents-fixture.js';

const BOUND_MS = 180_000;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function demo(args: string[], env: Record<string, string>, script = 'kit/dist/cli/demo.js'): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
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

// The CLIs run as users run them: built. One build for the whole file.
before(() => {
  const built = spawnSync('npm', ['run', 'build'], { encoding: 'utf8', timeout: BOUND_MS });
  assert.equal(built.status, 0, `build failed: ${built.stdout}\n${built.stderr}`);
});

describe('demo CLI', { timeout: 4 * BOUND_MS }, () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-demo-'));
    const workspace = path.join(dir, 'samples');
    for (const s of ['change-ok', 'change-broken']) cpSync(path.join('samples', s), path.join(workspace, s), { recursive: true });
    env = { KIT_PORTS: '0,0,0', KIT_WORK_DIR: path.join(dir, 'work'), KIT_WORKSPACE: workspace };
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('node kit/dist/cli/demo.js deploys change-ok and exits 0', async () => {
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

describe('planner CLI against running agents', { timeout: 3 * BOUND_MS }, () => {
  let f: KitFixture;
  let jwksFile: string;
  let args: string[];
  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    f = await startKit({ signingKeys: [{ privateKey, kid: 'cli-test', alg: 'ES256' }] });
    jwksFile = path.join(f.dir, 'trusted.jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'cli-test', alg: 'ES256' }] }));
    const agents = (['test-runner', 'code-reviewer', 'deployer'] as const).map((n) => f.kit.agents[n].baseUrl).join(',');
    args = ['--agents', agents, '--workspace', f.workspace, '--trust-jwks', jwksFile, '--verify-cards', 'required'];
  });
  after(() => f?.close());

  const planner = (extra: string[], env: Record<string, string> = { DEPLOYER_TOKEN: TOKEN }) =>
    demo([...args, ...extra], { KIT_WORK_DIR: path.join(f.dir, 'no-work-dir'), ...env }, 'kit/dist/cli/planner.js');

  it('deploys with signatures required and the token from DEPLOYER_TOKEN: exit 0', async () => {
    const r = await planner([]);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /signature ✓ ES256 kid=cli-test/);
    assert.match(r.stdout, /✔ change-ok passed tests and review and is live on production/);
  });

  it('no token anywhere: exit 1 and the planner says the deployer needs one', async () => {
    const r = await planner([], { DEPLOYER_TOKEN: '' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /deployer requires bearer but no token is configured/);
  });

  it('bad usage exits 2: a misspelt flag, an unreadable JWKS', async () => {
    const typo = await planner(['--projct', 'change-broken']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown argument "--projct"/);
    const jwks = await demo(['--trust-jwks', path.join(f.dir, 'missing.json')], {}, 'kit/dist/cli/planner.js');
    assert.equal(jwks.code, 2);
    assert.match(jwks.stderr, /cannot read trusted keys from .*missing\.json/);
  });
});
