#!/usr/bin/env node
/**
 * `npm run conformance`: the official A2A TCK (a2aproject/a2a-tck, pinned in setup.mjs) against
 * a2a-kit's SUT (sut.ts), every category on JSON-RPC, HTTP+JSON and gRPC, `A2A-Version: 1.0` sent.
 *
 * Each transport gets its own SUT and webhook port, and the three run side by side (the TCK mostly
 * waits on its own sleeps); the transport-equivalence category then runs once across all three. Prints
 * a category × transport table and writes `.tmp-conformance/tck-summary.json` (or `--out FILE`).
 * Exits 1 when a test fails that `expected-failures.json` does not explain as the TCK's.
 *
 *   node conformance/tck/run.mjs [--transports jsonrpc,rest,grpc] [--categories mandatory,…] [--out FILE] [-- pytest args]
 *
 * Without a copy of the TCK it says so and exits 0 — except under CI=true, where that is a failure.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, runTool, startServer, stop } from '../processes.mjs';
import { TCK_COMMIT, checkout, tckSource, venv } from './setup.mjs';
import {
  TRANSPORT_NAMES,
  readExpected,
  readOutcomes,
  staleEntries,
  summarise,
  table,
  writeSummary,
} from './report.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..', '..');
const TOKEN = 'a2a-kit-tck-token';
const SINGLE = ['mandatory', 'capabilities', 'quality', 'features'];

/** What run_tck.py runs for each category: its folder and marker expression. */
const CATEGORIES = {
  mandatory: { path: 'tests/mandatory/', markers: 'mandatory or mandatory_protocol' },
  capabilities: { path: 'tests/optional/capabilities/' },
  quality: { path: 'tests/optional/quality/' },
  features: { path: 'tests/optional/features/' },
  'transport-equivalence': {
    path: 'tests/optional/multi_transport/',
    markers: 'transport_equivalence',
  },
};

function parseArgs(argv) {
  const o = {
    transports: ['jsonrpc', 'rest', 'grpc'],
    categories: [...SINGLE, 'transport-equivalence'],
    out: join(root, '.tmp-conformance', 'tck-summary.json'),
    pytest: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      o.pytest = argv.slice(i + 1);
      break;
    } else if (a === '--transports') o.transports = argv[++i].split(',');
    else if (a === '--categories') o.categories = argv[++i].split(',');
    else if (a === '--out') o.out = resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  for (const t of o.transports)
    if (!TRANSPORT_NAMES[t] || t === 'all') throw new Error(`unknown transport ${t}`);
  for (const c of o.categories) if (!CATEGORIES[c]) throw new Error(`unknown category ${c}`);
  return o;
}

const log = (line) => console.log(`[tck] ${line}`);

/** Start a fresh SUT; resolves to its child process and URL. */
async function startSut(name) {
  const { child, match } = await startServer(
    process.execPath,
    ['--import', 'tsx', join(here, 'sut.ts'), '0'],
    {
      cwd: root,
      ready: /^(http:\/\/localhost:\d+)$/m,
      env: { ...process.env, A2A_KIT_TCK_TOKEN: TOKEN },
      log: (line) => log(`sut ${name}: ${line.slice(0, 300)}`),
    },
  );
  return { child, url: match[1] };
}

