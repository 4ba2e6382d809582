/**
 * `npm run agents` as a user runs it: one foreground process, where each agent listens printed, a
 * generated deployer token kept in a 0600 file and never printed, a clean stop on SIGTERM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

test('agents CLI: prints the three card URLs, stores a generated token (0600) without printing it, stops on SIGTERM', async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'kit-cli-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete env.DEPLOYER_TOKEN;
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--import', 'tsx', 'kit/src/cli/agents.ts', '--ports', '0,0,0', '--work-dir', work], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    const ready = await Promise.race([
      new Promise<boolean>((r) => child.stdout.on('data', () => out.includes('Press Ctrl-C') && r(true))),
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), BOUND_MS).unref()),
    ]);
    assert.ok(ready, `the CLI did not come up:\n${out}\n${err}`);
    for (const name of ['test-runner', 'code-reviewer', 'deployer']) {
      assert.match(out, new RegExp(`${name}\\s+http://localhost:\\d+/\\.well-known/agent-card\\.json`));
    }
    const file = path.join(work, 'deployer-token');
    assert.match(out, /deployer token generated, stored in .*deployer-token \(mode 0600\)/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    assert.ok(token.length >= 32);
    assert.ok(!out.includes(token) && !err.includes(token), 'the token is never printed or logged');

    // The printed card URL answers, and the deployer accepts the stored token.
    const deployer = /deployer\s+\S+\s+\(listening on (\S+)\)/.exec(out)![1]!;
    const card = await (await fetch(`${deployer}/.well-known/agent-card.json`)).json();
    assert.equal(card.name, 'deployer');
    const r = await fetch(`${deployer}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }),
    });
    assert.equal(r.status, 200);

    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('timeout'), BOUND_MS).unref())]);
    assert.equal(code, 0, `exit code after SIGTERM\n${err}`);
    assert.match(err, /stopping the agents/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
});
