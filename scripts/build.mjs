#!/usr/bin/env node
/**
 * Build once, run many: `tsc -b` over the project references (library → inspector → CLI, and the kit
 * with --kit) compiles only what changed since the last build, then the inspector's static page is
 * synced and build output whose source is gone is pruned. Nothing is ever deleted wholesale, so agents
 * already running from dist/ keep running while `npm run planner` (or anything else) builds again.
 *
 *   node scripts/build.mjs          library, inspector and the a2a CLI (npm run build)
 *   node scripts/build.mjs --kit    the same, then the kit (npm run build:kit)
 *   node scripts/build.mjs --quiet  print nothing when everything was up to date
 *
 * Two builds started together in one checkout take turns (a lock directory in dist/.build). It reports
 * on stderr: stdout belongs to the command it runs inside (`npm pack --json`, say).
 *
 * A2A_BUILT_ONCE=<this checkout's path> (set by .ci/run after its one build) makes a build that
 * compiled anything fail: every later step of the run must find dist/ and kit/dist/ up to date.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pruneOrphans, syncTree } from './build-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => a !== '--kit' && a !== '--quiet');
if (unknown.length) {
  console.error(`build: unknown flag ${unknown[0]} (flags: --kit, --quiet)`);
  process.exit(2);
}
const withKit = args.has('--kit');
const started = Date.now();

const projects = ['tsconfig.cli.json', ...(withKit ? ['kit/tsconfig.json'] : [])];
const infos = [
  'dist/.build/lib.tsbuildinfo',
  'dist/.build/inspector.tsbuildinfo',
  'dist/.build/cli.tsbuildinfo',
  ...(withKit ? ['kit/dist/.build/kit.tsbuildinfo'] : []),
].map((f) => path.join(root, f));
const mtimes = () => infos.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0).join();

const lock = path.join(root, 'dist/.build/lock');
await takeLock();
let status;
try {
  const before = mtimes();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-b', ...projects], { cwd: root, stdio: 'inherit' });
  status = r.status ?? 1;
  const synced = syncTree(
    path.join(root, 'src/inspector/static'),
    path.join(root, 'dist/inspector/static'),
  );
  chmodSync(path.join(root, 'dist/cli/a2a.js'), 0o755);
  const pruned = [
    ...pruneOrphans(path.join(root, 'dist'), path.join(root, 'src'), [
      '.build',
      'inspector/static',
    ]),
    ...(withKit
      ? pruneOrphans(path.join(root, 'kit/dist'), path.join(root, 'kit/src'), ['.build'])
      : []),
  ];
  const changed = mtimes() !== before || pruned.length + synced.length > 0;
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (status !== 0) console.error(`build: tsc -b failed (${took})`);
  else if (changed && process.env.A2A_BUILT_ONCE === root) {
    console.error(
      `build: compiled again after the run's one build (A2A_BUILT_ONCE): ${projects.join(' + ')}`,
    );
    status = 1;
  } else if (changed) console.error(`build: ${projects.join(' + ')} brought up to date in ${took}`);
  else if (!args.has('--quiet')) console.error(`build: up to date (${took})`);
} finally {
  rmSync(lock, { recursive: true, force: true });
}
process.exit(status);

/** Waits (bounded) for another build in this checkout to finish; a lock whose owner died is taken over. */
async function takeLock() {
  mkdirSync(path.dirname(lock), { recursive: true });
  const until = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (!ownerAlive() || Date.now() > until) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function ownerAlive() {
  let pid;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    // Just created by its owner, pid not written yet: treat as alive for this round.
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
