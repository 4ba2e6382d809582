/**
 * Each optional peer dependency, when it is not installed, gives one message naming the entry point,
 * the package and the install command. Absence is simulated in a child process: a module loader hook
 * (module.register) makes the named packages unresolvable, exactly as Node reports a missing package.
 * The same imports without the hook succeed, so the hook is what each failure comes from. The SQLite
 * store loads its driver through require(), which these hooks do not see on Node 20; the pack test
 * runs it without better-sqlite3 installed (scripts/pack-fixture/sqlite-missing.ts).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
let dir = '';

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'a2a-peers-'));
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `const hidden = new Set((process.env.HIDE_PEERS ?? '').split(',').filter(Boolean));
export async function resolve(specifier, context, next) {
  if (hidden.has(specifier)) {
    const err = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  return next(specifier, context);
}
`,
  );
  writeFileSync(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `code` as an ES module in the repository with `hide` unresolvable; never rejects. */
async function child(code: string, hide: string[], args: string[] = []) {
  const argv = ['--import', pathToFileURL(path.join(dir, 'register.mjs')).href];
  argv.push(...(args.length ? args : ['--input-type=module', '-e', code]));
  try {
    const r = await exec(process.execPath, argv, {
      cwd: root,
      env: { ...process.env, HIDE_PEERS: hide.join(','), NO_COLOR: '1' },
      timeout: 60_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const importing = (entry: string) =>
  `try { await import('${entry}'); console.log('imported'); } ` +
  `catch (err) { console.log('error: ' + err.message); }`;

const CASES = [
  { entry: 'a2a-kit/server/postgres', peer: 'pg', install: 'npm install pg' },
  { entry: 'a2a-kit/server/grpc-js', peer: '@grpc/grpc-js', install: 'npm install @grpc/grpc-js' },
  {
    entry: 'a2a-kit/server/otel',
    peer: '@opentelemetry/api',
    install: 'npm install @opentelemetry/api',
  },
  {
    entry: 'a2a-kit/client/otel',
    peer: '@opentelemetry/api',
    install: 'npm install @opentelemetry/api',
  },
];

describe('an optional peer that is not installed', () => {
  for (const { entry, peer, install } of CASES) {
    it(`${entry} without ${peer}: one message naming it and how to install it`, async () => {
      const r = await child(importing(entry), [peer]);
      assert.equal(
        r.stdout.trim(),
        `error: ${entry} needs the package ${peer}, which is not installed: ${install}`,
      );
      const control = await child(importing(entry), []);
      assert.equal(control.stdout.trim(), 'imported', control.stderr);
    });
  }

  it('a2a-kit/server/redis without ioredis: listen() says so', async () => {
    const code = `
      import { createAgentServer } from 'a2a-kit/server';
      import { redisEvents } from 'a2a-kit/server/redis';
      const card = (o) => ({ name: 'x', description: 'x', version: '1',
        supportedInterfaces: [{ url: o + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [] });
      const server = createAgentServer({ card, executor: (c, t) => t.complete(),
        events: redisEvents('redis://127.0.0.1:1'), logger: { debug() {}, info() {}, warn() {}, error() {} } });
      try { await server.listen(0, '127.0.0.1'); console.log('listening'); }
      catch (err) { console.log('error: ' + err.message); }
      await server.close().catch(() => {});`;
    const r = await child(code, ['ioredis']);
    assert.match(
      r.stdout,
      /a2a-kit\/server\/redis needs the package ioredis, which is not installed: npm install ioredis/,
    );
  });

  it('a2a db migrate without pg: exit 1 and the same message', async () => {
    const r = await child(
      '',
      ['pg'],
      [path.join(root, 'dist', 'cli', 'a2a.js'), 'db', 'migrate', 'postgres://x@127.0.0.1:1/db'],
    );
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /a2a-kit\/server\/postgres needs the package pg, which is not installed: npm install pg/,
    );
  });
});
