/**
 * What the README and the guides claim about the repository, checked: every npm script they name
 * exists, the architecture map in docs/architecture.md lists every folder under src/ and kit/src/, and
 * every kit agent serves the health endpoints the README promises. (The planner transcript in
 * docs/kit.md is checked against a real run in kit/test/kit-transcript-doc.test.ts; the drain on
 * SIGTERM and SIGINT in kit/test/kit-agents-ports.test.ts.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startKit, type KitFixture } from '../kit/test/kit-agents-fixture.js';

const read = (file: string) => readFileSync(file, 'utf8');
const README = read('README.md');
const GUIDES = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => path.join('docs', f));

test('every npm script the README and the guides name exists in package.json', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const named = new Map<string, string>();
  for (const file of ['README.md', ...GUIDES]) {
    for (const m of read(file).matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g))
      named.set(m[1] ?? m[2]!, file);
  }
  assert.ok(
    named.has('start') && named.has('test') && named.has('agents'),
    'the README names them',
  );
  const missing = [...named].filter(([name]) => !(name in scripts));
  assert.deepEqual(missing, [], 'scripts named in the docs but absent from package.json');
});

/** Every folder the map in docs/architecture.md lists (see the parsing rules inline). */
function mappedFolders(): Set<string> {
  const doc = read('docs/architecture.md');
  const block = /```\n(src\/index\.ts[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/architecture.md has its map (a code block starting with src/index.ts)');
  const listed = new Set<string>();
  let parent = '';
  for (const line of block.split('\n')) {
    // A line names folders before its description: tokens ending in "/" separated by single spaces.
    const indent = /^ */.exec(line)![0].length;
    const head = line.slice(indent).split(/ {2,}/)[0]!;
    const folders = head.split(' ').filter((t) => t.endsWith('/'));
    if (!folders.length) continue;
    // Unindented: paths from the repository root; indented: inside the last unindented folder.
    if (indent === 0) parent = folders[0]!;
    for (const f of folders) listed.add(path.posix.normalize(indent === 0 ? f : parent + f));
  }
  return listed;
}

function foldersUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((d) => d.isDirectory())
    .map((d) => `${path.posix.join(path.relative('.', d.parentPath ?? d.path), d.name)}/`);
}

test('the architecture map in docs/architecture.md lists every folder under src/ and kit/src/, and no folder that is gone', () => {
  const listed = mappedFolders();
  const unlisted = [...foldersUnder('src'), ...foldersUnder('kit/src')].filter(
    (f) => !listed.has(f),
  );
  assert.deepEqual(unlisted, [], 'folders missing from the map in docs/architecture.md');
  const stale = [...listed].filter((f) => !existsSync(f));
  assert.deepEqual(stale, [], 'the map names folders that do not exist');
});

describe('the health claim: every kit agent serves /healthz and /readyz', () => {
  let f: KitFixture;
  before(async () => {
    f = await startKit();
  });
  after(() => f?.close());

  test('the README makes the claim', () => {
    assert.match(README, /every agent serves `\/healthz` and `\/readyz`/i);
  });

  for (const agent of ['test-runner', 'code-reviewer', 'deployer'] as const) {
    test(`${agent}: /healthz live, /readyz ready`, async () => {
      const { origin } = f.kit.agents[agent];
      const live = await fetch(`${origin}/healthz`);
      assert.equal(live.status, 200);
      assert.deepEqual(await live.json(), { status: 'live' });
      const ready = await fetch(`${origin}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { status: string }).status, 'ready');
    });
  }
});
