/**
 * Load generator, run as a child process (pinned to its own core by run.mjs): one autocannon run
 * against one server, every response body checked. Config arrives as JSON in argv[2]; the summary
 * goes back over IPC (or stdout when run by hand).
 */
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2]);

const completedWithOneArtifact = (t) =>
  t?.status?.state === 'TASK_STATE_COMPLETED' &&
  Array.isArray(t.artifacts) &&
  t.artifacts.length === 1;

/** Per-scenario body checks; a throw or a falsy return counts as a mismatch. */
const VERIFY = {
  'send-jsonrpc': (b) => {
    const r = JSON.parse(b);
    return r.jsonrpc === '2.0' && r.error === undefined && completedWithOneArtifact(r.result?.task);
  },
  'get-jsonrpc': (b) => {
    const r = JSON.parse(b);
    return r.jsonrpc === '2.0' && r.error === undefined && completedWithOneArtifact(r.result);
  },
  'send-rest': (b) => completedWithOneArtifact(JSON.parse(b).task),
  card: (b) => JSON.parse(b).name === 'echo',
  empty: (b) => b === '',
};

function safe(fn) {
  return (body) => {
    try {
      return fn(body);
    } catch {
      return false;
    }
  };
}

function run(opts) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
    // A hard stop in case the server stalls: duration + per-request timeout + slack.
    const limit = setTimeout(
      () => inst.stop(),
      ((opts.duration ?? 60) + (opts.timeout ?? 10) + 5) * 1000,
    );
    limit.unref();
  });
}

const base = {
  url: cfg.url,
  method: cfg.method,
  headers: cfg.headers ?? {},
  body: cfg.body,
  connections: cfg.connections,
  pipelining: 1,
  timeout: 10,
  verifyBody: safe(VERIFY[cfg.verify]),
};

if (cfg.warmup > 0) await run({ ...base, duration: cfg.warmup });
const r = await run(
  cfg.amount
    ? { ...base, amount: cfg.amount, duration: cfg.maxSeconds ?? 120 }
    : { ...base, duration: cfg.duration },
);

const codes = Object.fromEntries(
  Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]),
);
const responses = Object.values(codes).reduce((a, b) => a + b, 0);
const good = codes[String(cfg.expectStatus)] ?? 0;
const summary = {
  rps: r.requests.average,
  responses,
  durationS: r.duration,
  throughputRps: responses / r.duration,
  latency: {
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    mean: r.latency.mean,
  },
  codes,
  errors: r.errors + r.timeouts + r.mismatches + (responses - good),
  detail: {
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    wrongStatus: responses - good,
  },
};
if (process.send) process.send(summary, () => process.exit(0));
else console.log(JSON.stringify(summary, null, 2));
