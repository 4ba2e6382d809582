/**
 * The API reference builds from the doc comments of every package.json export, with TypeDoc's
 * warnings as errors: an exported declaration (or a method of one) without a comment, or a broken
 * `{@link}`, fails here before it reaches a user's editor or the generated pages.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

describe('npm run docs', () => {
  it('builds the API reference of every entry point without a warning', async (t) => {
    const out = mkdtempSync(path.join(tmpdir(), 'a2a-apidocs-'));
    t.after(() => rmSync(out, { recursive: true, force: true }));
    const r = await run(process.execPath, ['scripts/docs.mjs', '--out', out], {
      cwd: root,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.equal(r.stderr, '');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const specifiers = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object')
      .map(([subpath]) => `a2a-kit${subpath.slice(1)}`);
    assert.ok(specifiers.length >= 16, String(specifiers.length));
    for (const specifier of specifiers) {
      const page = path.join(out, 'modules', `${specifier.replaceAll('/', '_')}.html`);
      assert.ok(existsSync(page), `no page for ${specifier}`);
    }
    const server = readFileSync(path.join(out, 'modules', 'a2a-kit_server.html'), 'utf8');
    assert.match(server, /createAgentServer/);
  });
});
