/** Process plumbing for the bench: pinned child processes, IPC round trips, statistics. */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { didYouMean } from 'a2a-kit/cli-args';

export const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Command-line options for a bench script: `options` as for util.parseArgs (without defaults, so a
 * script can tell a given option from an absent one); options named in `numbers` come back as numbers.
 * `--help` prints `usage` and exits 0; an unknown option, a missing value or a value that is not a
 * number prints what was wrong and the usage, and exits 2, before anything runs.
 */
export function cliOptions(usage, options, { positionals = 0, numbers = [] } = {}) {
  const fail = (why) => {
    process.stderr.write(`${why}\nusage: ${usage}\n`);
    process.exit(2);
  };
  let parsed;
  try {
    parsed = parseArgs({
      options: { ...options, help: { type: 'boolean' } },
      allowPositionals: positionals > 0,
      strict: true,
    });
  } catch (err) {
    // node:util names the unknown flag; the suggestion is the one every command line here gives.
    const flag = /'--([^'\s=]+)/.exec(err.message)?.[1];
    const near =
      err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag
        ? didYouMean(flag, Object.keys(options), (k) => `--${k}`)
        : '';
    fail(`${err.message}${near}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`usage: ${usage}\n`);
    process.exit(0);
  }
  if (parsed.positionals.length !== positionals)
    fail(`expected ${positionals} argument(s), got ${parsed.positionals.length}`);
  for (const name of numbers) {
    if (parsed.values[name] === undefined) continue;
    const n = Number(parsed.values[name]);
    if (!Number.isFinite(n))
      fail(`--${name} needs a number, got ${JSON.stringify(parsed.values[name])}`);
    parsed.values[name] = n;
  }
  return parsed;
}

/** `taskset -c N` when it exists and there are at least two cores; otherwise no pinning. */
export const canPin =
  availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/**
 * On a shared machine other work competes for the same two cores; where allowed, bench processes run
 * at a higher priority so that competition mostly waits. With autogroup scheduling (Linux default)
 * a process nice value only counts inside its own session, so the session's autogroup is raised too
 * (/proc/self/autogroup; children inherit it). BENCH_NICE=0 turns all of this off.
 */
const NICE = process.env.BENCH_NICE ?? '-15';
export const canNice = NICE !== '0' && spawnSync('nice', ['-n', NICE, 'true']).status === 0;
let raised = false;

// Done when the first bench process starts, not on import: `--help` or a rejected option changes nothing.
function raisePriority() {
  if (raised || !canNice) return;
  raised = true;
  try {
    writeFileSync('/proc/self/autogroup', NICE);
  } catch {
    // No autogroup (or not allowed): the per-process nice below is all there is.
  }
}

/**
 * A node child process at the bench's priority, pinned to `core` (null: not pinned), with an IPC
 * channel; `stdio` as for child_process.spawn (default: output inherited).
 */
export function launch(core, args, env, stdio = ['ignore', 'inherit', 'inherit', 'ipc']) {
  raisePriority();
  const argv = [
    ...(canNice ? ['nice', '-n', NICE] : []),
    ...(canPin && core !== null ? ['taskset', '-c', String(core)] : []),
    process.execPath,
    ...args,
  ];
  return spawn(argv[0], argv.slice(1), { stdio, env: { ...process.env, ...env } });
}

/** Wait for the next IPC message matching `pred`, up to `ms`. */
export function nextMessage(child, pred, ms, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${what}: no answer within ${ms} ms`)), ms);
    const onMsg = (m) => pred(m) && done(null, m);
    // IPC messages can trail the 'exit' event; give them a moment before calling it a failure.
    const onExit = (code) => setTimeout(() => done(new Error(`${what}: exited with ${code}`)), 200);
    let settled = false;
    function done(err, m) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMsg);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m);
    }
    child.on('message', onMsg);
    child.once('exit', onExit);
  });
}

/** The servers the bench compares, by the name of their file in servers/. */
export const SERVERS = ['ours', 'sdk', 'bare'];

