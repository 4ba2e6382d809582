/**
 * The numbered `.http` scenarios in http/ replayed against the real kit (KIT.md, "The error capture"):
 * the three agents start once on port 0 over a temp copy of the samples, the files' `@tr/@cr/@dp` (and
 * the `…Host` forms) are overridden with the real base URLs, and every exchange's `@expect` lines must hold.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatReport, parseHttpFile, replayHttpPath } from '../src/replay/index.js';
import type { ReplayReport } from '../src/replay/index.js';
import { startKitAgents, type RunningKit } from '../src/agents/start.js';

const HTTP_DIR = path.resolve('http');
const TOKEN = 'http-scenarios-token-0123456789';
const FILES = [
  '01-discovery.http',
  '02-send.http',
  '03-get.http',
  '04-list.http',
  '05-stream.http',
  '06-subscribe.http',
  '07-multi-turn.http',
  '08-cancel.http',
  '09-push-configs.http',
  '10-extended-card.http',
  '11-errors.http',
];
/** Bound on one file's replay: a hang fails that file instead of blocking the run. */
const FILE_BOUND_MS = 240_000;

let kit: RunningKit;
let dir: string;
let variables: Record<string, string>;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'http-scenarios-'));
  const workspace = path.join(dir, 'workspace');
  const releases = path.join(dir, 'releases');
  for (const s of ['change-ok', 'change-broken'])
    cpSync(path.join('samples', s), path.join(workspace, s), { recursive: true });
  mkdirSync(releases);
  kit = await startKitAgents({
    workspaceRoot: workspace,
    releasesDir: releases,
    deployerToken: TOKEN,
    ports: { 'test-runner': 0, 'code-reviewer': 0, deployer: 0 },
  });
  const { 'test-runner': tr, 'code-reviewer': cr, deployer: dp } = kit.agents;
  // The cards advertise `localhost` + the real port; the files compare interface URLs against these.
  variables = {
    tr: tr.baseUrl,
    cr: cr.baseUrl,
    dp: dp.baseUrl,
    trHost: new URL(tr.baseUrl).host,
    crHost: new URL(cr.baseUrl).host,
    dpHost: new URL(dp.baseUrl).host,
    token: TOKEN,
  };
});

after(async () => {
  await kit?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function replay(file: string): Promise<ReplayReport> {
  const signal = AbortSignal.timeout(FILE_BOUND_MS);
  // An empty env proves the files need nothing from the environment once `token` is given.
  return replayHttpPath(path.join(HTTP_DIR, file), { variables, env: {}, signal });
}

function assertPassed(report: ReplayReport, expectedExchanges: number): void {
  const failed = report.exchanges.filter((e) => !e.passed);
  assert.ok(
    report.passed && failed.length === 0 && report.exchanges.length === expectedExchanges,
    `${report.file}: ${failed.length} of ${expectedExchanges} exchange(s) failed, ${report.exchanges.length} ran\n${formatReport(report)}`,
  );
}

test('http/ holds exactly the eleven numbered scenarios, each exchange titled "N · …" with expectations', () => {
  const present = readdirSync(HTTP_DIR)
    .filter((f) => f.endsWith('.http'))
    .sort();
  assert.deepEqual(present, FILES);
  for (const file of FILES) {
    const parsed = parseHttpFile(readFileSync(path.join(HTTP_DIR, file), 'utf8'), { path: file });
    assert.deepEqual(parsed.warnings, [], `${file}: parser warnings`);
    assert.ok(parsed.requests.length > 0, `${file}: no exchanges`);
    parsed.requests.forEach((r, i) => {
      assert.match(
        r.title,
        new RegExp(`^${i + 1} · \\S`),
        `${file}: exchange ${i + 1} is titled "${r.title}"`,
      );
      assert.ok(r.expectations.length > 0, `${file}: "${r.title}" has no @expect`);
    });
  }
});

for (const file of FILES) {
  test(
    `replay http/${file} against the kit: every exchange passes`,
    { timeout: FILE_BOUND_MS + 10_000 },
    async () => {
      const parsed = parseHttpFile(readFileSync(path.join(HTTP_DIR, file), 'utf8'), { path: file });
      assertPassed(await replay(file), parsed.requests.length);
    },
  );
}

test("KIT.md error capture: exchange 6 of 11-errors.http is the seed's push config on code-reviewer → -32003", async () => {
  const text = readFileSync(path.join(HTTP_DIR, '11-errors.http'), 'utf8');
  const sixth = parseHttpFile(text, { path: '11-errors.http' }).requests[5]!;
  assert.equal(sixth.title, '6 · CreateTaskPushNotificationConfig: not supported');
  assert.equal(sixth.method, 'POST');
  assert.equal(sixth.target, '/a2a/jsonrpc');
  assert.equal(sixth.headers.find((h) => h.name.toLowerCase() === 'host')?.value, '{{crHost}}');
  const body = JSON.parse(sixth.body ?? '') as { method: string; params: { taskId: string } };
  assert.equal(body.method, 'CreateTaskPushNotificationConfig');
  assert.equal(body.params.taskId, '00000000-0000-4000-8000-000000000000');
  const written = sixth.expectations.map((e) => e.source);
  for (const must of [
    'status 200',
    'body $.error.code == -32003',
    'body $.error.message == "Push notifications are not supported"',
    'body $.error.data[0].reason == "PUSH_NOTIFICATION_NOT_SUPPORTED"',
  ]) {
    assert.ok(written.includes(must), `exchange 6 lacks "@expect ${must}"`);
  }
  const report = await replay('11-errors.http');
  const result = report.exchanges[5];
  assert.ok(result?.passed, formatReport(report));
  assert.equal(result.status, 200);
});
