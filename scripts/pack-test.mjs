#!/usr/bin/env node
/**
 * The package as a user gets it (issue 14, item 2): `npm pack`, install the tarball into a fresh
 * `"type": "module"` project with a `nodenext` tsconfig, type-check and run programs that import only
 * package names (scripts/pack-fixture/), and refuse runtime dependencies a library user must not get.
 * gRPC both ways (`a2a-kit/server/grpc`, `a2a-kit/client/grpc`) is type-checked and run without `@grpc/grpc-js` or `protobufjs`.
 * publint and @arethetypeswrong/cli check the package's metadata and each entry point's types.
 *
 *   node scripts/pack-test.mjs        (npm run test:pack)
 *
 * PACK_TEST_TIMEOUT_S bounds the whole run (default 600). PACK_TEST_NATIVE_BUILD=1 builds
 * better-sqlite3 from source in the temporary project instead of reusing the repository's binary.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const started = Date.now();
const deadline = started + (Number(process.env.PACK_TEST_TIMEOUT_S) || 600) * 1000;
/** What a library user must never get unasked: a compiler, the kit's logger, an unused driver, native code, frameworks. */
const FORBIDDEN_RUNTIME = ['typescript', 'pino', 'pg', 'better-sqlite3', 'express', 'fastify'];
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

// `npm run` exports its own prefix and package facts; a child npm must see only the temp project.
const KEEP_NPM_ENV = new Set([
  'npm_config_cache',
  'npm_config_registry',
  'npm_config_userconfig',
  'npm_config_globalconfig',
]);
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) =>
      !(k.toLowerCase().startsWith('npm_') && !KEEP_NPM_ENV.has(k.toLowerCase())) &&
      k !== 'NODE_PATH' &&
      k !== 'INIT_CWD',
  ),
);

const step = (what) =>
  console.log(`pack test · ${what}  [${((Date.now() - started) / 1000).toFixed(0)} s]`);

function fail(message) {
  throw Object.assign(new Error(message), { packTest: true });
}

/** Run a command to completion within what is left of the time budget; returns stdout. */
function run(cmd, args, cwd, { allowFail = false } = {}) {
  const left = deadline - Date.now();
  if (left <= 0) fail(`out of time before: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    cwd,
    env: childEnv,
    encoding: 'utf8',
    timeout: left,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) fail(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0 && !allowFail) {
    fail(
      `${cmd} ${args.join(' ')} exited ${r.status ?? r.signal} in ${cwd}\n${r.stdout}\n${r.stderr}`.trimEnd(),
    );
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The tarball holds the build and the docs, nothing of the kit, sources or tests, and no stale build output. */
function checkTarballContents(tarball) {
  const files = run('tar', ['-tzf', tarball], root)
    .stdout.split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const wanted = ['package.json', 'README.md', 'LICENSE'];
  for (const entry of Object.values(pkg.exports)) {
    if (typeof entry === 'object')
      wanted.push(...Object.values(entry).map((p) => p.replace(/^\.\//, '')));
  }
  const missing = wanted.filter((f) => !files.includes(f));
  if (missing.length) fail(`the tarball lacks ${missing.join(', ')}`);
  const foreign = files.filter((f) => !wanted.includes(f) && !f.startsWith('dist/'));
  if (foreign.length)
    fail(
      `the tarball ships files outside dist/: ${foreign.join(', ')} (check "files" in package.json)`,
    );
  const maps = files.filter((f) => f.endsWith('.map'));
  if (maps.length)
    fail(
      `the tarball ships source maps whose sources it does not contain: ${maps.slice(0, 3).join(', ')} …`,
    );
  const stale = files.filter(
    (f) =>
      /^dist\/.*\.js$/.test(f) &&
      !existsSync(path.join(root, f.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))),
  );
  if (stale.length)
    fail(
      `dist/ has build output without a source (stale files would ship): ${stale.join(', ')}; rm -rf dist && npm run build`,
    );
  return files.length;
}

/** The README's shortest agent and client, as files: they must type-check against the tarball like the fixtures. */
function readmeSnippets(into) {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const [heading, file] of [
    ['**The shortest agent**', 'readme-agent.ts'],
    ['**The shortest client**', 'readme-client.ts'],
  ]) {
    const at = readme.indexOf(heading);
    const block = at < 0 ? null : /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
    if (!block) fail(`README.md has no \`\`\`ts block after ${heading}`);
    writeFileSync(path.join(into, file), block[1]);
  }
}

/** Names of every installed package in a2a-kit's runtime tree, from `npm ls --json` (unmet optional peers are `{}`). */
function runtimeNames(tree) {
  const names = new Set();
  const walk = (deps) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (names.has(name) || node.version === undefined) continue;
      names.add(name);
      walk(node.dependencies);
    }
  };
  walk(tree.dependencies?.['a2a-kit']?.dependencies);
  return names;
}

