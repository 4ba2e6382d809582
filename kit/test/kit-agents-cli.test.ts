/**
 * `npm run agents` as a user runs it: one foreground process, where each agent listens printed, a
 * generated deployer token kept in a 0600 file, never printed, and reused on the next start (unless
 * --new-token), log lines as JSON when piped and readable with --log-format pretty, a clean stop on SIGTERM.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

interface Running {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** SIGTERM, then the exit code (or 'timeout'). */
  stop(): Promise<number | null | string>;
}

/** Starts the CLI and resolves once it prints its summary (fails if it exits or takes too long first). */
async function startAgents(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'kit/src/cli/agents.ts', '--ports', '0,0,0', ...args],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const ready = await Promise.race([
    new Promise<boolean>((r) =>
      child.stdout.on('data', () => out.includes('Press Ctrl-C') && r(true)),
    ),
    exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(false), BOUND_MS).unref()),
  ]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the CLI did not come up:\n${out}\n${err}`);
  }
  return {
    child,
    out: () => out,
    err: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return Promise.race([
        exited,
        new Promise<string>((r) => setTimeout(() => r('timeout'), BOUND_MS).unref()),
      ]);
    },
  };
}

/** Whether the deployer printed in `out` accepts `token` (GetExtendedAgentCard needs it). */
async function accepts(out: string, token: string): Promise<boolean> {
  const deployer = /deployer\s+\S+\s+\(listening on (\S+)\)/.exec(out)![1]!;
  const r = await fetch(`${deployer}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  await r.body?.cancel();
  return r.status === 200;
}

describe('agents CLI', { timeout: 5 * BOUND_MS }, () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  const tokenFile = (): string => path.join(work, 'deployer-token');
  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'kit-cli-'));
    env = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DEPLOYER_TOKEN;
    delete env.NODE_TEST_CONTEXT;
    delete env.KIT_LOG_FORMAT;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('first start: prints the three card URLs, stores a generated token (0600) without printing it, logs JSON lines on a pipe, stops on SIGTERM', async () => {
    const a = await startAgents(['--work-dir', work], env);
    try {
      for (const name of ['test-runner', 'code-reviewer', 'deployer']) {
        assert.match(
          a.out(),
          new RegExp(`${name}\\s+http://localhost:\\d+/\\.well-known/agent-card\\.json`),
        );
      }
      assert.match(
        a.out(),
        /deployer token generated, stored in .*deployer-token \(mode 0600\); for the \.http files: export DEPLOYER_TOKEN="\$\(cat .*deployer-token\)"/,
      );
      assert.equal(statSync(tokenFile()).mode & 0o777, 0o600);
      const token = readFileSync(tokenFile(), 'utf8').trim();
      assert.ok(token.length >= 32);
      assert.ok(
        !a.out().includes(token) && !a.err().includes(token),
        'the token is never printed or logged',
      );
      assert.ok(await accepts(a.out(), token), 'the deployer accepts the stored token');

      assert.equal(await a.stop(), 0, `exit code after SIGTERM\n${a.err()}`);
      // stderr is a pipe here: one pino JSON object per line, nothing else mixed in.
      const lines = a.err().split('\n').filter(Boolean);
      assert.ok(lines.length >= 2, a.err());
      for (const line of lines)
        assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
      assert.ok(lines.some((l) => JSON.parse(l).msg === 'stopping the agents'));
    } finally {
      if (a.child.exitCode === null) a.child.kill('SIGKILL');
    }
  });

  it('second start: the same token is reused (a shell that exported it keeps working); --log-format pretty gives readable lines', async () => {
    const before = readFileSync(tokenFile(), 'utf8').trim();
    const a = await startAgents(['--work-dir', work, '--log-format', 'pretty'], env);
    try {
      assert.equal(readFileSync(tokenFile(), 'utf8').trim(), before);
      assert.match(
        a.out(),
        /deployer token kept in .*deployer-token \(the same as last start; --new-token replaces it\)/,
      );
      assert.ok(await accepts(a.out(), before), 'the previous token still works');
      assert.equal(await a.stop(), 0, a.err());
      const lines = a.err().split('\n').filter(Boolean);
      assert.ok(lines.length >= 2, a.err());
      for (const line of lines)
        assert.match(
          line,
          /^\d\d:\d\d:\d\d (info |warn |error|debug) /,
          `not a readable log line: ${line}`,
        );
      assert.ok(
        lines.some((l) => /info {2}stopping the agents {2}signal=SIGTERM$/.test(l)),
        a.err(),
      );
    } finally {
      if (a.child.exitCode === null) a.child.kill('SIGKILL');
    }
  });

  it('--new-token replaces the stored token and says to re-export it; the old one is refused', async () => {
    const old = readFileSync(tokenFile(), 'utf8').trim();
    const a = await startAgents(['--work-dir', work, '--new-token'], env);
    try {
      const fresh = readFileSync(tokenFile(), 'utf8').trim();
      assert.notEqual(fresh, old);
      assert.equal(statSync(tokenFile()).mode & 0o777, 0o600);
      assert.match(
        a.out(),
        /deployer token replaced: a fresh one is stored in .*deployer-token \(mode 0600\); shells that exported the old one must run export DEPLOYER_TOKEN=/,
      );
      assert.ok(await accepts(a.out(), fresh));
      assert.equal(await accepts(a.out(), old), false);
      assert.equal(await a.stop(), 0, a.err());
    } finally {
      if (a.child.exitCode === null) a.child.kill('SIGKILL');
    }
  });
});
