/**
 * SIGTERM mid-stream, end to end: a real agent server in a child process, the real client streaming from
 * it. The client sees its stream end cleanly and tries to resume (what lets it move to another instance);
 * the agent gets the deadline to finish; the process exits 0; past the deadline the log says what was dropped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { A2AClient, isA2AClientError, userMessage } from '../src/client/index.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import type { StreamResponse, TaskState } from '../src/protocol/index.js';

const CHILD = path.join(import.meta.dirname, 'drain-child.ts');

interface Child {
  proc: ChildProcess;
  origin: string;
  stderr: () => string;
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  let out = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child did not start: ${err}`)), 30_000);
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    proc.once('exit', (code) =>
      reject(new Error(`the child exited (${code}) before listening: ${err}`)),
    );
  });
  return { proc, origin, stderr: () => err };
}

function stateOf(ev: StreamResponse): TaskState | undefined {
  return 'task' in ev
    ? ev.task.status.state
    : 'statusUpdate' in ev
      ? ev.statusUpdate.status.state
      : undefined;
}

/** Stream one message, send SIGTERM at the first WORKING event; what the client saw, and how the child ended. */
async function sigtermMidStream(mode: 'finishes' | 'hangs', deadlineMs: number) {
  const dir = await mkdtemp(path.join(tmpdir(), 'a2a-drain-'));
  const db = path.join(dir, 'tasks.sqlite');
  const child = await startChild({
    DRAIN_DB: db,
    DRAIN_MODE: mode,
    DRAIN_DEADLINE_MS: String(deadlineMs),
  });
  try {
    const resumes: Array<{ error: unknown }> = [];
    const client = await A2AClient.connect(child.origin, {
      resume: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 10 },
      logger: { info: (obj) => resumes.push(obj as { error: unknown }) },
    });
    const states: Array<TaskState | undefined> = [];
    let taskId: string | undefined;
    let streamError: unknown;
    const exited = once(child.proc, 'exit') as Promise<[number | null, string | null]>;
    try {
      for await (const ev of client.sendStreamingMessage({ message: userMessage('work slowly') })) {
        states.push(stateOf(ev));
        taskId ??= 'task' in ev ? ev.task.id : undefined;
        if (
          stateOf(ev) === 'TASK_STATE_WORKING' &&
          states.filter((s) => s === 'TASK_STATE_WORKING').length === 1
        )
          child.proc.kill('SIGTERM');
      }
    } catch (err) {
      streamError = err;
    }
    const [code] = await exited;
    const store = new SqliteTaskStore({ path: db });
    const stored = await store.getTask({ tenant: '', owner: '' }, taskId!);
    await store.close();
    return { states, resumes, streamError, code, stored, log: child.stderr() };
  } finally {
    if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

test('SIGTERM mid-stream: the stream ends cleanly and the client resumes; the agent finishes within the deadline; exit 0', async () => {
  const r = await sigtermMidStream('finishes', 10_000);
  assert.deepEqual(r.states.slice(0, 2), ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);
  assert.ok(
    !r.states.includes('TASK_STATE_COMPLETED'),
    'the stream was handed over before the task ended',
  );
  // A clean end (no error) before a final state is the resume cue; this server is gone, so resuming fails.
  assert.equal(r.resumes.length >= 1, true, 'the client tried to resume');
  assert.equal(r.resumes[0]!.error, undefined, 'the stream ended cleanly, it was not cut');
  assert.ok(
    isA2AClientError(r.streamError) && ['NETWORK', 'UNAVAILABLE'].includes(r.streamError.code),
    String(r.streamError),
  );
  assert.equal(r.code, 0, r.log);
  assert.equal(
    r.stored?.status.state,
    'TASK_STATE_COMPLETED',
    'the agent finished during the drain and its task was stored',
  );
  assert.match(r.log, /"msg":"SIGTERM: draining/);
  assert.match(
    r.log,
    /"msg":"drained in \d+ ms: 1 stream\(s\) told to resubscribe, nothing dropped"/,
  );
});

test('SIGTERM with an agent that outlives the deadline: it is aborted, the log names it, exit 0', async () => {
  const r = await sigtermMidStream('hangs', 300);
  assert.equal(r.code, 0, r.log);
  assert.equal(
    r.stored?.status.state,
    'TASK_STATE_CANCELED',
    'the aborted agent recorded how it stopped before the store closed',
  );
  const warn = r.log.split('\n').find((l) => l.includes('drain deadline of 300 ms passed'));
  assert.ok(warn, r.log);
  const entry = JSON.parse(warn) as {
    level: string;
    msg: string;
    tasksAborted: Array<{ taskId: string }>;
  };
  assert.equal(entry.level, 'warn');
  assert.match(entry.msg, /1 task\(s\) aborted \(/);
  assert.equal(entry.tasksAborted.length, 1);
});

test('a second SIGTERM during the drain exits at once (143), saying so', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'a2a-drain-'));
  const child = await startChild({
    DRAIN_DB: path.join(dir, 'tasks.sqlite'),
    DRAIN_MODE: 'hangs',
    DRAIN_DEADLINE_MS: '60000',
  });
  try {
    const client = await A2AClient.connect(child.origin, { resume: false });
    const exited = once(child.proc, 'exit') as Promise<[number | null, string | null]>;
    for await (const ev of client.sendStreamingMessage({
      message: userMessage('work until stopped'),
    })) {
      if (stateOf(ev) === 'TASK_STATE_WORKING') break;
    }
    child.proc.kill('SIGTERM');
    for (let i = 0; i < 300 && !child.stderr().includes('SIGTERM: draining'); i++)
      await new Promise((r) => setTimeout(r, 50));
    // Past the window in which a repeat counts as the same signal delivered twice.
    await new Promise((r) => setTimeout(r, 400));
    child.proc.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 143, child.stderr());
    assert.match(child.stderr(), /SIGTERM again: exiting without waiting for the drain/);
  } finally {
    if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});
