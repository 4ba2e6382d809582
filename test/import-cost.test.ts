/**
 * Import cost, by module graph rather than by time (the times are in bench/import-time.mjs): importing
 * an entry point must not load zod or jose, which together took most of the server's and the client's
 * import. Each import runs in a fresh Node process whose load hook writes down every module it loads;
 * the entry points are imported by package name, so through `exports` and `dist/` (run `npm run build`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

// Runs on the hooks thread: every module loaded is appended, synchronously, to the file it is given.
const HOOK = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}`;

/** Every module URL a fresh process loads while running `code` (an ES module body). */
function modulesLoadedBy(code: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'a2a-import-cost-'));
  const file = path.join(dir, 'loaded.txt');
  try {
    const register =
      `import { register } from 'node:module';\n` +
      `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)}, ` +
      `{ data: { file: ${JSON.stringify(file)} } });\n`;
    execFileSync(process.execPath, ['--input-type=module', '-e', `${register}${code}`], {
      cwd: root,
      timeout: 30_000,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const packagesIn = (urls: string[]): Set<string> =>
  new Set(
    urls.flatMap((u) => {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
      return m ? [m[1]!] : [];
    }),
  );

for (const entry of ['a2a-kit', 'a2a-kit/server', 'a2a-kit/client']) {
  test(`importing ${entry} loads neither zod nor jose`, () => {
    const loaded = modulesLoadedBy(`await import(${JSON.stringify(entry)});`);
    // The hook saw the entry point itself, so an empty list cannot pass for a cheap import.
    assert.ok(
      loaded.some((u) => u.includes('/dist/')),
      `the load hook saw no module of dist/:\n${loaded.join('\n')}`,
    );
    const packages = packagesIn(loaded);
    assert.ok(!packages.has('zod'), `${entry} loaded zod`);
    assert.ok(!packages.has('jose'), `${entry} loaded jose`);
  });
}

test('the first card check loads zod, and a signed card check loads jose (the hook sees both)', () => {
  const loaded = packagesIn(
    modulesLoadedBy(
      `const { checkAgentCard, verifyAgentCard } = await import('a2a-kit/client');\n` +
        `const r = await checkAgentCard({ name: 'x' });\n` +
        `if (r.ok) throw new Error('an incomplete card passed');\n` +
        `await verifyAgentCard({ signatures: [{ protected: 'e30', signature: 'AA' }] });`,
    ),
  );
  assert.ok(loaded.has('zod'), 'checkAgentCard did not load zod');
  assert.ok(loaded.has('jose'), 'verifyAgentCard did not load jose');
});
