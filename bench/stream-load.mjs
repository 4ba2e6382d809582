/**
 * Streaming load: `concurrency` workers each loop SendStreamingMessage over JSON-RPC (keep-alive),
 * parse the SSE stream, and check it: first event a task, K+1 working updates, one artifact,
 * last event a completed status. Bounded by `duration` seconds and `maxStreams`. Reports events/s
 * and time to first event. Config: JSON in argv[2]; summary over IPC (or stdout by hand).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const cfg = JSON.parse(process.argv[2]);
const target = new URL(cfg.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.concurrency });
const expected = cfg.k + 4;

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One stream; resolves { events, ttfeMs, ok }. */
function oneStream(body) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let ttfe = null;
    let events = 0;
    let buf = '';
    let ok = true;
    let first;
    let last;
    let artifacts = 0;
    let working = 0;
    const onEvent = (block) => {
      let data = '';
      for (const line of block.split('\n'))
        if (line.startsWith('data:')) data += line.slice(line[5] === ' ' ? 6 : 5);
      if (!data) return;
      if (ttfe === null) ttfe = performance.now() - t0;
      events++;
      try {
        const r = JSON.parse(data).result;
        if (!r) ok = false;
        else if (r.artifactUpdate) artifacts++;
        else if (r.statusUpdate?.status?.state === 'TASK_STATE_WORKING') working++;
        first ??= r;
        last = r;
      } catch {
        ok = false;
      }
    };
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
        timeout: 10_000,
      },
      (res) => {
        if (res.statusCode !== 200) ok = false;
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buf += chunk.includes('\r') ? chunk.replace(/\r\n?/g, '\n') : chunk;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            onEvent(buf.slice(0, i));
            buf = buf.slice(i + 2);
          }
        });
        res.on('end', () => {
          if (buf.trim()) onEvent(buf);
          const valid =
            ok &&
            events === expected &&
            first?.task !== undefined &&
            last?.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED' &&
            artifacts === 1 &&
            working === cfg.k + 1;
          resolve({ events, ttfeMs: ttfe, ok: valid });
        });
        res.on('error', () => resolve({ events, ttfeMs: ttfe, ok: false }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ events, ttfeMs: ttfe, ok: false }));
    req.end(body);
  });
}

async function phase(seconds, record) {
  const deadline = performance.now() + seconds * 1000;
  let started = 0;
  const stats = { streams: 0, events: 0, errors: 0, ttfe: [] };
  const worker = async (w) => {
    let n = 0;
    while (performance.now() < deadline && started < cfg.maxStreams) {
      started++;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: {
            messageId: `m-${w}-${n++}`,
            role: 'ROLE_USER',
            parts: [{ text: `stream:${cfg.k}` }],
          },
        },
      });
      const r = await oneStream(body);
      if (!record) continue;
      stats.streams++;
      stats.events += r.events;
      if (!r.ok) stats.errors++;
      if (r.ttfeMs !== null) stats.ttfe.push(r.ttfeMs);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: cfg.concurrency }, (_, w) => worker(w)));
  stats.elapsedS = (performance.now() - t0) / 1000;
  return stats;
}

if (cfg.warmup > 0) await phase(cfg.warmup, false);
const s = await phase(cfg.duration, true);
s.ttfe.sort((a, b) => a - b);
const summary = {
  streams: s.streams,
  events: s.events,
  elapsedS: s.elapsedS,
  eventsPerS: s.events / s.elapsedS,
  streamsPerS: s.streams / s.elapsedS,
  ttfeMs: { p50: percentile(s.ttfe, 50), p99: percentile(s.ttfe, 99), max: s.ttfe.at(-1) ?? null },
  errors: s.errors,
};
agent.destroy();
if (process.send) process.send(summary, () => process.exit(0));
else console.log(JSON.stringify(summary, null, 2));
