/**
 * gRPC load, run as a child process (pinned to its own core by run.mjs), one HTTP/2 connection to the
 * server, as a gRPC channel uses. Unary mode: `concurrency` calls of SendMessage always in flight (closed loop),
 * every answer decoded and checked (a completed task with one artifact); reports req/s and latency.
 * Stream mode (`k` set): `concurrency` workers loop SendStreamingMessage with `stream:K` and check each
 * stream (a task, K+1 working updates, one artifact, a completed status); reports events/s and time to
 * first event. Bounded by `duration` seconds. Config: JSON in argv[2]; summary over IPC (or stdout).
 */
import http2 from 'node:http2';
import { performance } from 'node:perf_hooks';
import { GRPC_METHODS, decodeMessage, encodeFramed } from '../dist/protocol/grpc/index.js';

const cfg = JSON.parse(process.argv[2]);
// Raw HTTP/2 with gRPC framing rather than a grpc-js client: like autocannon for HTTP, the load
// generator must cost far less per call than the servers it measures, or it measures itself.
const session = http2.connect(`http://${cfg.target}`);
session.on('error', () => undefined);
const headers = (path) => ({
  ':method': 'POST',
  ':path': path,
  'content-type': 'application/grpc',
  te: 'trailers',
  'a2a-version': '1.0',
});
const SEND_HEADERS = headers(GRPC_METHODS.SendMessage.path);
const STREAM_HEADERS = headers(GRPC_METHODS.SendStreamingMessage.path);

// The same bytes for every call, as the HTTP scenarios send the same body.
const request = (text) =>
  encodeFramed('SendMessageRequest', {
    message: { messageId: 'bench-1', role: 'ROLE_USER', parts: [{ text }] },
  });
const SEND = request('hello');
const STREAM = request(`stream:${cfg.k}`);

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const completedWithOneArtifact = (t) =>
  t?.status?.state === 'TASK_STATE_COMPLETED' &&
  Array.isArray(t.artifacts) &&
  t.artifacts.length === 1;

/**
 * One call: sends `body`, hands every whole message of the answer to `onMessage`, resolves with the
 * grpc-status (from the trailers, or the headers of a trailers-only answer; -1 when the call broke).
 */
function call(hdrs, body, onMessage) {
  return new Promise((resolve) => {
    const req = session.request(hdrs);
    let status = -1;
    let buf = null;
    req.setTimeout(10_000, () => req.close(http2.constants.NGHTTP2_CANCEL));
    req.on('response', (h) => {
      if (h['grpc-status'] !== undefined) status = Number(h['grpc-status']);
    });
    req.on('trailers', (t) => {
      status = Number(t['grpc-status']);
    });
    req.on('data', (chunk) => {
      buf = buf ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 5) {
        const len = buf.readUInt32BE(1);
        if (buf.length < 5 + len) break;
        onMessage(buf.subarray(5, 5 + len));
        buf = buf.length === 5 + len ? null : buf.subarray(5 + len);
        if (!buf) break;
      }
    });
    req.on('close', () => resolve(status));
    req.on('error', () => undefined);
    req.end(body);
  });
}

async function unary(bytes) {
  const t0 = performance.now();
  let ok = false;
  const code = await call(SEND_HEADERS, bytes, (m) => {
    try {
      ok = completedWithOneArtifact(decodeMessage('SendMessageResponse', m).task);
    } catch {
      ok = false;
    }
  });
  return { ms: performance.now() - t0, ok: ok && code === 0, code };
}

async function stream(bytes) {
  const t0 = performance.now();
  let ttfe = null;
  let events = 0;
  let ok = true;
  let first;
  let last;
  let artifacts = 0;
  let working = 0;
  const code = await call(STREAM_HEADERS, bytes, (m) => {
    if (ttfe === null) ttfe = performance.now() - t0;
    events++;
    try {
      const e = decodeMessage('StreamResponse', m);
      if (e.artifactUpdate) artifacts++;
      else if (e.statusUpdate?.status?.state === 'TASK_STATE_WORKING') working++;
      first ??= e;
      last = e;
    } catch {
      ok = false;
    }
  });
  const valid =
    code === 0 &&
    ok &&
    events === cfg.k + 4 &&
    first?.task !== undefined &&
    last?.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED' &&
    artifacts === 1 &&
    working === cfg.k + 1;
  return { events, ttfeMs: ttfe, ok: valid };
}

async function phase(seconds, record) {
  const deadline = performance.now() + seconds * 1000;
  const s = { calls: 0, events: 0, errors: 0, lat: [], ttfe: [], codes: {} };
  const worker = async () => {
    for (let n = 0; performance.now() < deadline && n < 10_000_000; n++) {
      if (cfg.k === undefined) {
        const r = await unary(SEND);
        if (!record) continue;
        s.calls++;
        s.codes[r.code] = (s.codes[r.code] ?? 0) + 1;
        if (!r.ok) s.errors++;
        s.lat.push(r.ms);
      } else {
        const r = await stream(STREAM);
        if (!record) continue;
        s.calls++;
        s.events += r.events;
        if (!r.ok) s.errors++;
        if (r.ttfeMs !== null) s.ttfe.push(r.ttfeMs);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: cfg.concurrency }, () => worker()));
  s.elapsedS = (performance.now() - t0) / 1000;
  return s;
}

if (cfg.warmup > 0) await phase(cfg.warmup, false);
const s = await phase(cfg.duration, true);
let summary;
if (cfg.k === undefined) {
  s.lat.sort((a, b) => a - b);
  const mean = s.lat.reduce((a, b) => a + b, 0) / Math.max(1, s.lat.length);
  summary = {
    rps: s.calls / s.elapsedS,
    responses: s.calls,
    durationS: s.elapsedS,
    throughputRps: s.calls / s.elapsedS,
    latency: {
      p50: percentile(s.lat, 50),
      p90: percentile(s.lat, 90),
      p99: percentile(s.lat, 99),
      max: s.lat.at(-1) ?? null,
      mean,
    },
    codes: s.codes,
    errors: s.errors,
  };
} else {
  s.ttfe.sort((a, b) => a - b);
  summary = {
    streams: s.calls,
    events: s.events,
    elapsedS: s.elapsedS,
    eventsPerS: s.events / s.elapsedS,
    streamsPerS: s.calls / s.elapsedS,
    ttfeMs: {
      p50: percentile(s.ttfe, 50),
      p99: percentile(s.ttfe, 99),
      max: s.ttfe.at(-1) ?? null,
    },
    errors: s.errors,
  };
}
session.close();
if (process.send) process.send(summary, () => process.exit(0));
else console.log(JSON.stringify(summary, null, 2));
