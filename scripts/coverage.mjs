#!/usr/bin/env node
/**
 * `npm run coverage`: the test suite under Node's own coverage (`--experimental-test-coverage`, no c8),
 * then line, branch and function percentages for the library (src/) and the kit (kit/src/) — test
 * files, fixtures and dependencies are left out of the figures.
 *
 *   node scripts/coverage.mjs                      the whole suite (test/ and kit/test/), as npm test
 *   node scripts/coverage.mjs test/core-*.test.ts  only these files (a quick look at one area)
 *
 * What runs in the test processes is counted (TypeScript lines, through tsx's source maps); code that
 * runs only in a child process a test starts (the built CLI, `npm run agents`) is not. The exit code is
 * the test run's; the figures are printed either way. This file is also the reporter that collects
 * them: Node loads it with --test-reporter and it writes the coverage summary to COVERAGE_SUMMARY_FILE.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');

/** The reporter half: keeps failures visible (on stderr) and saves the coverage summary. */
export default async function* coverageReporter(source) {
  for await (const event of source) {
    if (event.type === 'test:fail' && event.data.details?.type !== 'suite') {
      const where = event.data.file ? ` (${path.relative(root, event.data.file)})` : '';
      yield `not ok ${event.data.name}${where}\n`;
    } else if (event.type === 'test:coverage' && process.env.COVERAGE_SUMMARY_FILE) {
      writeFileSync(process.env.COVERAGE_SUMMARY_FILE, JSON.stringify(event.data.summary));
    }
  }
}

/** Percentages of one set of files. */
function totals(files) {
  const sum = (k) => files.reduce((n, f) => n + f[k], 0);
  const pct = (covered, total) => (total === 0 ? 100 : (100 * covered) / total);
  return {
    files: files.length,
    lines: pct(sum('coveredLineCount'), sum('totalLineCount')),
    branches: pct(sum('coveredBranchCount'), sum('totalBranchCount')),
    functions: pct(sum('coveredFunctionCount'), sum('totalFunctionCount')),
  };
}

function main(args) {
  const files = args.length
    ? args
    : ['test', 'kit/test'].flatMap((dir) =>
        readdirSync(path.join(root, dir))
          .filter((f) => f.endsWith('.test.ts'))
          .map((f) => `${dir}/${f}`),
      );
  const tmp = mkdtempSync(path.join(tmpdir(), 'a2a-coverage-'));
  const summaryFile = path.join(tmp, 'summary.json');
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      '--experimental-test-coverage',
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      `--test-reporter=${self}`,
      '--test-reporter-destination=stderr',
      ...files,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, COVERAGE_SUMMARY_FILE: summaryFile },
    },
  );
  let summary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch {
    console.error(`coverage: the test run (exit ${run.status}) reported no coverage`);
    rmSync(tmp, { recursive: true, force: true });
    return run.status || 1;
  }
  rmSync(tmp, { recursive: true, force: true });
  const under = (dir) =>
    summary.files.filter((f) => {
      const rel = path.relative(root, f.path);
      return rel.startsWith(`${dir}/`) && !rel.includes('node_modules');
    });
  const rows = [
    ['src/ (the library)', totals(under('src'))],
    ['kit/src/ (the kit)', totals(under('kit/src'))],
    ['both', totals([...under('src'), ...under('kit/src')])],
  ];
  const fmt = (n) => `${n.toFixed(1)} %`.padStart(8);
  console.log(
    `\ncoverage of ${files.length} test file(s), ${((Date.now() - started) / 1000).toFixed(0)} s` +
      (run.status === 0 ? '' : ` (the tests exited ${run.status})`),
  );
  console.log(
    `${''.padEnd(20)}${'lines'.padStart(8)}${'branches'.padStart(10)}${'functions'.padStart(11)}  files`,
  );
  for (const [name, t] of rows)
    console.log(
      `${name.padEnd(20)}${fmt(t.lines)}${fmt(t.branches).padStart(10)}${fmt(t.functions).padStart(11)}  ${t.files}`,
    );
  const loaded = new Set(summary.files.map((f) => path.relative(root, f.path)));
  const never = ['src', 'kit/src'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map((f) => `${dir}/${f}`)
      .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts') && !loaded.has(f)),
  );
  // Type-only modules count here too: their imports are erased, so no test process loads them.
  if (never.length) {
    const byFolder = new Map();
    for (const f of never) byFolder.set(path.dirname(f), (byFolder.get(path.dirname(f)) ?? 0) + 1);
    const folders = [...byFolder].map(([d, n]) => `${d}/ ${n}`).join(', ');
    console.log(
      `not loaded by any test process (not in the figures): ${never.length} file(s): ${folders}`,
    );
  }
  return run.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === self)
  process.exit(main(process.argv.slice(2)));
