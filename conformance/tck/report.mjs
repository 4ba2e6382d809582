/**
 * The TCK run's results: per-test outcomes (one JSON line each, written by the pytest plugin) counted
 * per category and transport, checked against the failures known to be the TCK's own
 * (`expected-failures.json`, each with the spec section that decides it), printed as a table and
 * written as a machine-readable summary.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** How the table names the TCK's transports. */
export const TRANSPORT_NAMES = {
  jsonrpc: 'JSON-RPC',
  rest: 'HTTP+JSON',
  grpc: 'gRPC',
  all: 'all three',
};

const FAILED = new Set(['failed', 'error']);

/** The outcomes one pytest run wrote, as `{ id, outcome, reason? }` objects (none when it wrote none). */
export function readOutcomes(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

/**
 * The known failures: `{ id, transports, owner, section, why }`; `id` may end in `*` (a prefix).
 * `owner` is `tck` (the TCK's, explained by `section`) or `pending:<branch>` (ours, being fixed).
 */
export function readExpected(file) {
  return JSON.parse(readFileSync(file, 'utf8')).failures;
}

function explains(entry, id, transport) {
  const idMatches = entry.id.endsWith('*') ? id.startsWith(entry.id.slice(0, -1)) : entry.id === id;
  return idMatches && (entry.transports === 'all' || entry.transports.includes(transport));
}

/**
 * Count one run (a category on a transport) and sort its failures into the TCK's (explained by an
 * entry of `expected`) and ours (everything else).
 */
export function summarise(category, transport, outcomes, expected, exitCode) {
  const count = { passed: 0, failed: 0, skipped: 0, xfailed: 0, xpassed: 0 };
  const tck = [];
  const pending = [];
  const ours = [];
  for (const o of outcomes) {
    const key = FAILED.has(o.outcome) ? 'failed' : o.outcome;
    count[key] = (count[key] ?? 0) + 1;
    if (key !== 'failed') continue;
    const entry = expected.find((e) => explains(e, o.id, transport));
    const failure = { id: o.id, reason: o.reason ?? '' };
    if (entry?.owner === 'tck') tck.push({ ...failure, section: entry.section });
    else if (entry) pending.push({ ...failure, owner: entry.owner });
    else ours.push(failure);
  }
  // A run that ended without results (crashed, timed out) counts as a failure of the run itself.
  if (outcomes.length === 0 || exitCode === -1) {
    ours.push({
      id: `${category} on ${transport}`,
      reason: `pytest ended with ${exitCode} after ${outcomes.length} tests`,
    });
  }
  return {
    category,
    transport,
    ...count,
    tckFailures: tck,
    pendingFailures: pending,
    ourFailures: ours,
  };
}

/** Entries that matched no failure of the runs made: fixed (pending) or no longer failing (tck). */
export function staleEntries(expected, runs) {
  const failures = runs.flatMap((r) =>
    [...r.tckFailures, ...r.pendingFailures, ...r.ourFailures].map((f) => [f.id, r.transport]),
  );
  const ran = new Set(runs.map((r) => r.transport));
  return expected.filter(
    (e) =>
      !e.intermittent &&
      (e.transports === 'all' || e.transports.some((t) => ran.has(t))) &&
      !failures.some(([id, t]) => explains(e, id, t)),
  );
}

function cell(r) {
  const failed = r.tckFailures.length + r.pendingFailures.length + r.ourFailures.length;
  return `${r.passed} passed, ${failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`;
}

/** The per-category × transport table, as printed and as the README shows it. */
export function table(runs, transports) {
  const categories = [...new Set(runs.map((r) => r.category))];
  const head = `| category | ${transports.map((t) => TRANSPORT_NAMES[t]).join(' | ')} |`;
  const rule = `|---|${transports.map(() => '---').join('|')}|`;
  const rows = categories.map((c) => {
    const cells = transports.map((t, n) => {
      const across = runs.find((x) => x.category === c && x.transport === 'all');
      // A run across every transport (equivalence) is one result: shown once, in the first column.
      if (across) return n === 0 ? `${cell(across)} (one run, all three)` : '〃';
      const r = runs.find((x) => x.category === c && x.transport === t);
      return r ? cell(r) : '';
    });
    return `| ${c} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** Write the summary JSON (creating its folder) and return it. */
export function writeSummary(file, summary) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
