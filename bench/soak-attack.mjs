/**
 * Attack soak (issue 28): the kit's three agents (kit/dist/cli/agents.js, one process) under normal
 * traffic (bench/kit-traffic.mjs) and, alongside, the attack mix (bench/attack-mix.mjs), each in its own
 * process, for `--minutes`. Meanwhile this process fetches every agent's card every ~200 ms and samples
 * the agents' memory after a forced GC. Fails (exit 1) when the agents' RSS grows past the tolerance
 * (last third against first third), a card's p99 is over 100 ms, or a probe fails.
 * Build first: `npm run build:kit`.
 *
 * To see where the agents' time goes, give their process more Node flags through the environment:
 * `SOAK_NODE_ARGS='--cpu-prof --cpu-prof-dir /tmp/soak-prof' node bench/soak-attack.mjs --quick`.
 */
import { performance } from 'node:perf_hooks';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ATTACK_SIZES } from './attacks/sizes.mjs';
import { ask, cliOptions, here, launch, nextMessage, percentile, thirds } from './lib.mjs';
import { renderSoakAttack } from './soak-attack-report.mjs';

const USAGE =
  'node bench/soak-attack.mjs [--minutes 10 | --quick] [--round-seconds 35] [--sample-seconds 15] ' +
  '[--probe-ms 200] [--rss-tolerance 0.25] [--attack name=value,…] [--no-attacks] [--pause-ms 500] [--out FILE]';
const { values: o } = cliOptions(
  USAGE,
  {
    minutes: { type: 'string' },
    quick: { type: 'boolean' },
    seconds: { type: 'string' }, // hidden: the test runs a few seconds
    'round-seconds': { type: 'string' },
    'sample-seconds': { type: 'string' },
    'probe-ms': { type: 'string' },
    'rss-tolerance': { type: 'string' },
    'pause-ms': { type: 'string' },
    attack: { type: 'string' },
    'no-attacks': { type: 'boolean' },
    out: { type: 'string' },
  },
  {
    numbers: [
      ...['minutes', 'seconds', 'round-seconds', 'sample-seconds', 'probe-ms'],
      ...['rss-tolerance', 'pause-ms'],
    ],
  },
);
const fail = (why) => {
  process.stderr.write(`${why}\nusage: ${USAGE}\n`);
  process.exit(2);
};
const sizes = {};
for (const pair of o.attack ? o.attack.split(',') : []) {
  const [k, v] = pair.split('=');
  if (!(k in ATTACK_SIZES))
    fail(`--attack: unknown "${k}" (one of ${Object.keys(ATTACK_SIZES).join(', ')})`);
  if (!(Number(v) >= 0)) fail(`--attack ${k} needs a number ≥ 0, got "${v}"`);
  sizes[k] = Number(v);
}
const seconds = o.seconds ?? (o.minutes ?? (o.quick ? 1 : 10)) * 60;
const cfg = {
  seconds,
  roundSeconds: o['round-seconds'] ?? Math.min(35, Math.max(3, seconds / 3)),
  sampleMs: (o['sample-seconds'] ?? Math.min(15, Math.max(1, seconds / 12))) * 1000,
  probeMs: o['probe-ms'] ?? 200,
  tolerance: o['rss-tolerance'] ?? 0.25,
  pauseMs: o['pause-ms'] ?? 500,
  attacks: !o['no-attacks'],
  sizes: { ...ATTACK_SIZES, ...sizes },
};
const agentsJs = here('../kit/dist/cli/agents.js');
if (!existsSync(agentsJs)) fail(`${agentsJs} is missing: run npm run build:kit first`);

const day = new Date().toISOString().slice(0, 10);
let out = o.out;
if (!out) {
  const base = here(`./results/soak-attack-${day}${o.quick ? '-quick' : ''}`);
  out = `${base}.md`;
  for (let n = 2; existsSync(out); n++) out = `${base}-${n}.md`;
}

const agentNodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
// The agents: the kit's own CLI, unchanged; the preload answers memory probes after a forced GC.
const work = mkdtempSync(path.join(tmpdir(), 'a2a-soak-'));
const token = `soak-${Math.random().toString(36).slice(2)}-token`;
const agents = launch(
  null,
  ['--expose-gc', ...agentNodeArgs, '--import', here('./servers/gc-probe.mjs'), agentsJs]
    .concat(['--ports', '0,0,0', '--grpc-port', '0', '--work-dir', work])
    .concat(['--workspace', here('../samples'), '--log-format', 'json']),
  { DEPLOYER_TOKEN: token, LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  ['ignore', 'pipe', 'pipe', 'ipc'],
);
const logLines = { warn: 0, error: 0, other: 0, last: [] };
agents.stderr.setEncoding('utf8').on('data', (chunk) => {
  for (const line of chunk.split('\n').filter(Boolean)) {
    const level = /"level":(\d+)/.exec(line)?.[1];
    const k = level === '40' ? 'warn' : Number(level) >= 50 ? 'error' : 'other';
    logLines[k]++;
    logLines.last = [...logLines.last.slice(-4), line.slice(0, 300)];
  }
});
let stdout = '';
const origins = await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('the agents did not start within 60 s')), 60_000);
  agents.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
    const found = [...stdout.matchAll(/listening on (http:\/\/127\.0\.0\.1:\d+)/g)].map(
      (m) => m[1],
    );
    if (found.length === 3) {
      clearTimeout(t);
      resolve(found);
    }
  });
  agents.once('exit', (code) => reject(new Error(`the agents exited (${code}): ${logLines.last}`)));
}).catch((err) => {
  agents.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
  throw err;
});
const NAMES = ['test-runner', 'code-reviewer', 'deployer'];
const runnerCard = await (await fetch(`${origins[0]}/.well-known/agent-card.json`)).json();
const grpcUrl = runnerCard.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC')?.url;
const port = (u) => Number(new URL(u).port);
const ports = {
  runner: port(origins[0]),
  reviewer: port(origins[1]),
  deployer: port(origins[2]),
  grpc: port(grpcUrl),
};
process.stdout.write(`agents (pid ${agents.pid}) on ${JSON.stringify(ports)}; ${seconds} s\n`);

// Memory: after a forced GC every sampleMs (the preload), VmRSS from /proc in between, without GC.
const vmRss = () => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${agents.pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
};
const started = Date.now();
const loadAtStart = loadavg()[0];
const samples = [];
const gcAt = [];
const sample = async () => {
  const at = Date.now();
  const m = await ask(agents, 'mem', 30_000).catch(() => null);
  if (!m) return;
  gcAt.push([at, at + m.gcMs + 5]);
  samples.push({
    s: Math.round((at - started) / 1000),
    rss: m.mem.rss,
    heap: m.mem.heapUsed,
    external: m.mem.external,
    gcMs: m.gcMs,
    loopMaxMs: m.loopMaxMs,
    vmRss: vmRss(),
  });
  const x = samples.at(-1);
  const mb = (b) => (b / 2 ** 20).toFixed(1);
  process.stdout.write(
    `${x.s}s rss ${mb(x.rss)} MB heap ${mb(x.heap)} MB (gc ${x.gcMs.toFixed(0)} ms)\n`,
  );
};
await sample();
const sampler = setInterval(() => void sample(), cfg.sampleMs);
const peakRss = { value: 0 };
const peaker = setInterval(() => (peakRss.value = Math.max(peakRss.value, vmRss() ?? 0)), 1000);

