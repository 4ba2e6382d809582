/**
 * What keeps a test run from outliving the process that started it. Each run gets a temporary folder named
 * after the owner's pid, and its processes a group of their own led by a small supervisor. The supervisor
 * watches its stdin, a pipe from the agent: when the agent dies, even by `kill -9`, the pipe closes and the
 * supervisor removes the run's folder and kills its whole group (Node offers no parent-death signal, so
 * this is the orphan check; a re-parenting check backs it up). Folders a crash still left behind are removed
 * at the next start, and a normal exit kills every group still running.
 */
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Prefix of a run's temporary folder: `kit-reporter-<owner pid>-<random>`. */
export const RUN_FOLDER_PREFIX = 'kit-reporter-';
const OWNED = /^kit-reporter-(\d+)-[A-Za-z0-9]{6}$/;
/** Folders of earlier versions carry no pid; a run lasts at most an hour, so older ones are abandoned. */
const LEGACY = /^kit-reporter-[A-Za-z0-9]{6}$/;
const LEGACY_AGE_MS = 2 * 60 * 60 * 1000;

/**
 * Source of the supervisor (CommonJS, no dependencies): `node supervisor.cjs <run folder> <node args…>`
 * runs `node <node args…>` in its own process group and forwards its exit.
 */
export const SUPERVISOR_SOURCE = `'use strict';
const { spawn } = require('node:child_process');
const { rmSync } = require('node:fs');
const [folder, ...args] = process.argv.slice(2);
const parent = process.ppid;
let ending = false;
function orphaned() {
  if (ending) return;
  ending = true;
  try { rmSync(folder, { recursive: true, force: true }); } catch {}
  try { process.kill(0, 'SIGKILL'); } catch {}
  process.exit(1);
}
process.stdin.on('end', orphaned);
process.stdin.on('error', orphaned);
process.stdin.resume();
setInterval(() => { if (process.ppid !== parent) orphaned(); }, 500).unref();
const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
child.on('error', (err) => { process.stderr.write(String(err) + '\\n'); process.exit(1); });
child.on('exit', (code, signal) => {
  if (ending) return;
  if (signal) {
    try { process.kill(process.pid, signal); } catch {}
    setTimeout(() => process.exit(1), 200);
    return;
  }
  process.exit(code === null ? 1 : code);
});
`;

/** Runs of this process still going: process group → folder. */
const live = new Map<number, string>();
/** Folders this process created and has not removed yet. */
const ownFolders = new Set<string>();
let exitHook = false;

/** Kills a run's process group (every process the run started that stayed in it). */
export function killRunGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** On a normal exit (also `process.exit` after an uncaught error), take every running group and folder along. */
function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const [pgid, folder] of live) {
      killRunGroup(pgid);
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

/** Creates a run folder under `tempRoot`, named after this process. */
export async function createRunFolder(tempRoot: string): Promise<string> {
  // Absolute, so the sweep (which resolves its root) recognizes the folder as one of ours.
  const folder = await mkdtemp(
    path.join(path.resolve(tempRoot), `${RUN_FOLDER_PREFIX}${process.pid}-`),
  );
  ownFolders.add(folder);
  return folder;
}

/** Removes a run folder (idempotent). */
export async function removeRunFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  ownFolders.delete(folder);
}

/** Registers a started run so an exit of this process kills its group and removes its folder; returns the undo. */
export function trackRun(pgid: number, folder: string): () => void {
  installExitHook();
  live.set(pgid, folder);
  return () => {
    live.delete(pgid);
  };
}

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds that pid; its folder is not ours to judge.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes run folders under `tempRoot` whose owner is gone: a pid that no longer runs, this very pid when
 * the folder is not one of ours (a restarted container often gets its old pid back), and pid-less folders of
 * earlier versions older than two hours. Returns the removed paths.
 */
export async function cleanStaleRunFolders(root: string = os.tmpdir()): Promise<string[]> {
  const tempRoot = path.resolve(root);
  let names: string[];
  try {
    names = await readdir(tempRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(RUN_FOLDER_PREFIX)) continue;
    const full = path.join(tempRoot, name);
    const m = OWNED.exec(name);
    let stale: boolean;
    if (m) {
      const pid = Number(m[1]);
      stale = pid === process.pid ? !ownFolders.has(full) : !ownerAlive(pid);
    } else {
      stale =
        LEGACY.test(name) &&
        Date.now() - (await stat(full).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs >
          LEGACY_AGE_MS;
    }
    if (!stale) continue;
    await rm(full, { recursive: true, force: true }).catch(() => undefined);
    removed.push(full);
  }
  return removed;
}

const cleaned = new Map<string, Promise<string[]>>();

/** {@link cleanStaleRunFolders} once per temp root and process; every run awaits it before making its folder. */
export function cleanStaleRunFoldersOnce(tempRoot: string = os.tmpdir()): Promise<string[]> {
  const key = path.resolve(tempRoot);
  let p = cleaned.get(key);
  if (!p) {
    p = cleanStaleRunFolders(key).catch((): string[] => []);
    cleaned.set(key, p);
  }
  return p;
}
