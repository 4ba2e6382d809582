import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const autogroup = () => {
  try {
    return readFileSync('/proc/self/autogroup', 'utf8');
  } catch {
    return undefined;
  }
};
// Read before any test of this file runs a bench script: each of them could change it.
const AUTOGROUP_AT_START = autogroup();

// The bench scripts take minutes; a mistyped option must stop them before anything starts, not be ignored.
const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [`bench/${script}`, ...args], { encoding: 'utf8', timeout: 20_000 });

for (const script of ['run.mjs', 'ab.mjs', 'service-ab.mjs', 'profile.mjs']) {
  test(`bench/${script}: --help prints the usage and exits 0`, () => {
    const r = run(script, '--help');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^usage: node bench/${script.replace('.', '\\.')}`));
  });

  test(`bench/${script}: an unknown option exits 2 naming it, with the usage`, () => {
    const r = run(script, '--no-such-option');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--no-such-option/);
    assert.match(r.stderr, /usage: /);
  });
}

test('bench/run.mjs: a value that is not a number, or an unknown scenario, exits 2 before any server starts', () => {
  const runs = run('run.mjs', '--runs', 'five');
  assert.equal(runs.status, 2);
  assert.match(runs.stderr, /--runs needs a number, got "five"/);
  const only = run('run.mjs', '--only', 'rpc-send-c33');
  assert.equal(only.status, 2);
  assert.match(
    only.stderr,
    /unknown scenario or server: rpc-send-c33; scenarios are rpc-send-c1, /,
  );
});

test('bench/ab.mjs: two builds are required', () => {
  const r = run('ab.mjs', 'dist');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /expected 2 argument\(s\), got 1/);
});

// Last in this file: the tests above ran every script with --help and with a rejected option.
test('bench scripts raise the scheduling priority of the session only when they start measuring, not for --help or a bad option', (t) => {
  if (AUTOGROUP_AT_START === undefined) return t.skip('no /proc/self/autogroup on this machine');
  for (const script of ['run.mjs', 'ab.mjs', 'service-ab.mjs', 'profile.mjs'])
    run(script, '--runs', 'x');
  assert.equal(autogroup(), AUTOGROUP_AT_START);
});
