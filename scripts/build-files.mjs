/**
 * File steps of the incremental build (scripts/build.mjs): copying a folder of static files and pruning
 * build output whose source was deleted. Both touch only the files that differ, and replace a file by
 * renaming a complete copy over it, so a process reading dist/ never sees a half-written file.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';

/** Makes `to` hold exactly the files of `from`; returns the relative paths it wrote or removed. */
export function syncTree(from, to) {
  const touched = [];
  const want = new Set(list(from));
  for (const rel of want) {
    const src = path.join(from, rel);
    const dst = path.join(to, rel);
    if (existsSync(dst) && readFileSync(src).equals(readFileSync(dst))) continue;
    mkdirSync(path.dirname(dst), { recursive: true });
    const tmp = `${dst}.${process.pid}.tmp`;
    copyFileSync(src, tmp);
    renameSync(tmp, dst);
    touched.push(rel);
  }
  for (const rel of list(to)) {
    if (want.has(rel)) continue;
    rmSync(path.join(to, rel), { force: true });
    touched.push(rel);
  }
  return touched;
}

/**
 * Removes `.js` / `.d.ts` files under `out` whose `.ts` source under `src` no longer exists (a deleted
 * or renamed module), skipping the folders in `keep` (relative to `out`). Returns what it removed.
 */
export function pruneOrphans(out, src, keep) {
  const removed = [];
  for (const rel of list(out, keep)) {
    const m = /^(.*)\.(js|d\.ts)$/.exec(rel);
    if (!m || existsSync(path.join(src, `${m[1]}.ts`))) continue;
    rmSync(path.join(out, rel), { force: true });
    removed.push(rel);
  }
  return removed;
}

/** Relative paths of the files below `dir` (none when it does not exist), minus the `skip` folders. */
function list(dir, skip = []) {
  if (!existsSync(dir)) return [];
  const skipped = new Set(skip.map((s) => path.normalize(s)));
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
    .filter((rel) => ![...skipped].some((s) => rel === s || rel.startsWith(s + path.sep)));
}
