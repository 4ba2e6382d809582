#!/usr/bin/env node
/**
 * Import time: how long a fresh Node process takes to import an entry point (measured inside the
 * process, from just before `import()` to just after, so Node's own start is not counted), and how
 * long `a2a --version` takes as a whole process (what a user waits for). Each figure is the median of
 * many fresh processes, run one after another; @a2a-js/sdk's entry points are measured the same way.
 *
 *   node bench/import-time.mjs [--runs 21] [--json]
 *
 * Targets: a2a-kit/server ≤ 100 ms, a2a-kit/client ≤ 60 ms, `a2a --version` ≤ 250 ms.
 *
 * zod and jose are loaded on first use, not by the imports; two more rows show where that cost went:
 * the server's import and its first `listen()` (which checks the card and loads the schemas), and the
 * client's import and its first `checkAgentCard` (which loads the card schema).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = Math.min(Math.max(Number(runsAt >= 0 ? args[runsAt + 1] : 21) || 21, 3), 200);
const TIMEOUT_MS = 30_000;

const IMPORTS = [
  { name: 'a2a-kit', target: null },
  { name: 'a2a-kit/server', target: 100 },
  { name: 'a2a-kit/client', target: 60 },
  { name: '@a2a-js/sdk/server', target: null },
  { name: '@a2a-js/sdk/client', target: null },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function once(argv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8', timeout: TIMEOUT_MS });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wallMs, stdout: r.stdout };
}

const rows = [];
for (const { name, target } of IMPORTS) {
  const code =
    `const t0 = performance.now(); await import(${JSON.stringify(name)}); ` +
    `console.log(performance.now() - t0);`;
  const ms = [];
  for (let i = 0; i < RUNS; i++) ms.push(Number(once(['--input-type=module', '-e', code]).stdout));
  rows.push({ what: `import('${name}')`, ms: median(ms), target });
}
// The first use, where the lazy loads happen: timed from just before the import to just after it.
const CARD = {
  name: 'echo',
  description: 'bench',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};
const FIRST_USE = [
  {
    what: "import('a2a-kit/server') + first listen(0)",
    code:
      `const t0 = performance.now(); const { createAgentServer } = await import('a2a-kit/server'); ` +
      `const s = createAgentServer({ executor: (c, t) => t.complete(), card: (base) => ({ ...${JSON.stringify(CARD)}, ` +
      `supportedInterfaces: [{ url: base + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }) }); ` +
      `await s.listen(0, '127.0.0.1'); const ms = performance.now() - t0; await s.close(); console.log(ms);`,
  },
  {
    what: "import('a2a-kit/client') + first checkAgentCard",
    code:
      `const t0 = performance.now(); const { checkAgentCard } = await import('a2a-kit/client'); ` +
      `const r = await checkAgentCard(${JSON.stringify(CARD)}); if (!r.ok) throw new Error(r.problems.join()); ` +
      `console.log(performance.now() - t0);`,
  },
];
for (const { what, code } of FIRST_USE) {
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const out = once(['--input-type=module', '-e', code]).stdout.trim().split('\n');
    ms.push(Number(out[out.length - 1]));
  }
  rows.push({ what, ms: median(ms), target: null });
}
const cli = path.join(root, 'dist', 'cli', 'a2a.js');
const wall = [];
for (let i = 0; i < RUNS; i++) wall.push(once([cli, '--version']).wallMs);
rows.push({ what: 'a2a --version (whole process)', ms: median(wall), target: 250 });
const bare = [];
for (let i = 0; i < RUNS; i++) bare.push(once(['-e', '0']).wallMs);
rows.push({ what: 'node -e 0 (whole process, for scale)', ms: median(bare), target: null });

if (args.includes('--json')) {
  console.log(JSON.stringify({ node: process.version, runs: RUNS, rows }, null, 2));
} else {
  console.log(`import time, median of ${RUNS} fresh processes, Node ${process.version}`);
  console.log('| what | ms | target |\n|---|--:|--:|');
  for (const r of rows)
    console.log(
      `| ${r.what} | ${r.ms.toFixed(1)} | ${r.target === null ? '' : `≤ ${r.target}${r.ms <= r.target ? ' ✔' : ' ✘'}`} |`,
    );
}