/** Install better-sqlite3 12 the way a user would; reuse the repository's native build of the same version when there is one. */
function installSqlite(project) {
  const repoCopy = path.join(root, 'node_modules', 'better-sqlite3');
  const binary = path.join(repoCopy, 'build', 'Release', 'better_sqlite3.node');
  const version = existsSync(binary)
    ? JSON.parse(readFileSync(path.join(repoCopy, 'package.json'), 'utf8')).version
    : undefined;
  if (process.env.PACK_TEST_NATIVE_BUILD === '1' || !version?.startsWith('12.')) {
    run('npm', [...NPM_INSTALL, 'better-sqlite3@12'], project);
    return 'better-sqlite3@12 built from source';
  }
  // Compiling SQLite takes minutes on two cores; the same version's binary for this very Node is equivalent.
  run('npm', [...NPM_INSTALL, '--ignore-scripts', `better-sqlite3@${version}`], project);
  const target = path.join(project, 'node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(target, { recursive: true });
  copyFileSync(binary, path.join(target, 'better_sqlite3.node'));
  return `better-sqlite3@${version}, native binary reused from the repository's install`;
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'a2a-kit-pack-'));
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => (cleanup(), process.exit(130)));
  try {
    step('npm pack (runs the prepare build)');
    run('npm', ['pack', '--pack-destination', work], root);
    const tarballName = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarballName) fail('npm pack produced no tarball');
    const tarball = path.join(work, tarballName);
    const fileCount = checkTarballContents(tarball);

    // The package metadata as published: exports, types and files agree (publint; warnings fail), and
    // every entry point's types resolve the way Node and bundlers resolve its code (attw). The package is
    // ESM only, so attw's esm-only profile leaves out the CommonJS and node10 resolutions.
    step('publint --strict and attw --profile esm-only on the tarball');
    const bin = (name) => path.join(root, 'node_modules', '.bin', name);
    console.log(run(bin('publint'), ['--strict'], root).stdout.trimEnd());
    run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped'], root);
    console.log(
      'attw: no problems for node16 (from ESM) and bundler resolution of any entry point',
    );

    step(`a fresh project in ${work}/project`);
    const project = path.join(work, 'project');
    mkdirSync(project);
    const repoDev = JSON.parse(
      readFileSync(path.join(root, 'package.json'), 'utf8'),
    ).devDependencies;
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify(
        {
          name: 'a2a-kit-pack-test',
          private: true,
          type: 'module',
          dependencies: { 'a2a-kit': `file:${tarball}` },
          devDependencies: {
            typescript: repoDev.typescript,
            '@types/node': repoDev['@types/node'],
          },
        },
        null,
        2,
      ),
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          strict: true,
          outDir: 'out',
          rootDir: 'src',
        },
        include: ['src'],
      }),
    );
    cpSync(path.join(root, 'scripts', 'pack-fixture'), path.join(project, 'src'), {
      recursive: true,
    });
    readmeSnippets(path.join(project, 'src'));
    run('npm', NPM_INSTALL, project);

    step('npm ls --omit=dev (what a library user installs)');
    console.log(run('npm', ['ls', '--omit=dev', '--all'], project).stdout.trimEnd());
    const names = runtimeNames(
      JSON.parse(run('npm', ['ls', '--omit=dev', '--all', '--json'], project).stdout),
    );
    if (!names.size)
      fail('npm ls shows no dependency of a2a-kit; expected at least its runtime libraries');
    const forbidden = FORBIDDEN_RUNTIME.filter((n) => names.has(n));
    if (forbidden.length)
      fail(`runtime dependencies a library user must not get: ${forbidden.join(', ')}`);

    step(
      "type-check the fixtures and the README's shortest agent and client (strict, nodenext, no skipLibCheck)",
    );
    run(
      process.execPath,
      [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      project,
    );

    step('run them');
    const node = (file) =>
      run(process.execPath, [path.join('out', file)], project).stdout.trimEnd();
    console.log(node('main.js'));
    console.log(node('sqlite-missing.js'));
    step('run the installed `a2a` command line (npx a2a --version)');
    const version = run('npx', ['--no-install', 'a2a', '--version'], project).stdout.trim();
    if (!/a2a/i.test(version)) fail(`npx a2a --version printed ${JSON.stringify(version)}`);
    console.log(version);
    step('install better-sqlite3 12 and run the SQLite store');
    const how = installSqlite(project);
    console.log(`${node('sqlite.js')} with ${how}`);
    step(
      'gRPC server and client without @grpc/grpc-js or protobufjs (type-checked above; now run)',
    );
    // The server speaks HTTP/2 and protobuf itself: neither grpc-js nor a protobuf library may be there to help.
    for (const dep of ['@grpc/grpc-js', 'protobufjs']) {
      if (existsSync(path.join(project, 'node_modules', ...dep.split('/'))))
        fail(
          `${dep} is installed in the fresh project, so it cannot show that a2a-kit/server/grpc runs without it`,
        );
    }
    console.log(node('grpc-without-grpc-js.js'));

    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `pack test: PASS · ${tarballName} (${fileCount} files) installs, type-checks and runs in a fresh nodenext project; no ${FORBIDDEN_RUNTIME.join('/')} at runtime (${seconds} s)`,
    );
  } finally {
    cleanup();
  }
}

main().catch((err) => {
  console.error(`pack test: FAIL · ${err.packTest ? err.message : (err.stack ?? err)}`);
  process.exitCode = 1;
});
