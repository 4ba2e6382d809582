/**
 * Child processes for the conformance runners: servers that print their URL on their first line, and
 * tools run to completion. Every wait is bounded, and each child is ended by its own process group, so
 * a stuck test tool or agent can never hold a run (or leave a process behind).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** End a child and everything it started (it was spawned detached, as a group leader). */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 3000).unref();
}

/**
 * Start a server that prints a line matching `ready` once it listens; resolves to the child and the
 * match. Its output after that goes to `log` (a function taking a line), so a failing run can show it.
 */
export function startServer(cmd, args, { ready, timeoutMs = 60_000, log = () => {}, ...opts }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    let done = false;
    const fail = (why) => {
      if (done) return;
      done = true;
      stop(child);
      reject(new Error(`${cmd} ${args.join(' ')}: ${why}\n${seen.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk) => {
      const text = chunk.toString();
      if (done) {
        for (const line of text.split('\n')) if (line) log(line);
        return;
      }
      seen = (seen + text).slice(-8000);
      const m = ready.exec(seen);
      if (m) {
        done = true;
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before it was ready`));
  });
}

/**
 * Run a tool to its end; resolves to its exit code (-1 when it was ended for running past
 * `timeoutMs`). Its output goes to `log` line by line.
 */
export function runTool(cmd, args, { timeoutMs, log = () => {}, ...opts }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      log(`${cmd}: still running after ${timeoutMs} ms, ended`);
      stop(child);
    }, timeoutMs);
    let rest = '';
    const onData = (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop().slice(-10_000);
      for (const line of lines) log(line);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (e) => {
      log(`${cmd}: ${e.message}`);
      clearTimeout(timer);
      resolve(-1);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (rest) log(rest);
      resolve(timedOut ? -1 : (code ?? -1));
    });
  });
}
