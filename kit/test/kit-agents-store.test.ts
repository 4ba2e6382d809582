/**
 * `npm run agents -- --store …`: a PostgreSQL database out of reach stops the start with a message that
 * names it without its password and a non-zero exit; a --store value the kit does not know is a usage error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

function runAgents(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'kit-store-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error' };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'kit/src/cli/agents.ts', '--ports', '0,0,0', '--work-dir', work, ...args],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rmSync(work, { recursive: true, force: true });
      resolve({ code, out, err });
    });
  });
}

describe('agents --store', { timeout: 3 * BOUND_MS }, () => {
  it('PostgreSQL out of reach: exits 1 naming the database, password masked', async () => {
    const r = await runAgents(['--store', 'postgres://app:s3cret@127.0.0.1:1/agents']);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /agents: cannot start: .*PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/agents.* unavailable/,
    );
    assert.doesNotMatch(r.out + r.err, /s3cret/);
  });

  it('an unknown store is a usage error (exit 2)', async () => {
    const r = await runAgents(['--store', 'mongodb://x']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--store expects memory, sqlite:DIR or postgres:\/\/…/);
  });
});
