#!/usr/bin/env node
/**
 * What OpenTelemetry costs the server: the echo agent (bench/servers/ours-otel.mjs) with no telemetry,
 * with `otelServer()` and no SDK, with the hooks forced on over the API's no-op providers, and with an
 * SDK recording everything (exporter dropping the spans). For each: JSON-RPC SendMessage at 32
 * connections and SendStreamingMessage with K=50 updates at 32 streams; req/s (events/s for the
 * stream) and the server's CPU µs per request (per stream). Rounds rotate the order of the set-ups so
 * a noisy phase of a shared machine hits them alike; medians are reported.
 *
 *   npm run build && node bench/otel-ab.mjs [--rounds N] [--duration S] [--out FILE]
 */
import { writeFileSync } from 'node:fs';
import { cliOptions, runLoad, stats, waitQuiet } from './lib.mjs';
import { startServer } from './lib.mjs';
import { SEND_RPC, STREAM_K } from './scenarios.mjs';

const { values: o } = cliOptions(
  'node bench/otel-ab.mjs [--rounds N] [--duration S] [--out FILE]',
  { rounds: { type: 'string' }, duration: { type: 'string' }, out: { type: 'string' } },
  { numbers: ['rounds', 'duration'] },
);
const rounds = Math.min(10, Math.max(1, o.rounds ?? 3));
const duration = Math.min(30, Math.max(2, o.duration ?? 5));
const VARIANTS = ['none', 'api', 'hooks', 'sdk'];
const H = { 'content-type': 'application/json', 'a2a-version': '1.0' };

const results = Object.fromEntries(
  VARIANTS.map((v) => [v, { sendRps: [], sendCpu: [], streamEps: [], streamCpu: [] }]),
);
const started = Date.now();
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < VARIANTS.length; i++) {
    const variant = VARIANTS[(i + r) % VARIANTS.length];
    const srv = await startServer('ours-otel', [], { BENCH_OTEL: variant });
    try {
      const send = {
        url: `${srv.origin}/a2a/jsonrpc`,
        method: 'POST',
        headers: H,
        body: SEND_RPC,
        connections: 32,
        verify: 'send-jsonrpc',
        expectStatus: 200,
      };
      const stream = {
        url: `${srv.origin}/a2a/jsonrpc`,
        concurrency: 32,
        k: STREAM_K,
        maxStreams: 1_000_000,
      };
      await runLoad('load.mjs', { ...send, duration: 2, warmup: 0 }, 45);
      await waitQuiet();
      let cpu0 = await srv.cpu();
      const s = await runLoad('load.mjs', { ...send, duration, warmup: 0 }, duration + 40);
      const sendCpu = (await srv.cpu()) - cpu0;
      await runLoad('stream-load.mjs', { ...stream, duration: 1 }, 45);
      await waitQuiet();
      cpu0 = await srv.cpu();
      const st = await runLoad('stream-load.mjs', { ...stream, duration }, duration + 40);
      const streamCpu = (await srv.cpu()) - cpu0;
      if (s.errors || st.errors)
        throw new Error(`${variant}: ${s.errors} send errors, ${st.errors} stream errors`);
      const x = results[variant];
      x.sendRps.push(s.throughputRps);
      x.sendCpu.push(sendCpu / s.responses);
      x.streamEps.push(st.eventsPerS);
      x.streamCpu.push(streamCpu / st.streams);
      console.log(
        `round ${r + 1} ${variant.padEnd(5)} send ${s.throughputRps.toFixed(0)} req/s ${(sendCpu / s.responses).toFixed(0)} µs/req · stream ${st.eventsPerS.toFixed(0)} events/s ${(streamCpu / st.streams).toFixed(0)} µs/stream`,
      );
    } finally {
      await srv.stop();
    }
  }
}

const med = (a) => stats(a)?.median ?? NaN;
const base = results.none;
const rel = (v, b) => `${((v / b) * 100).toFixed(0)} %`;
const rows = VARIANTS.map((v) => {
  const x = results[v];
  return `| ${v} | ${med(x.sendRps).toFixed(0)} (${rel(med(x.sendRps), med(base.sendRps))}) | ${med(x.sendCpu).toFixed(0)} (${rel(med(x.sendCpu), med(base.sendCpu))}) | ${med(x.streamEps).toFixed(0)} (${rel(med(x.streamEps), med(base.streamEps))}) | ${med(x.streamCpu).toFixed(0)} (${rel(med(x.streamCpu), med(base.streamCpu))}) |`;
});
const table = [
  `OpenTelemetry A/B, ${rounds} round(s) of ${duration} s per measurement, medians (vs none); ${((Date.now() - started) / 1000).toFixed(0)} s in all.`,
  '',
  '| set-up | SendMessage req/s | server CPU µs/req | stream K=50 events/s | server CPU µs/stream |',
  '|---|---|---|---|---|',
  ...rows,
].join('\n');
console.log(`\n${table}`);
if (o.out) writeFileSync(o.out, `${table}\n`);
