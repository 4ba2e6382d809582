/**
 * The rule every test that needs something from the machine follows (test/service-fixture.ts): a
 * missing command or service is a skip that says what to install — and under CI=true a failure.
 * The CI half runs a small test file in a child `node --test`, as CI would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandMissing, findCommand, freePort } from './service-fixture.js';

const ABSENT = 'a2a-kit-no-such-command';

test('findCommand finds an executable on PATH or in the extra directories, and nothing else', () => {
  const node = process.execPath;
  assert.equal(findCommand(path.basename(node), [path.dirname(node)]) !== undefined, true);
  assert.equal(findCommand(ABSENT), undefined);
  assert.equal(findCommand(ABSENT, [path.dirname(node)]), undefined);
});

test('commandMissing: false when installed; else a reason naming the Debian package', () => {
  assert.equal(commandMissing('sh', 'dash'), false);
  if (process.env.CI !== 'true') {
    assert.equal(
      commandMissing(ABSENT, 'a2a-kit-pkg'),
      `${ABSENT} is not installed (apt-get install -y a2a-kit-pkg)`,
    );
  }
});

test('a test that needs a missing command skips without CI and fails the run under CI=true', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'a2a-service-fixture-'));
  try {
    const file = path.join(dir, 'needs.test.ts');
    const fixture = pathToFileURL(path.resolve('test/service-fixture.ts')).href;
    writeFileSync(
      file,
      `import { test } from 'node:test';\n` +
        `import { commandMissing } from ${JSON.stringify(fixture)};\n` +
        `test('uses it', { skip: commandMissing(${JSON.stringify(ABSENT)}, 'a2a-kit-pkg') }, () => {});\n`,
    );
    const run = (ci: string | undefined) => {
      const { CI: _, NODE_TEST_CONTEXT: __, ...env } = process.env;
      return spawnSync(
        process.execPath,
        ['--import', 'tsx', '--test', '--test-reporter=tap', file],
        {
          encoding: 'utf8',
          timeout: 60_000,
          env: ci === undefined ? env : { ...env, CI: ci },
        },
      );
    };
    const local = run(undefined);
    assert.equal(local.status, 0, local.stdout + local.stderr);
    assert.match(local.stdout, /# skipped 1/);
    assert.match(local.stdout, /# fail 0/);
    const ci = run('true');
    assert.equal(ci.status, 1, ci.stdout + ci.stderr);
    assert.match(ci.stdout, /# fail 1/);
    assert.match(
      ci.stdout,
      new RegExp(
        `needed under CI=true: ${ABSENT} is not installed \\(apt-get install -y a2a-kit-pkg\\)`,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('freePort: a port on 127.0.0.1 that a server can take', async () => {
  const port = await freePort();
  assert.ok(port > 0 && port < 65536);
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', resolve);
  });
  await new Promise((r) => s.close(r));
});
