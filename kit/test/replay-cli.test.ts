import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Fixture } from './replay-fixture.js';
import { startFixture } from './replay-fixture.js';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'replay.ts');

let fx: Fixture;
let dir: string;
before(async () => {
  fx = await startFixture();
  dir = await mkdtemp(join(tmpdir(), 'replay-cli-'));
});
after(async () => {
  await fx.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], { timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

test('prints one line per exchange and exits 0 when all pass, 1 on a failure or a parse error', async () => {
  const good = join(dir, '01-discovery.http');
  await writeFile(good, [
    '### 1 · discover', '# @expect status 200', '# @expect body $.name == "code-reviewer"',
    'GET /.well-known/agent-card.json HTTP/1.1', 'Host: 127.0.0.1:{{port}}', '',
    '### 2 · missing', '# @expect status 404', 'GET http://localhost:{{port}}/nothing', '',
  ].join('\n'));
  const bad = join(dir, '11-errors.http');
  await writeFile(bad, '### 1 · wrong\n# @expect status 500\nGET http://127.0.0.1:{{port}}/nothing\n');
  const broken = join(dir, '99-broken.http');
  await writeFile(broken, '# @expect body $.x == unquoted\nGET http://127.0.0.1:1/\n');

  const ok = await cli('--var', `port=${fx.port}`, good);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.deepEqual(ok.stdout.trim().split('\n'), [
    `✔ 01-discovery.http › 1 · discover · 200 · GET http://127.0.0.1:${fx.port}/.well-known/agent-card.json`,
    `✔ 01-discovery.http › 2 · missing · 404 · GET http://localhost:${fx.port}/nothing`,
  ]);

  const failed = await cli('-v', `port=${fx.port}`, good, bad, broken);
  assert.equal(failed.code, 1);
  const lines = failed.stdout.trim().split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[2], '✘ 11-errors.http › 1 · wrong · 404 · line 2: status 500: expected == 500, actual 404');
  assert.match(lines[3] ?? '', /^✘ .*99-broken\.http:1: @expect: value is not a JSON literal/);

  const json = await cli('--json', '--var', `port=${fx.port}`, bad);
  assert.equal(json.code, 1);
  const reports = JSON.parse(json.stdout) as { passed: boolean; exchanges: { failures: { actual: string }[] }[] }[];
  assert.equal(reports[0]?.passed, false);
  assert.equal(reports[0]?.exchanges[0]?.failures[0]?.actual, '404');

  assert.equal((await cli()).code, 2);
  assert.equal((await cli('--var', 'noequals', good)).code, 2);
});
