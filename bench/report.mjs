/**
 * Markdown for one bench run: the comparison table, memory, and the target checks.
 * `node bench/report.mjs bench/results/<date>.json` re-renders the .md next to a saved .json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

function num(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  const d = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  return x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: 0 });
}

function cell(s, entry) {
  if (!entry || entry.na) return 'n/a';
  if (!s)
    return entry.invalid ? `invalid (${entry.invalid}/${entry.total} runs had errors)` : 'n/a';
  const range = s.n > 1 ? ` (${num(s.min)}–${num(s.max)})` : '';
  const bad = entry.invalid ? ` ⚠ ${entry.invalid}/${entry.total} runs invalid` : '';
  return `${num(s.median)}${range}${bad}`;
}

const rfmt = (r) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);

/** Ratio column: median of per-round paired ratios (with range when there are several rounds). */
function pr(summary, other, key) {
  const p = summary.paired?.[other]?.[key];
  if (!p) return 'n/a';
  return p.n > 1
    ? `${p.median.toFixed(2)}× (${p.min.toFixed(2)}–${p.max.toFixed(2)})`
    : `${p.median.toFixed(2)}×`;
}
const pmed = (summary, other, key) => summary?.paired?.[other]?.[key]?.median ?? null;

const METRICS = {
  http: [
    ['rps', 'req/s', false],
    ['mean', 'mean latency ms ↓', true],
    ['p50', 'p50 latency ms ↓', true],
    ['p99', 'p99 latency ms ↓', true],
    ['cpu', 'server CPU µs/request ↓', true],
  ],
  stream: [
    ['eventsPerS', 'events/s', false],
    ['ttfeP50', 'first event p50 ms ↓', true],
    ['ttfeP99', 'first event p99 ms ↓', true],
    ['cpu', 'server CPU µs/event ↓', true],
  ],
};

