import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  return cliWith({}, ...args);
}

async function cliWith(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      timeout: 30_000,
      env: childEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

test('prints one line per exchange and exits 0 when all pass, 1 on a failure or a parse error', async () => {
  const good = join(dir, '01-discovery.http');
  await writeFile(
    good,
    [
      '### 1 · discover',
      '# @expect status 200',
      '# @expect body $.name == "code-reviewer"',
      'GET /.well-known/agent-card.json HTTP/1.1',
      'Host: 127.0.0.1:{{port}}',
      '',
      '### 2 · missing',
      '# @expect status 404',
      'GET http://localhost:{{port}}/nothing',
      '',
    ].join('\n'),
  );
  const bad = join(dir, '11-errors.http');
  await writeFile(
    bad,
    '### 1 · wrong\n# @expect status 500\nGET http://127.0.0.1:{{port}}/nothing\n',
  );
  const broken = join(dir, '99-broken.http');
  await writeFile(broken, '# @expect body $.x == unquoted\nGET http://127.0.0.1:1/\n');

  const ok = await cli('--var', `port=${fx.port}`, good);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const okLines = ok.stdout.trim().split('\n');
  assert.deepEqual(okLines.slice(0, 2), [
    `✔ 01-discovery.http › 1 · discover · 200 · GET http://127.0.0.1:${fx.port}/.well-known/agent-card.json`,
    `✔ 01-discovery.http › 2 · missing · 404 · GET http://localhost:${fx.port}/nothing`,
  ]);
  assert.match(okLines[2] ?? '', /^✔ total: 2 exchanges passed in 1 file \([\d.]+ m?s\)$/);
  assert.equal(okLines.length, 3);

  const failed = await cli('-v', `port=${fx.port}`, good, bad, broken);
  assert.equal(failed.code, 1);
  const lines = failed.stdout.trim().split('\n');
  assert.equal(lines.length, 5);
  assert.equal(
    lines[2],
    '✘ 11-errors.http › 1 · wrong · 404 · line 2: status 500: expected == 500, actual 404',
  );
  assert.match(lines[3] ?? '', /^✘ .*99-broken\.http:1: @expect: value is not a JSON literal/);
  assert.match(
    lines[4] ?? '',
    /^✘ total: 2 passed, 1 failed of 3 exchanges in 3 files; 1 not replayed \(see above\) \([\d.]+ m?s\)$/,
  );

  const json = await cli('--json', '--var', `port=${fx.port}`, bad);
  assert.equal(json.code, 1);
  const reports = JSON.parse(json.stdout) as {
    passed: boolean;
    exchanges: { failures: { actual: string }[] }[];
  }[];
  assert.equal(reports[0]?.passed, false);
  assert.equal(reports[0]?.exchanges[0]?.failures[0]?.actual, '404');

  const none = await cli();
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /^replay: no \.http file given\n\(npm run replay -- --help lists the flags\)/,
  );
  assert.equal((await cli('--var', 'noequals', good)).code, 2);
  const typo = await cli('--jsn', good);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown flag --jsn \(did you mean --json\?\)/);
});

test('a missing or refused deployer token: after the total, the line that sets it', async () => {
  const file = join(dir, '10-extended-card.http');
  await writeFile(
    file,
    [
      '@token = {{$processEnv DEPLOYER_TOKEN}}',
      '',
      '### 1 · with the token',
      '# @expect status 200',
      'GET http://127.0.0.1:{{port}}/.well-known/agent-card.json',
      'Authorization: Bearer {{token}}',
      '',
    ].join('\n'),
  );
  const work = join(dir, 'work');

  const unset = await cliWith(
    { DEPLOYER_TOKEN: undefined, KIT_WORK_DIR: work },
    '--var',
    `port=${fx.port}`,
    file,
  );
  assert.equal(unset.code, 1);
  const lines = unset.stdout.trim().split('\n');
  assert.match(lines[0] ?? '', /environment variable DEPLOYER_TOKEN is not set/);
  assert.match(lines[1] ?? '', /^✘ total: 0 passed, 1 failed of 1 exchange in 1 file/);
  assert.equal(
    lines[2],
    `DEPLOYER_TOKEN is not set. Start the agents with npm run agents (it keeps its token in ${join(work, 'deployer-token')}), then:`,
  );
  assert.equal(lines[3], `  export DEPLOYER_TOKEN="$(cat ${join(work, 'deployer-token')})"`);

  await mkdir(work, { recursive: true });
  await writeFile(join(work, 'deployer-token'), 'a-token-from-the-kit-0123456789\n');
  const kept = await cliWith(
    { DEPLOYER_TOKEN: undefined, KIT_WORK_DIR: work },
    '--var',
    `port=${fx.port}`,
    file,
  );
  assert.match(
    kept.stdout,
    /\nDEPLOYER_TOKEN is not set\. Set it from the running kit's token file and replay again:\n {2}export DEPLOYER_TOKEN="\$\(cat .*deployer-token\)"\n$/,
  );

  // A stale token: the agent answers 401 where 200 was expected.
  const refusing = createServer((_req, res) =>
    res.writeHead(401, { 'content-type': 'application/json' }).end('{}'),
  );
  await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
  try {
    const port = (refusing.address() as AddressInfo).port;
    const stale = await cliWith(
      { DEPLOYER_TOKEN: 'old-token-0123456789', KIT_WORK_DIR: work },
      '--var',
      `port=${port}`,
      file,
    );
    assert.equal(stale.code, 1);
    assert.match(
      stale.stdout,
      /the deployer answered 401: DEPLOYER_TOKEN is not the token it was started with\. Set it from/,
    );
    const json = await cliWith(
      { DEPLOYER_TOKEN: 'old-token-0123456789', KIT_WORK_DIR: work },
      '--json',
      '--var',
      `port=${port}`,
      file,
    );
    assert.doesNotThrow(() => JSON.parse(json.stdout), 'stdout stays one JSON document');
    assert.match(json.stderr, /export DEPLOYER_TOKEN=/);
  } finally {
    await new Promise<void>((r) => refusing.close(() => r()));
  }
});