/** One category on one transport (or `transports` joined, for equivalence) against the SUT at `url`. */
async function runCategory(tck, python, url, category, transports, opts) {
  const { path, markers } = CATEGORIES[category];
  const label = `${category}:${transports}`;
  const results = join(
    root,
    '.tmp-conformance',
    `tck-${category}-${transports.replace(/,/g, '+')}.jsonl`,
  );
  mkdirSync(join(root, '.tmp-conformance'), { recursive: true });
  rmSync(results, { force: true });
  const m =
    category === 'mandatory' && transports === 'jsonrpc'
      ? `${markers} or mandatory_jsonrpc`
      : markers;
  const args = [
    '-m',
    'pytest',
    path,
    '-p',
    'a2a_kit_tck',
    `--sut-url=${url}`,
    '--test-scope=all',
    `--transports=${transports}`,
    '--tb=short',
    '-q',
    '-p',
    'no:cacheprovider',
    '--timeout=60',
    ...(m ? ['-m', m] : []),
    ...opts.pytest,
  ];
  const started = Date.now();
  const code = await runTool(python, args, {
    cwd: tck,
    timeoutMs: 20 * 60_000,
    env: {
      ...process.env,
      PYTHONPATH: join(here, 'shim'),
      PYTHONDONTWRITEBYTECODE: '1',
      A2A_KIT_TCK_RESULTS: results,
      A2A_KIT_TCK_VERSION: '1.0',
      A2A_KIT_TCK_WEBHOOK_PORT: String(opts.webhookPort),
      A2A_AUTH_TYPE: 'bearer',
      A2A_AUTH_TOKEN: TOKEN,
    },
    log: (line) => {
      if (/^(FAILED|ERROR) |passed|failed|error/.test(line)) log(`${label}: ${line.slice(0, 400)}`);
    },
  });
  log(`${label}: done in ${Math.round((Date.now() - started) / 1000)} s (pytest exit ${code})`);
  return { outcomes: readOutcomes(results), code };
}

/** Every requested single-transport category on `transport`, against a SUT of its own. */
async function runTransport(tck, python, transport, opts, expected) {
  const sut = await startSut(transport);
  try {
    const webhookPort = await freePort();
    const runs = [];
    for (const category of opts.categories.filter((c) => SINGLE.includes(c))) {
      const { outcomes, code } = await runCategory(tck, python, sut.url, category, transport, {
        ...opts,
        webhookPort,
      });
      runs.push(summarise(category, transport, outcomes, expected, code));
    }
    return runs;
  } finally {
    stop(sut.child);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const source = tckSource();
  if (source.problem) {
    console.log(`TCK not run: ${source.problem}`);
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const started = Date.now();
  const tck = checkout(source.dir);
  const python = venv(tck, log);
  const expected = readExpected(join(here, 'expected-failures.json'));
  log(`TCK ${TCK_COMMIT.slice(0, 7)} in ${tck}; transports ${opts.transports.join(', ')}`);

  const perTransport = await Promise.all(
    opts.transports.map((t) => runTransport(tck, python, t, opts, expected)),
  );
  const runs = perTransport.flat();
  if (opts.categories.includes('transport-equivalence')) {
    const sut = await startSut('equivalence');
    try {
      const joined = opts.transports.join(',');
      const { outcomes, code } = await runCategory(
        tck,
        python,
        sut.url,
        'transport-equivalence',
        joined,
        { ...opts, webhookPort: await freePort() },
      );
      runs.push(summarise('transport-equivalence', 'all', outcomes, expected, code));
    } finally {
      stop(sut.child);
    }
  }

  const ours = runs.flatMap((r) =>
    r.ourFailures.map((f) => ({ ...f, category: r.category, transport: r.transport })),
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  writeSummary(opts.out, {
    tckCommit: TCK_COMMIT,
    a2aVersion: '1.0',
    seconds,
    runs,
    ourFailures: ours,
  });
  console.log(`\n${table(runs, opts.transports)}\n`);
  const tckCount = runs.reduce((n, r) => n + r.tckFailures.length, 0);
  const pending = runs.flatMap((r) =>
    r.pendingFailures.map((f) => ({ ...f, transport: r.transport })),
  );
  for (const f of pending) console.log(`  … ${f.transport} ${f.id} (${f.owner})`);
  for (const e of staleEntries(expected, runs)) {
    console.log(`  expected-failures.json: ${e.id} (${e.owner}) no longer fails: remove it`);
  }
  for (const f of ours) console.log(`  ✘ ${f.transport} ${f.id}\n      ${f.reason}`);
  const passed = runs.reduce((n, r) => n + r.passed, 0);
  console.log(`summary: ${opts.out} (${seconds} s)`);
  console.log(
    `${tckCount} failures are the TCK's and ${pending.length} ours, fixed on another branch ` +
      '(conformance/tck/expected-failures.json says why)',
  );
  // The closing line CI reads: failures of ours, which decide the exit code.
  console.log(`tck: ${passed} passed, ${ours.length} failed`);
  process.exit(ours.length > 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
