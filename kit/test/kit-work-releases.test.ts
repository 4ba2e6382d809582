import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MANIFEST_NAME, ReleaseError, ReleaseManager } from '../src/work/index.js';
import type { ReleaseErrorCode } from '../src/work/index.js';

interface Fixture {
  base: string;
  root: string;
  source: string;
}

async function fixture(
  t: { after: (fn: () => Promise<void>) => void },
  fileCount = 3,
): Promise<Fixture> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'kit-rel-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const source = path.join(base, 'build');
  await mkdir(path.join(source, 'lib'), { recursive: true });
  await mkdir(path.join(source, 'node_modules', 'dep'), { recursive: true });
  await writeFile(path.join(source, 'node_modules', 'dep', 'index.js'), 'skipped');
  await writeFile(path.join(source, 'index.js'), 'export const version = 1;\n');
  for (let i = 0; i < fileCount; i += 1)
    await writeFile(path.join(source, 'lib', `part-${i}.js`), `export const n = ${i};\n`);
  return { base, root: path.join(base, 'releases'), source };
}

function code(expected: ReleaseErrorCode) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof ReleaseError, String(err));
    assert.equal(err.code, expected, err.message);
    return true;
  };
}

test('releases: publish copies, writes a manifest and switches current; rollback walks back', async (t) => {
  const f = await fixture(t);
  const rm1 = new ReleaseManager(f.root);
  assert.equal(await rm1.current('staging'), null);
  assert.deepEqual(await rm1.list('staging'), []);

  const v1 = await rm1.publish({ source: f.source, target: 'staging', version: '1.0.0' });
  assert.equal(v1.previous, null);
  assert.equal(v1.path, path.join(f.root, 'staging', 'releases', '1.0.0'));
  assert.deepEqual(
    v1.manifest.files.map((x) => x.path),
    ['index.js', 'lib/part-0.js', 'lib/part-1.js', 'lib/part-2.js'],
    'node_modules is excluded',
  );
  const entry = v1.manifest.files[0];
  assert.ok(entry);
  const copied = await readFile(path.join(v1.path, 'index.js'));
  assert.equal(entry.sha256, createHash('sha256').update(copied).digest('hex'));
  assert.equal(entry.size, copied.length);
  assert.deepEqual(
    JSON.parse(await readFile(path.join(v1.path, MANIFEST_NAME), 'utf8')),
    v1.manifest,
  );
  assert.equal(await readlink(path.join(f.root, 'staging', 'current')), 'releases/1.0.0');
  assert.equal(
    await readFile(path.join(f.root, 'staging', 'current', 'index.js'), 'utf8'),
    'export const version = 1;\n',
  );

  await writeFile(path.join(f.source, 'index.js'), 'export const version = 2;\n');
  const v2 = await rm1.publish({ source: f.source, target: 'staging' });
  assert.match(v2.version, /^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
  assert.equal(v2.previous, '1.0.0');
  assert.equal(await rm1.current('staging'), v2.version);
  assert.equal(
    await readFile(path.join(f.root, 'staging', 'current', 'index.js'), 'utf8'),
    'export const version = 2;\n',
  );
  assert.deepEqual(
    (await rm1.list('staging')).map((r) => [r.version, r.current, r.files]),
    [
      ['1.0.0', false, 4],
      [v2.version, true, 4],
    ],
  );
  assert.equal(await rm1.current('production'), null, 'targets are independent');

  assert.deepEqual(await rm1.rollback('staging'), { from: v2.version, to: '1.0.0' });
  assert.equal(await rm1.current('staging'), '1.0.0');
  assert.equal(
    await readFile(path.join(f.root, 'staging', 'current', 'index.js'), 'utf8'),
    'export const version = 1;\n',
  );
  await assert.rejects(rm1.rollback('staging'), code('NO_PREVIOUS_RELEASE'));
  assert.deepEqual(await rm1.activate('staging', v2.version), { from: '1.0.0', to: v2.version });

  // A fresh manager over the same root sees the same state (it lives on disk, not in memory).
  const again = new ReleaseManager(f.root);
  assert.equal(await again.current('staging'), v2.version);
  assert.equal((await again.manifest('staging', '1.0.0')).contentHash, v1.manifest.contentHash);
  assert.deepEqual((await again.rollback('staging')).to, '1.0.0');
});

test('releases: refuses duplicate versions, bad names, bad targets and bad sources', async (t) => {
  const f = await fixture(t);
  const mgr = new ReleaseManager(f.root, { sourceRoot: f.base });
  await mgr.publish({ source: f.source, target: 'production', version: 'v1' });
  await assert.rejects(
    mgr.publish({ source: f.source, target: 'production', version: 'v1' }),
    code('VERSION_EXISTS'),
  );
  for (const version of ['../evil', 'a/b', '.hidden', '', 'x'.repeat(65), 'semi;colon']) {
    await assert.rejects(
      mgr.publish({ source: f.source, target: 'production', version }),
      code('INVALID_VERSION'),
    );
  }
  await assert.rejects(
    mgr.publish({ source: f.source, target: 'prod' as never }),
    code('INVALID_TARGET'),
  );
  await assert.rejects(mgr.list('../x' as never), code('INVALID_TARGET'));
  await assert.rejects(
    mgr.publish({ source: path.join(f.base, 'missing'), target: 'staging' }),
    code('SOURCE_INVALID'),
  );
  await assert.rejects(
    mgr.publish({ source: path.join(f.source, 'index.js'), target: 'staging' }),
    code('SOURCE_INVALID'),
  );
  await assert.rejects(
    mgr.publish({ source: os.tmpdir(), target: 'staging' }),
    code('SOURCE_INVALID'),
    'outside sourceRoot',
  );
  await assert.rejects(
    mgr.publish({ source: f.root, target: 'staging' }),
    code('SOURCE_INVALID'),
    'the releases root itself',
  );
  await assert.rejects(mgr.activate('production', 'v9'), code('UNKNOWN_VERSION'));
  await assert.rejects(mgr.manifest('production', 'v9'), code('UNKNOWN_VERSION'));
  const empty = path.join(f.base, 'empty');
  await mkdir(empty);
  await assert.rejects(mgr.publish({ source: empty, target: 'staging' }), code('SOURCE_INVALID'));
  assert.deepEqual(
    (await mgr.list('production')).map((r) => r.version),
    ['v1'],
  );
});

test('releases: symlinks in the source are not copied', async (t) => {
  const f = await fixture(t, 1);
  await symlink('/etc/hostname', path.join(f.source, 'link-out'));
  const r = await new ReleaseManager(f.root).publish({
    source: f.source,
    target: 'staging',
    version: 's1',
  });
  assert.ok(!r.manifest.files.some((x) => x.path === 'link-out'));
  assert.ok(!(await readdir(r.path)).includes('link-out'));
});

test('releases: an abort mid-copy leaves no partial release and keeps current', async (t) => {
  const f = await fixture(t, 6);
  const mgr = new ReleaseManager(f.root);
  await mgr.publish({ source: f.source, target: 'staging', version: 'good' });
  const ac = new AbortController();
  let copiedWhenAborted = 0;
  await assert.rejects(
    mgr.publish({
      source: f.source,
      target: 'staging',
      version: 'half',
      signal: ac.signal,
      onProgress: (p) => {
        if (p.copiedFiles === 2) {
          copiedWhenAborted = p.copiedFiles;
          ac.abort();
        }
      },
    }),
    code('ABORTED'),
  );
  assert.equal(copiedWhenAborted, 2);
  assert.deepEqual(
    await readdir(path.join(f.root, 'staging', 'releases')),
    ['good'],
    'no temp dir, no half release',
  );
  assert.equal(await mgr.current('staging'), 'good');
  assert.deepEqual(
    (await mgr.list('staging')).map((r) => r.version),
    ['good'],
  );
  await assert.rejects(
    mgr.publish({ source: f.source, target: 'staging', signal: AbortSignal.abort() }),
    code('ABORTED'),
  );
  assert.deepEqual(await readdir(path.join(f.root, 'staging', 'releases')), ['good']);
  // The aborted version name was never taken.
  assert.equal(
    (await mgr.publish({ source: f.source, target: 'staging', version: 'half' })).version,
    'half',
  );
});

test('releases: concurrent publishes on one manager are serialized', async (t) => {
  const f = await fixture(t, 2);
  const mgr = new ReleaseManager(f.root);
  const results = await Promise.allSettled([
    mgr.publish({ source: f.source, target: 'staging', version: 'same' }),
    mgr.publish({ source: f.source, target: 'staging', version: 'same' }),
    mgr.publish({ source: f.source, target: 'staging', version: 'other' }),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.equal(await mgr.current('staging'), 'other');
  assert.deepEqual((await readdir(path.join(f.root, 'staging', 'releases'))).sort(), [
    'other',
    'same',
  ]);
});