/** A fresh server on core 0; resolves { origin, rest, mem(), stop() }. */
export async function startServer(name, nodeFlags = [], env = {}) {
  const child = launch(0, ['--expose-gc', ...nodeFlags, here(`./servers/${name}.mjs`)], {
    NODE_ENV: 'production',
    ...env,
  });
  const ready = await nextMessage(
    child,
    (m) => m?.cmd === 'ready',
    15_000,
    `${name} server start`,
  ).catch((e) => {
    child.kill('SIGKILL');
    throw e;
  });
  return {
    name,
    origin: ready.origin,
    rest: ready.rest !== false,
    /** `host:port` of the server's gRPC listener (started when BENCH_GRPC is set). */
    grpc: ready.grpc,
    async mem() {
      child.send({ cmd: 'mem' });
      return (await nextMessage(child, (m) => m?.cmd === 'mem', 30_000, `${name} memory probe`))
        .mem;
    },
    /** CPU time (user + system, µs) the server has used so far. */
    async cpu() {
      child.send({ cmd: 'cpu' });
      const c = (await nextMessage(child, (m) => m?.cmd === 'cpu', 10_000, `${name} cpu probe`))
        .cpu;
      return c.user + c.system;
    },
    /** Send `{ cmd }` and resolve the server's answer with the same cmd (probes a server file adds). */
    async ask(cmd) {
      child.send({ cmd });
      return nextMessage(child, (m) => m?.cmd === cmd, 10_000, `${name} ${cmd} probe`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ cmd: 'exit' });
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Run a load script on core 1 with `cfg`; resolves its IPC summary. `limitS` bounds it in time. */
export async function runLoad(script, cfg, limitS) {
  const child = launch(1, [here(`./${script}`), JSON.stringify(cfg)]);
  try {
    return await nextMessage(child, () => true, limitS * 1000, script);
  } finally {
    if (child.exitCode === null) {
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await new Promise((r) => child.once('exit', r));
      clearTimeout(t);
    }
  }
}

/** Send `{ cmd, ...extra }` to a child over IPC; resolves its answer with the same cmd (up to `ms`). */
export function ask(child, cmd, ms = 30_000, extra = {}) {
  const answer = nextMessage(child, (m) => m?.cmd === cmd, ms, `${cmd} probe`);
  child.send({ cmd, ...extra });
  return answer;
}

/** The p-th percentile (0–100, nearest rank) of some numbers; null when there are none. */
export function percentile(values, p) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)] : null;
}

/**
 * Memory over a soak: the mean of `key` over the first third of `samples` against the last third
 * (the first sample, taken before any load, is left out). A leak shows as a ratio above 1.
 */
export function thirds(samples, key) {
  const run = samples.length > 3 ? samples.slice(1) : samples;
  const n = Math.max(1, Math.floor(run.length / 3));
  const avg = (xs) => xs.reduce((a, x) => a + x[key], 0) / xs.length;
  const early = avg(run.slice(0, n));
  const late = avg(run.slice(-n));
  return { early, late, ratio: late / early };
}

export function stats(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  return {
    median: v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2,
    min: v[0],
    max: v.at(-1),
    n: v.length,
  };
}

/** Busy fraction of all CPUs over `ms`, from /proc/stat (null where that file does not exist). */
async function cpuBusy(ms) {
  const { readFile } = await import('node:fs/promises');
  const read = async () => {
    const f = (await readFile('/proc/stat', 'utf8'))
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const idle = f[3] + (f[4] ?? 0);
    return { idle, total: f.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = await read();
    await new Promise((r) => setTimeout(r, ms));
    const b = await read();
    return 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
  } catch {
    return null;
  }
}

/**
 * Shared machines: wait (at most `maxMs`) until other processes leave the CPUs mostly idle, so a
 * measurement is not taken in the middle of someone else's burst. Resolves the busy fraction seen.
 */
export async function waitQuiet(maxMs = canNice ? 1000 : 8000, threshold = 0.25) {
  const deadline = Date.now() + maxMs;
  let busy = await cpuBusy(250);
  while (busy !== null && busy > threshold && Date.now() < deadline) busy = await cpuBusy(500);
  return busy;
}
