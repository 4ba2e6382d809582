/**
 * `npm start` / `npm run demo:broken` / `npm run planner` as a user runs them: the built commands in a child
 * process, agents on free ports (KIT_PORTS=0,0,0), work and workspace in a temp dir. Exit codes are the
 * contract; the transcript says each thing once and ends with a summary; Ctrl-C cancels the task waited on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { AUTH, TOKEN, rpc, startKit, type KitFixture } from './kit-agents-fixture.js';
import { CLI_BOUND_MS, observingProxy, runBuilt } from './kit-planner-fixture.js';

// The CLIs run as users run them: built (`npm test` builds first; a rebuild here would pull dist/ from
// under the test files running beside this one).
before(() => {
  assert.ok(
    existsSync('kit/dist/cli/demo.js'),
    'kit/dist/cli/demo.js is missing: run npm run build:kit first',
  );
});

describe('demo CLI', { timeout: 4 * CLI_BOUND_MS }, () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-demo-'));
    const workspace = path.join(dir, 'samples');
    for (const s of ['change-ok', 'change-broken'])
      cpSync(path.join('samples', s), path.join(workspace, s), { recursive: true });
    env = { KIT_PORTS: '0,0,0', KIT_WORK_DIR: path.join(dir, 'work'), KIT_WORKSPACE: workspace };
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('node kit/dist/cli/demo.js deploys change-ok and exits 0', async () => {
    const r = await runBuilt([], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /skill map: run-tests → test-runner, review-code → code-reviewer, deploy → deployer/,
    );
    // The manual's client speaks JSON-RPC 1.0: it passes over the test-runner's GRPC entry and says why.
    assert.match(r.stdout, /test-runner +\[2\] JSONRPC 1\.0 http:\/\/localhost:\d+\/a2a\/jsonrpc/);
    assert.match(r.stdout, /test-runner: skipped \[0\] GRPC 1\.0: binding not spoken/);
    assert.match(r.stdout, /✔ change-ok passed tests and review and is live on production/);
    assert.doesNotMatch(r.stdout, /:4124[123]\//, 'agents ran on the free ports asked for');
    assert.ok(existsSync(path.join(dir, 'work', 'releases', 'production', 'current')));
  });

  it('--bindings grpc,jsonrpc runs the tests over gRPC to the test-runner, the rest over JSON-RPC, and deploys: exit 0', async () => {
    const r = await runBuilt(['--bindings', 'grpc,jsonrpc'], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /test-runner +\[0\] GRPC 1\.0 http:\/\/localhost:\d+ /);
    assert.match(r.stdout, /code-reviewer +\[0\] JSONRPC 1\.0 /);
    assert.doesNotMatch(r.stdout, /skipped \[0\] GRPC/);
    assert.match(
      r.stdout,
      /speaks GRPC, JSONRPC at 1\.0/,
      'the header names the bindings it speaks',
    );
    assert.match(r.stdout, /artifact test-results: change-ok: 8 passed, 0 failed/);
    assert.match(r.stdout, /✔ change-ok passed tests and review and is live on production/);
  });

  it('the demo says each thing once and ends with where the release went, the time per stage and what to try next', async () => {
    const r = await runBuilt([], env);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const count = (re: RegExp): number =>
      r.stdout.match(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))
        ?.length ?? 0;
    assert.equal(count(/\/\.well-known\/agent-card\.json/), 3, 'each card URL once, in discovery');
    assert.equal(count(/\/a2a\/jsonrpc/), 3, 'each chosen interface once, in the table');
    assert.equal(count(/chose \[/), 0);
    for (const name of ['test-results', 'review', 'release'])
      assert.equal(count(new RegExp(`artifact ${name}\\b`)), 1, `artifact ${name} once`);
    assert.equal(
      count(/Deployed change-ok as v/),
      1,
      'the deploy result once (its artifact; the final status does not repeat it)',
    );
    assert.equal(count(/Reply 'confirm' to deploy/), 1, 'the confirmation question once');
    assert.equal(count(/✔ change-ok passed tests and review/), 1);
    const tail = r.stdout.slice(r.stdout.indexOf('✔ change-ok passed')).split('\n');
    assert.match(
      tail[1] ?? '',
      /^ {2}release\s+\S*releases\/production\/releases\/1\.0\.0\+\S+\s+\(production\/current points here; (first release|previous v\S+)\)$/,
    );
    assert.match(
      tail[2] ?? '',
      /^ {2}time\s+start [\d.]+ m?s · discovery [\d.]+ m?s · tests [\d.]+ m?s · review [\d.]+ m?s · deploy [\d.]+ m?s · total [\d.]+ m?s$/,
    );
    assert.match(tail[3] ?? '', /^ {2}next\s+npm run demo:broken\s+a change whose tests fail/);
    assert.equal(count(/^ {2}(release|time|next) /gm), 3, 'the summary once');
  });

  it('--project change-broken stops at the tests and exits 1', async () => {
    const r = await runBuilt(['--project', 'change-broken'], env);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /✘ stopped before deploy: \d+ test\(s\) failed/);
    assert.doesNotMatch(r.stdout, /Deploy →/);
  });

  it('bad usage exits 2 with a message naming the problem', async () => {
    const r = await runBuilt(['--target', 'moon'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /target must be staging or production, not "moon"/);
    const p = await runBuilt(['--ports', '1,2'], env);
    assert.equal(p.code, 2);
    assert.match(p.stderr, /--ports expects three ports/);
  });
});

describe('planner CLI against running agents', { timeout: 3 * CLI_BOUND_MS }, () => {
  let f: KitFixture;
  let jwksFile: string;
  let args: string[];
  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    f = await startKit({ signingKeys: [{ privateKey, kid: 'cli-test', alg: 'ES256' }] });
    jwksFile = path.join(f.dir, 'trusted.jwks.json');
    writeFileSync(
      jwksFile,
      JSON.stringify({
        keys: [{ ...(await exportJWK(publicKey)), kid: 'cli-test', alg: 'ES256' }],
      }),
    );
    const agents = (['test-runner', 'code-reviewer', 'deployer'] as const)
      .map((n) => f.kit.agents[n].baseUrl)
      .join(',');
    args = [
      '--agents',
      agents,
      '--workspace',
      f.workspace,
      '--trust-jwks',
      jwksFile,
      '--verify-cards',
      'required',
    ];
  });
  after(() => f?.close());

  const planner = (extra: string[], env: Record<string, string> = { DEPLOYER_TOKEN: TOKEN }) =>
    runBuilt(
      [...args, ...extra],
      { KIT_WORK_DIR: path.join(f.dir, 'no-work-dir'), ...env },
      'kit/dist/cli/planner.js',
    );

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
    assert.match(
      typo.stderr,
      /^planner: unknown flag --projct \(did you mean --project\?\)\n\(npm run planner -- --help lists the flags\)/,
    );
    const ports = await planner(['--ports', '1,2,3']);
    assert.equal(ports.code, 2);
    assert.match(
      ports.stderr,
      /unknown flag --ports: the planner finds the agents with --agents LIST/,
    );
    const jwks = await runBuilt(
      ['--trust-jwks', path.join(f.dir, 'missing.json')],
      {},
      'kit/dist/cli/planner.js',
    );
    assert.equal(jwks.code, 2);
    assert.match(jwks.stderr, /cannot read trusted keys from .*missing\.json/);
  });

  it('Ctrl-C while the planner waits on a production deploy: the task is canceled (GetTask says so), exit 130 with a clear line', async () => {
    // The deployer is reached through a proxy that never answers the planner's "confirm": the planner
    // waits, with the deploy task in INPUT_REQUIRED, until it is interrupted.
    const confirm = (body: string): boolean =>
      body.includes('"SendMessage"') && body.includes('"confirm"');
    const proxy = await observingProxy(f.kit.agents.deployer, undefined, {
      hold: (r) => confirm(r.body),
    });
    const agents = [
      f.kit.agents['test-runner'].baseUrl,
      f.kit.agents['code-reviewer'].baseUrl,
      proxy.base,
    ].join(',');
    const child = spawn(
      process.execPath,
      [
        'kit/dist/cli/planner.js',
        '--agents',
        agents,
        '--workspace',
        f.workspace,
        '--verify-cards',
        'off',
      ],
      {
        env: {
          ...process.env,
          NO_COLOR: '1',
          DEPLOYER_TOKEN: TOKEN,
          KIT_WORK_DIR: path.join(f.dir, 'no-work-dir'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.resume();
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + CLI_BOUND_MS;
      let held: { params: { message: { taskId: string } } } | undefined;
      for (let i = 0; i < 2000 && !held && Date.now() < deadline && child.exitCode === null; i++) {
        const seen = proxy.seen.find((r) => confirm(r.body));
        if (seen) held = JSON.parse(seen.body);
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(held, `the planner never sent "confirm":\n${stdout}`);
      const taskId = held.params.message.taskId;
      assert.equal(
        (await rpc(f, 'deployer', 'GetTask', { id: taskId }, AUTH)).body.result.status.state,
        'TASK_STATE_INPUT_REQUIRED',
      );

      child.kill('SIGINT');
      const code = await Promise.race([
        exited,
        new Promise<string>((r) => setTimeout(() => r('timeout'), CLI_BOUND_MS).unref()),
      ]);
      assert.equal(code, 130, stdout);
      assert.match(stdout, /Ctrl-C: canceling the task being waited on/);
      assert.match(
        stdout,
        new RegExp(
          `✘ interrupted during deploy: canceled task ${taskId.slice(0, 8)} on deployer \\(now CANCELED\\)`,
        ),
      );
      assert.equal(
        (await rpc(f, 'deployer', 'GetTask', { id: taskId }, AUTH)).body.result.status.state,
        'TASK_STATE_CANCELED',
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await proxy.close();
    }
  });
});