// The prober: each card every probeMs, on its own schedule per agent.
const deadline = started + seconds * 1000;
const probes = Object.fromEntries(
  NAMES.map((n) => [n, { ms: [], failed: 0, reasons: {}, at: [] }]),
);
const prober = Promise.all(
  NAMES.map(async (name, i) => {
    const p = probes[name];
    while (Date.now() < deadline) {
      const t0 = performance.now();
      const at = Date.now();
      try {
        const res = await fetch(`${origins[i]}/.well-known/agent-card.json`, {
          signal: AbortSignal.timeout(2000),
        });
        const card = await res.json();
        if (res.status !== 200 || card.name !== name) throw new Error(`HTTP ${res.status}`);
        p.ms.push(performance.now() - t0);
        p.at.push(at);
      } catch (err) {
        p.failed++;
        const why = err.name === 'TimeoutError' ? 'no answer in 2 s' : err.message;
        p.reasons[why] = (p.reasons[why] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, cfg.probeMs - (performance.now() - t0))));
    }
  }),
);

// Normal traffic and the attack mix, each in its own process.
const childDone = (child, what) =>
  nextMessage(child, (m) => m?.cmd === 'done', (seconds + 120) * 1000, what).catch((err) => ({
    failed: err.message,
  }));
const traffic = launch(null, [
  here('./kit-traffic.mjs'),
  JSON.stringify({
    testRunner: origins[0],
    reviewer: origins[1],
    deployer: origins[2],
    token,
    workspace: here('../samples'),
    seconds,
    pauseMs: cfg.pauseMs,
  }),
]);
const attacker = cfg.attacks
  ? launch(null, [
      here('./attack-mix.mjs'),
      JSON.stringify({ ports, seconds, roundSeconds: cfg.roundSeconds, sizes: cfg.sizes }),
    ])
  : null;
attacker?.on('message', (m) => {
  if (m?.cmd === 'round') process.stdout.write(`attack round ${m.rounds} done\n`);
});
const [normal, attacks] = await Promise.all([
  childDone(traffic, 'normal traffic'),
  attacker ? childDone(attacker, 'attack mix') : null,
  prober,
]);
for (const c of [traffic, attacker]) if (c && c.exitCode === null) c.kill('SIGKILL');
clearInterval(sampler);
clearInterval(peaker);
await sample();

const stopped = new Promise((r) => agents.once('exit', r));
agents.kill('SIGTERM');
const killer = setTimeout(() => agents.kill('SIGKILL'), 15_000);
await stopped;
clearTimeout(killer);
rmSync(work, { recursive: true, force: true });

// Verdicts.
const duringGc = (at) => gcAt.some(([a, b]) => at >= a - 50 && at <= b);
const cards = NAMES.map((name) => {
  const p = probes[name];
  const slow = p.ms.filter((ms) => ms > 100).length;
  const slowInGc = p.ms.filter((ms, i) => ms > 100 && duringGc(p.at[i])).length;
  const [p50, p99] = [percentile(p.ms, 50), percentile(p.ms, 99)];
  return { name, n: p.ms.length, p50, p99, max: Math.max(0, ...p.ms), slow, slowInGc, ...p };
});
const rss = thirds(samples, 'rss');
const heap = thirds(samples, 'heap');
const problems = [
  ...(rss.ratio > 1 + cfg.tolerance
    ? [`RSS grew ×${rss.ratio.toFixed(2)} (tolerance ×${(1 + cfg.tolerance).toFixed(2)})`]
    : []),
  ...cards.filter((c) => !(c.p99 <= 100)).map((c) => `${c.name} card p99 ${c.p99?.toFixed(1)} ms`),
  ...cards.filter((c) => c.failed).map((c) => `${c.name}: ${c.failed} probe(s) failed`),
  ...(normal.failed ? [`normal traffic: ${normal.failed}`] : []),
  ...(attacks?.failed ? [`attack mix: ${attacks.failed}`] : []),
];
const report = renderSoakAttack({
  day,
  cfg,
  argv: process.argv.slice(2),
  samples,
  rss,
  heap,
  peakRss: peakRss.value,
  cards,
  normal: normal.summary ?? {},
  attacks,
  logLines,
  problems,
  load: [loadAtStart, loadavg()[0]],
});
writeFileSync(out, report);
process.stdout.write(
  `${problems.length ? `FAILED: ${problems.join('; ')}` : 'passed'}\nwrote ${out}\n`,
);
process.exit(problems.length ? 1 : 0);