export function renderMarkdown(meta, results) {
  const L = [];
  const c = meta.config;
  L.push(
    `# a2a-kit benchmark — ${meta.date.slice(0, 16).replace('T', ' ')} UTC${c.quick ? ' (quick)' : ''}`,
  );
  L.push('');
  L.push(
    `Commit ${meta.commit ?? '?'}${meta.srcDirty ? ' (src/ had uncommitted changes)' : ''}. Node ${meta.node}, ${meta.cpus} × ${meta.cpuModel ?? 'cpu'}; server and load generator ${meta.pinned ? 'pinned to cores 0 and 1' : 'not pinned'}${meta.raisedPriority ? ', at raised priority (nice -15, also for the session autogroup)' : ''}. ` +
      `${c.runs} run(s) per server per scenario, ${c.duration} s each after ${c.warmup} s warm-up, fresh server per run, servers interleaved. ` +
      `Cells: median (min–max) over valid runs; ratio columns: median (min–max) of ours ÷ other within the same interleaved round, which cancels drift in machine load. ours = a2a-kit, SDK = @a2a-js/sdk 1.3.0 on Express (its own gRPC service for the gRPC rows), ceiling = bare node:http sending fixed bytes (for the gRPC rows: a bare @grpc/grpc-js server sending fixed protobuf bytes). ` +
      `↓ = lower is better (its ratios are still ours ÷ other). autocannon reports latency percentiles in whole ms.`,
  );
  L.push('');
  L.push('| Scenario | Metric | ours | SDK | ceiling | ours/SDK | ours/ceiling |');
  L.push('|---|---|---:|---:|---:|---:|---:|');
  for (const sc of Object.values(results.scenarios)) {
    const metrics = METRICS[sc.kind].filter(
      ([k]) => sc.kind === 'stream' || sc.latency || k === 'rps' || k === 'cpu',
    );
    for (const [key, label] of metrics) {
      const s = sc.summary;
      const v = (n) => s[n]?.[key] ?? null;
      L.push(
        `| ${sc.title} | ${label} | ${cell(v('ours'), s.ours)} | ${cell(v('sdk'), s.sdk)} | ${cell(v('bare'), s.bare)} | ${pr(s, 'sdk', key)} | ${pr(s, 'bare', key)} |`,
      );
    }
  }
  const m = results.memory ?? {};
  if (Object.keys(m).length) {
    const mv = (n, f) => (m[n] && !m[n].failed ? f(m[n]) : null);
    const row = (label, f, scale = 1, { ratios = true } = {}) => {
      const [o, s, b] = ['ours', 'sdk', 'bare'].map((n) => mv(n, f));
      // Ratios of changes only mean something when both grew.
      const r = (x, y) =>
        ratios && x !== null && y !== null && x > 0 && y > 0 ? rfmt(x / y) : 'n/a';
      const fm = (x) => (x === null ? 'n/a' : num(x / scale));
      L.push(
        `| Memory, ${c.tasks.toLocaleString('en-US')} tasks | ${label} | ${fm(o)} | ${fm(s)} | ${fm(b)} | ${r(o, s)} | ${r(o, b)} |`,
      );
    };
    row(
      'bytes/task, ΔRSS after GC, first batch (includes first use of the V8 young generation) ↓',
      (x) => x.bytesPerTaskRss,
    );
    row('bytes/task, Δ(heap+external) after GC, first batch ↓', (x) => x.bytesPerTaskHeap);
    row(
      'bytes/task, ΔRSS after GC, second batch (steady state) ↓',
      (x) => x.bytesPerTaskRssSteady ?? null,
    );
    row(
      'bytes/task, Δ(heap+external) after GC, second batch ↓',
      (x) => x.bytesPerTaskHeapSteady ?? null,
    );
    row('RSS after first batch, MB ↓', (x) => x.rssAfter, 1e6);
    // A drift of a megabyte or so is noise of the allocator; the ratio of two such drifts says nothing.
    row(
      `RSS change from 1st to last of ${c.flatRuns} GetTask runs, MB ↓`,
      (x) => x.flatGrowthRss,
      1e6,
      { ratios: false },
    );
  }
  L.push('');
  L.push('## Targets');
  L.push('');
  for (const t of targets(results))
    L.push(
      `- ${t.ok === null ? '❔ n/a' : t.ok ? '✅ met' : '❌ not met'} — ${t.what}: ${t.detail}`,
    );
  L.push('');
  return L.join('\n');
}

