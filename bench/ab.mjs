#!/usr/bin/env node
/**
 * A/B two builds of our server, interleaved, on one scenario:
 *   node bench/ab.mjs <distA> <distB> [--rounds N] [--duration S] [--only scenario-id]
 * (e.g. `cp -r dist /tmp/dist-before`, change src, `npm run build`, then `node bench/ab.mjs /tmp/dist-before dist`).
 * Prints req/s per round, the median of B ÷ A within rounds, and server CPU per request.
 */
import { resolve } from 'node:path';
import { cliOptions, runLoad, startServer, stats, waitQuiet } from './lib.mjs';
import { SCENARIOS } from './scenarios.mjs';

const {
  values: o,
  positionals: [a, b],
} = cliOptions(
  'node bench/ab.mjs <distA> <distB> [--rounds N] [--duration S] [--only scenario-id]',
  { rounds: { type: 'string' }, duration: { type: 'string' }, only: { type: 'string' } },
  { positionals: 2, numbers: ['rounds', 'duration'] },
);
const rounds = Math.max(1, Math.min(20, o.rounds ?? 5));
const duration = Math.max(1, Math.min(30, o.duration ?? 3));
const sc = SCENARIOS.find((s) => s.id === (o.only ?? 'rpc-send-c32'));
if (!sc) {
  console.error(`unknown scenario ${o.only}; one of ${SCENARIOS.map((s) => s.id).join(', ')}`);
  process.exit(2);
}
const ratios = [];
const cpu = { A: [], B: [] };
for (let r = 0; r < rounds; r++) {
  const got = {};
  for (const [label, dist] of [
    ['A', a],
    ['B', b],
  ]) {
    await waitQuiet();
    const srv = await startServer('ours', [], {
      BENCH_OURS_DIST: resolve(dist),
      ...(sc.transport === 'grpc' ? { BENCH_GRPC: '1' } : {}),
    });
    try {
      const load = await sc.prepare(srv);
      const script =
        sc.transport === 'grpc'
          ? 'grpc-load.mjs'
          : sc.kind === 'stream'
            ? 'stream-load.mjs'
            : 'load.mjs';
      await runLoad(script, { ...load, duration: 1, warmup: 0 }, 45);
      const cpu0 = await srv.cpu();
      const res = await runLoad(script, { ...load, duration, warmup: 0 }, duration + 40);
      const units = sc.kind === 'stream' ? res.events : res.responses;
      cpu[label].push(((await srv.cpu()) - cpu0) / units);
      got[label] = sc.kind === 'stream' ? res.eventsPerS : res.throughputRps;
      if (res.errors) console.log(`  ${label}: ${res.errors} errors`);
    } finally {
      await srv.stop();
    }
  }
  ratios.push(got.B / got.A);
  console.log(
    `round ${r + 1}: A ${Math.round(got.A)}  B ${Math.round(got.B)}  B/A ${(got.B / got.A).toFixed(3)}  CPU µs/unit A ${cpu.A.at(-1).toFixed(1)} B ${cpu.B.at(-1).toFixed(1)}`,
  );
}
const s = stats(ratios);
console.log(
  `${sc.id}: B/A median ${s.median.toFixed(3)} (${s.min.toFixed(3)}–${s.max.toFixed(3)}) over ${s.n} rounds`,
);
console.log(
  `server CPU µs per request/event: A median ${stats(cpu.A).median.toFixed(1)}, B median ${stats(cpu.B).median.toFixed(1)}`,
);
