/** The markdown report of bench/soak-attack.mjs, from what it measured. */
import { availableParallelism } from 'node:os';

const mb = (b) => (b / 2 ** 20).toFixed(1);
const ms = (x) => (typeof x === 'number' ? x.toFixed(1) : '–');
const cell = (s) => String(s).replace(/\|/g, '\\|');

/** Outcome counts as `label ×n` pairs, most frequent first. */
const tally = (counts) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${cell(label)} ×${n}`)
    .join('; ');

/** The whole report: verdict, cards, memory, attack outcomes, normal traffic, the agents' log. */
export function renderSoakAttack(r) {
  const { cfg } = r;
  const sizes = Object.entries(cfg.sizes)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const lines = [
    `# Attack soak, ${r.day}`,
    '',
    `\`${['node bench/soak-attack.mjs', ...r.argv].join(' ')}\` — ${cfg.seconds} s; the kit's three agents`,
    '(`kit/dist/cli/agents.js`, one process, SQLite stores in a temporary work dir) under normal traffic',
    `(bench/kit-traffic.mjs, a pause of ${cfg.pauseMs} ms between calls of each kind) and, ` +
      (cfg.attacks
        ? `alongside, the attack mix (bench/attack-mix.mjs) in rounds of ${cfg.roundSeconds} s.`
        : 'no attacks (`--no-attacks`: a baseline).'),
    `Attack sizes per round: ${sizes}.`,
    `Machine load (1-minute average, ${availableParallelism()} cores shared with other work): ` +
      `${r.load[0].toFixed(1)} at the start, ${r.load[1].toFixed(1)} at the end.`,
    '',
    `**${r.problems.length ? `FAILED: ${r.problems.join('; ')}` : 'Passed'}** (limits: card p99 ≤ 100 ms, ` +
      `no failed probe, RSS last third ≤ ×${(1 + cfg.tolerance).toFixed(2)} of the first third).`,
    '',
    `## Cards (GET /.well-known/agent-card.json every ${cfg.probeMs} ms per agent)`,
    '',
    '| agent | probes | p50 ms | p99 ms | max ms | > 100 ms (during a forced GC) | failed |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...r.cards.map(
      (c) =>
        `| ${c.name} | ${c.n} | ${ms(c.p50)} | ${ms(c.p99)} | ${ms(c.max)} | ${c.slow} (${c.slowInGc}) | ` +
        `${c.failed}${c.failed ? ` (${tally(c.reasons)})` : ''} |`,
    ),
    '',
    "## The agents' memory (after a forced GC)",
    '',
    `RSS, first third → last third: ${mb(r.rss.early)} MB → ${mb(r.rss.late)} MB ` +
      `(×${r.rss.ratio.toFixed(2)}); heap used ${mb(r.heap.early)} → ${mb(r.heap.late)} MB; ` +
      `highest VmRSS seen (sampled each second, no GC): ${mb(r.peakRss)} MB.`,
    '',
    "Longest loop stall: the longest the event loop of the agents' process was blocked since the sample",
    'before (every agent waits while it is).',
    '',
    '| t (s) | RSS MB | heap MB | external MB | VmRSS before GC MB | GC ms | longest loop stall ms |',
    '|--:|--:|--:|--:|--:|--:|--:|',
    ...r.samples.map(
      (x) =>
        `| ${x.s} | ${mb(x.rss)} | ${mb(x.heap)} | ${mb(x.external)} | ` +
        `${x.vmRss ? mb(x.vmRss) : '–'} | ${x.gcMs.toFixed(0)} | ${x.loopMaxMs.toFixed(0)} |`,
    ),
    '',
  ];
  if (r.attacks) {
    lines.push(
      `## How the agents answered the attacks (${r.attacks.rounds ?? 0} rounds)`,
      '',
      '| attack | outcomes (how many) | slowest ms |',
      '|---|---|--:|',
      ...Object.entries(r.attacks.outcomes ?? {}).map(
        ([name, o]) => `| ${name} | ${tally(o.counts) || '–'} | ${o.maxMs.toFixed(0)} |`,
      ),
      '',
    );
    if (r.attacks.failed) lines.push(`Attack mix: ${r.attacks.failed}.`, '');
  }
  lines.push(
    '## Normal traffic (a2a-kit/client)',
    '',
    '| kind | ok | failed | p50 ms | p99 ms | failures |',
    '|---|--:|--:|--:|--:|---|',
    ...Object.entries(r.normal).map(
      ([kind, s]) =>
        `| ${kind} | ${s.ok} | ${s.failed} | ${ms(s.p50)} | ${ms(s.p99)} | ${tally(s.errors) || ''} |`,
    ),
    '',
    `Agents' log (level warn and above): ${r.logLines.warn} warnings, ${r.logLines.error} errors.`,
    ...(r.logLines.last.length ? ['Last lines:', '', '```', ...r.logLines.last, '```'] : []),
    '',
  );
  return lines.join('\n');
}
