/**
 * `npm start -- --trace` as a user runs it: the built demo in a child process, agents on free ports,
 * work and workspace in a temp dir. The run ends with one trace printed as a tree, from the planner's
 * root span down to each agent's work and the deployer's push deliveries reaching the planner's webhook.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_BOUND_MS, runBuilt } from './kit-planner-fixture.js';

let dir: string;

// Built, as users run it (`npm test` builds first; a rebuild here would pull dist/ from under other tests).
before(() => {
  assert.ok(
    existsSync('kit/dist/cli/demo.js'),
    'kit/dist/cli/demo.js is missing: run npm run build:kit first',
  );
  dir = mkdtempSync(path.join(os.tmpdir(), 'kit-trace-'));
  cpSync(path.join('samples', 'change-ok'), path.join(dir, 'samples', 'change-ok'), {
    recursive: true,
  });
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(
  'npm start -- --trace ends with one trace across the planner, the three agents and the push deliveries',
  { timeout: CLI_BOUND_MS + 10_000 },
  async () => {
    const r = await runBuilt(['--trace'], {
      KIT_PORTS: '0,0,0',
      KIT_WORK_DIR: path.join(dir, 'work'),
      KIT_WORKSPACE: path.join(dir, 'samples'),
    });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const at = r.stdout.indexOf('\ntrace (OpenTelemetry, in memory)\n');
    assert.ok(at > 0, r.stdout);
    const tree = r.stdout.slice(at);
    assert.equal(
      tree.match(/^trace [0-9a-f]{32} · \d+ spans$/gm)?.length,
      1,
      `one trace:\n${tree}`,
    );
    assert.match(tree, /\nplanner change-ok → \w+ /);
    for (const agent of ['test-runner', 'code-reviewer', 'deployer']) {
      assert.match(
        tree,
        new RegExp(`└─ ${agent} ← Send(Streaming)?Message \\(JSONRPC\\)`),
        `${agent} in the tree:\n${tree}`,
      );
      assert.match(tree, new RegExp(`└─ ${agent} works`));
    }
    assert.match(tree, /deployer push #1 · HTTP 204[^\n]*\n[│ ]*└─ planner webhook · HTTP 204/);
  },
);
