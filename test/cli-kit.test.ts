/**
 * `a2a` against the kit's three agents as `npm run agents` starts them (kit/dist/cli/agents.js on
 * ports 0, a temp workspace): the README's `a2a card` and `a2a send` work as shown, the deployer's
 * bearer token, its INPUT_REQUIRED confirmation without a terminal, files sent to the reviewer.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { a2a, BOUND_MS, ndjson } from './cli-fixture.js';

const root = path.resolve(import.meta.dirname, '..');
const AGENTS = path.join(root, 'kit', 'dist', 'cli', 'agents.js');
const TOKEN = 'kit-cli-test-token-0123456789';

interface Kit {
  child: ChildProcess;
  urls: Record<'test-runner' | 'code-reviewer' | 'deployer', string>;
  dir: string;
  jwks: string;
}

/** `node kit/dist/cli/agents.js --ports 0,0,0`, until it prints the three card URLs. */
async function startKit(): Promise<Kit> {
  if (!existsSync(AGENTS)) throw new Error(`${AGENTS} is missing: run npm run build:kit first`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-cli-kit-'));
  for (const s of ['change-ok', 'change-broken'])
    cpSync(path.join(root, 'samples', s), path.join(dir, 'workspace', s), { recursive: true });
  const child = spawn(
    process.execPath,
    [
      AGENTS,
      '--ports',
      '0,0,0',
      '--work-dir',
      path.join(dir, 'work'),
      '--workspace',
      path.join(dir, 'workspace'),
      '--memory',
    ],
    {
      env: { PATH: process.env.PATH, DEPLOYER_TOKEN: TOKEN, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the kit's agents did not start:\n${out}\n${err}`)),
      BOUND_MS,
    );
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the kit's agents exited with ${code}:\n${out}\n${err}`)),
    );
  });
  const url = (name: string) =>
    new RegExp(`${name} +(http://localhost:\\d+)/\\.well-known/agent-card\\.json`).exec(out)![1]!;
  return {
    child,
    dir,
    urls: {
      'test-runner': url('test-runner'),
      'code-reviewer': url('code-reviewer'),
      deployer: url('deployer'),
    },
    jwks: path.join(dir, 'work', 'card-signing-jwks.json'),
  };
}

describe("a2a with the kit's agents", () => {
  let kit: Kit;
  before(async () => {
    kit = await startKit();
  });
  after(async () => {
    const exited = new Promise((r) => kit.child.once('exit', r));
    kit.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, BOUND_MS))]);
    rmSync(kit.dir, { recursive: true, force: true });
  });

  it("a2a card <code-reviewer>: streaming, no push, its skill, a signature checked with the kit's key set", async () => {
    const r = await a2a(['card', kit.urls['code-reviewer'], '--trust-jwks', kit.jwks]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^code-reviewer 1\.0\.0 {2}— /m);
    assert.match(r.stdout, /^ {2}→ \[0\] JSONRPC 1\.0 +http:\/\/localhost:\d+\/a2a\/jsonrpc$/m);
    assert.match(r.stdout, /^ {2}streaming {11}yes$/m);
    assert.match(r.stdout, /^ {2}push notifications {2}no$/m);
    assert.match(r.stdout, /^ {2}review-code {2}/m);
    assert.match(
      r.stdout,
      /^ {2}✓ verified {2}ES256, key kit-[0-9a-f]+ \(trusted via --trust-jwks\)$/m,
    );
    assert.match(r.stdout, /^ {2}Cache-Control {3}public, max-age=300$/m);
  });

  it('a2a send <test-runner> "run tests in change-ok": the run live, exit 0; change-broken\'s failures are in the transcript', async () => {
    const out = path.join(kit.dir, 'results');
    const r = await a2a(['send', kit.urls['test-runner'], 'run tests in change-ok', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.lines[0]!, /^task [0-9a-f-]{36} \(context [0-9a-f-]{36}\) SUBMITTED$/);
    assert.ok(r.lines.includes('WORKING  Running 2 test file(s) in change-ok'), r.stdout);
    assert.equal(r.lines.filter((l) => l.startsWith('WORKING  pass ')).length, 8);
    assert.match(r.stdout, /^artifact test-results: change-ok: 8 passed, 0 failed/m);
    assert.equal(r.lines.at(-1), 'COMPLETED  All 8 tests passed in change-ok.');
    assert.equal(JSON.parse(readFileSync(path.join(out, 'test-results-2.json'), 'utf8')).passed, 8);

    const broken = await a2a([
      'send',
      kit.urls['test-runner'],
      '--data',
      '{"path":"change-broken"}',
      '--json',
    ]);
    const events = ndjson(broken);
    assert.ok(
      events.some((e) => /^FAIL /.test(e.statusUpdate?.status.message?.parts[0]?.text ?? '')),
    );
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
  });

  it('files to the code-reviewer: a verdict', async () => {
    const src = path.join(kit.dir, 'workspace', 'change-ok', 'src');
    const r = await a2a([
      'send',
      kit.urls['code-reviewer'],
      'review these',
      '--file',
      path.join(src, 'math.js'),
      '--file',
      path.join(src, 'text.js'),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.lines.at(-1)!, /^COMPLETED {2}Verdict: approve/);
  });

  it('the deployer: exit 5 without its token; production waits for "confirm" (exit 9 without a terminal), confirmed with --task', async () => {
    const anonymous = await a2a(['send', kit.urls.deployer, 'deploy change-ok to staging']);
    assert.equal(anonymous.code, 5);
    const extended = await a2a(['card', kit.urls.deployer, '--extended', '--token', TOKEN]);
    assert.match(extended.stdout, /adds skill\(s\) rollback/);

    const asked = await a2a(['send', kit.urls.deployer, 'deploy change-ok to production'], {
      env: { A2A_TOKEN: TOKEN },
    });
    assert.equal(asked.code, 9, asked.stderr);
    assert.match(
      asked.lines.at(-1)!,
      /INPUT_REQUIRED {2}Reply 'confirm' to deploy .* to production, or cancel the task\.$/,
    );
    const id = /task ([0-9a-f-]{36})/.exec(asked.stdout)![1]!;
    assert.ok(
      asked.stderr.includes(`answer with: a2a send ${kit.urls.deployer} "<answer>" --task ${id}`),
      asked.stderr,
    );

    const confirmed = await a2a(['send', kit.urls.deployer, 'confirm', '--task', id], {
      env: { A2A_TOKEN: TOKEN },
    });
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.match(confirmed.lines.at(-1)!, /^COMPLETED {2}Deployed change-ok as v\S+ to production/);
    const listed = JSON.parse(
      (
        await a2a(['list', kit.urls.deployer, '--status', 'completed', '--json'], {
          env: { A2A_TOKEN: TOKEN },
        })
      ).stdout,
    );
    assert.ok(listed.tasks.some((t: { id: string }) => t.id === id));
  });
});
