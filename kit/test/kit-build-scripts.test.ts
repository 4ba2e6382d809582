/**
 * Build once, run many (issue 26): agents started from the built kit keep running, and keep their
 * dist/ files, while `npm run planner` runs through npm as a user would — its build step finds
 * everything up to date and compiles nothing, where it used to delete dist/ and rebuild it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_BOUND_MS } from './kit-planner-fixture.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const { NODE_TEST_CONTEXT: _, ...baseEnv } = process.env;
const env = { ...baseEnv, NO_COLOR: '1', LOG_LEVEL: 'silent' };

/** The identity of a file: a rebuild from scratch would give it a new inode. */
const identity = (rel: string) => {
  const s = statSync(path.join(root, rel));
  return `${s.ino}:${s.mtimeMs}`;
};
const WATCHED = ['dist/index.js', 'dist/server/index.js', 'kit/dist/cli/agents.js'];

describe('npm run planner beside running agents', () => {
  it('leaves the agents running and dist/ untouched', { timeout: CLI_BOUND_MS * 2 }, async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'a2a-kit-build-'));
    const agents = spawn(
      process.execPath,
      ['kit/dist/cli/agents.js', '--ports', '0,0,0', '--work-dir', work],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    agents.stdout.on('data', (c: Buffer) => (out += c.toString()));
    agents.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => agents.once('exit', (code) => r(code)));
    try {
      const ready = await Promise.race([
        new Promise<boolean>((r) =>
          agents.stdout.on('data', () => out.includes('Press Ctrl-C') && r(true)),
        ),
        exited.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(false), CLI_BOUND_MS).unref()),
      ]);
      assert.ok(ready, `the agents did not come up:\n${out}`);
      const origins = [...out.matchAll(/\(listening on (http:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);
      assert.equal(origins.length, 3, out);
      const before = WATCHED.map(identity);

      const planner = await new Promise<{ code: number | null; text: string }>(
        (resolve, reject) => {
          const child = spawn(
            'npm',
            ['run', 'planner', '--', '--agents', origins.join(','), '--work-dir', work],
            { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let text = '';
          child.stdout.on('data', (c: Buffer) => (text += c.toString()));
          child.stderr.on('data', (c: Buffer) => (text += c.toString()));
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`npm run planner did not finish in ${CLI_BOUND_MS} ms:\n${text}`));
          }, CLI_BOUND_MS);
          child.on('close', (code) => {
            clearTimeout(timer);
            resolve({ code, text });
          });
        },
      );
      assert.equal(planner.code, 0, planner.text);
      assert.doesNotMatch(planner.text, /^build: /m, 'the planner compiled something');
      assert.deepEqual(WATCHED.map(identity), before, 'dist/ files were replaced');
      assert.equal(agents.exitCode, null, `the agents stopped:\n${out}`);
      // And they still answer.
      for (const origin of origins) {
        const res = await fetch(`${origin}/.well-known/agent-card.json`);
        assert.equal(res.status, 200, origin);
        await res.body?.cancel();
      }
    } finally {
      agents.kill('SIGTERM');
      await exited;
      rmSync(work, { recursive: true, force: true });
    }
  });
});
