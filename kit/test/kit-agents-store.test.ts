/**
 * `npm run agents -- --store …`: a PostgreSQL database out of reach stops the start with a message that
 * names it without its password and a non-zero exit; a --store value the kit does not know is a usage error;
 * where SQLite cannot run (better-sqlite3 12 on Node 24) the default store is memory, saying why.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

/** CI's Node 24 (.ci/run installs it into .ci/runtimes before the tests run). */
const NODE24 = path.resolve('.ci/runtimes/node_modules/node24/bin/node');

function runAgents(
  args: string[],
  node = process.execPath,
): Promise<{ code: number | null; out: string; err: string }> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'kit-store-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'error' };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS; // CI's Node 24 run preloads better-sqlite3 13: this test wants 12
  const child = spawn(
    node,
    ['--import', 'tsx', 'kit/src/cli/agents.ts', '--ports', '0,0,0', '--work-dir', work, ...args],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    // Started: stop it the way Ctrl-C does.
    if (out.includes('Press Ctrl-C to stop.')) child.kill('SIGTERM');
  });
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

  const sqlite12 = (
    JSON.parse(readFileSync('node_modules/better-sqlite3/package.json', 'utf8')) as {
      version: string;
    }
  ).version.startsWith('12.');
  it(
    'on Node 24 with better-sqlite3 12 (which would abort the process) the tasks are kept in memory, saying why',
    {
      skip:
        (!existsSync(NODE24) &&
          process.env.CI !== 'true' &&
          'no Node 24 in .ci/runtimes (npm run runtimes:install)') ||
        (!sqlite12 && 'the repository does not install better-sqlite3 12'),
    },
    async () => {
      const r = await runAgents([], NODE24);
      assert.match(
        r.out,
        /tasks +in memory, lost on restart \(SqliteTaskStore: better-sqlite3 12\.\S+ aborts Node 24 processes; .*npm install better-sqlite3@13\)/,
        r.err,
      );
      assert.equal(r.code, 0, r.err);
      const asked = await runAgents(['--store', `sqlite:${os.tmpdir()}`], NODE24);
      assert.equal(asked.code, 1);
      assert.match(
        asked.err,
        /agents: cannot start: SqliteTaskStore: better-sqlite3 12\.\S+ aborts Node 24/,
      );
    },
  );
});