/** The goals from the issue, checked against medians. */
export function targets(results) {
  const out = [];
  const S = results.scenarios;
  for (const [id, what] of [
    ['rpc-send-c32', 'JSON-RPC SendMessage at 32 conns ≥ 3× SDK and ≥ 50 % of ceiling'],
    ['rest-send-c32', 'REST SendMessage at 32 conns ≥ 3× SDK and ≥ 50 % of ceiling'],
  ]) {
    const s = S[id]?.summary;
    const rs = pmed(s, 'sdk', 'rps');
    const rc = pmed(s, 'bare', 'rps');
    out.push({
      what,
      ok: rs === null || rc === null ? null : rs >= 3 && rc >= 0.5,
      detail: `${rfmt(rs)} SDK, ${rc === null ? 'n/a' : `${(rc * 100).toFixed(0)} %`} of ceiling`,
    });
  }
  for (const c of [1, 32, 128]) {
    const s = S[`grpc-send-c${c}`]?.summary;
    const rs = pmed(s, 'sdk', 'rps');
    const rc = pmed(s, 'bare', 'rps');
    const h2 = pmed(s, 'h2OverSdk', 'rps');
    out.push({
      what: `gRPC SendMessage at ${c} concurrent call${c > 1 ? 's' : ''} ≥ 3× SDK and ≥ 50 % of the gRPC ceiling`,
      ok: rs === null || rc === null ? null : rs >= 3 && rc >= 0.5,
      detail:
        `${rfmt(rs)} SDK, ${rc === null ? 'n/a' : `${(rc * 100).toFixed(0)} %`} of ceiling` +
        (h2 === null
          ? ''
          : `; a bare node:http2 server answering fixed bytes (servers/bare-h2.mjs) reaches ${rfmt(h2)} SDK, ours is ${(pmed(s, 'bare-h2', 'rps') * 100).toFixed(0)} % of it`),
    });
  }
  const gs = pmed(S['grpc-stream-c32']?.summary, 'sdk', 'eventsPerS');
  out.push({
    what: 'gRPC streaming events/s ≥ 3× SDK',
    ok: gs === null ? null : gs >= 3,
    detail: rfmt(gs),
  });
  const st = S['stream-c32']?.summary;
  const ev = pmed(st, 'sdk', 'eventsPerS');
  const tf = pmed(st, 'sdk', 'ttfeP50');
  out.push({
    what: 'streaming events/s ≥ 3× SDK',
    ok: ev === null ? null : ev >= 3,
    detail: rfmt(ev),
  });
  out.push({
    what: 'time to first event ≤ ½ SDK',
    ok: tf === null ? null : tf <= 0.5,
    detail: `${rfmt(tf)} SDK's p50`,
  });
  const m = results.memory ?? {};
  const mo = m.ours && !m.ours.failed ? m.ours : null;
  const ms = m.sdk && !m.sdk.failed ? m.sdk : null;
  // Steady state (second batch) when measured: the first batch also pays for V8 growing its young generation
  // once, which lands inside the window for a server that allocates little and before it for one that allocates a lot.
  const steady = mo?.bytesPerTaskRssSteady != null && ms?.bytesPerTaskRssSteady != null;
  const mr =
    mo && ms
      ? steady
        ? mo.bytesPerTaskRssSteady / ms.bytesPerTaskRssSteady
        : mo.bytesPerTaskRss / ms.bytesPerTaskRss
      : null;
  const mh =
    mo && ms
      ? steady
        ? mo.bytesPerTaskHeapSteady / ms.bytesPerTaskHeapSteady
        : mo.bytesPerTaskHeap / ms.bytesPerTaskHeap
      : null;
  const m1 = mo && ms ? mo.bytesPerTaskRss / ms.bytesPerTaskRss : null;
  out.push({
    what: `memory ≤ ½ SDK bytes/task${steady ? ' (steady state, second batch)' : ''}`,
    ok: mr === null ? null : mr <= 0.5 && mh <= 0.5,
    detail: `${rfmt(mr)} (RSS), ${rfmt(mh)} (heap)${steady ? `; first batch ΔRSS ${rfmt(m1)}` : ''}`,
  });
  // "Flat": across repeated runs that create nothing, RSS grows by less than 5 MB or 5 % (shrinking is fine).
  const flatOk = mo ? mo.flatGrowthRss <= Math.max(5e6, 0.05 * mo.flatRss[0]) : null;
  const mb = (x) => `${(x / 1e6).toFixed(1)}`;
  out.push({
    what: 'flat RSS over repeated runs (ours)',
    ok: flatOk,
    detail: mo
      ? `RSS after each of ${mo.flatRss.length} GetTask runs: ${mo.flatRss.map(mb).join(' → ')} MB`
      : 'n/a',
  });
  const t = S['rpc-send-c128']?.summary?.ours;
  const p99max = t?.p99?.max ?? null;
  out.push({
    what: 'p99 at 128 conns without a multi-second tail (ours p99 < 1 s in every run)',
    ok: p99max === null ? null : p99max < 1000,
    detail:
      p99max === null ? 'n/a' : `worst p99 ${num(p99max)} ms, worst max ${num(t.max?.max)} ms`,
  });
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  const { meta, results } = JSON.parse(readFileSync(file, 'utf8'));
  const md = renderMarkdown(meta, results);
  writeFileSync(file.replace(/\.json$/, '.md'), md);
  process.stdout.write(md);
}
