/**
 * The server is loud about agent bugs by default (issue 29.5): with no `logger`, an executor that
 * throws and a task left WORKING after its executor returned each give one line on stderr naming the
 * task; `logger: silentLogger` prints nothing. Both checked in a child process, whose stderr is
 * exactly what the library wrote.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { formatLogLine, stderrLogger } from '../src/server/stderr-logger.js';

const CHILD = fileURLToPath(new URL('./logging-child.ts', import.meta.url));

/** Runs the child until `done(stdout, stderr)` says so (or it exits), at most 30 s. */
function child(
  mode: string,
  done: (out: string, err: string) => boolean,
): Promise<{ out: string; err: string; code: number | null }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, LOG_MODE: mode },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve) => {
    const finish = (code: number | null) => {
      clearTimeout(timer);
      proc.kill();
      resolve({ out, err, code });
    };
    const timer = setTimeout(() => finish(null), 30_000);
    const check = () => {
      if (done(out, err)) finish(0);
    };
    proc.stdout.on('data', (d: Buffer) => ((out += d.toString()), check()));
    proc.stderr.on('data', (d: Buffer) => ((err += d.toString()), check()));
    proc.on('exit', (code) => finish(code));
  });
}

describe('default logging', () => {
  it('writes one stderr line per agent bug, with the task id, when no logger is given', async () => {
    const r = await child('default', (_out, err) => err.split('\n').length > 2);
    const [thrown, forgotten] = JSON.parse(r.out.split('\n')[0]!) as string[];
    const lines = r.err.trim().split('\n');
    assert.equal(lines.length, 2, r.err);
    const executor = lines.find((l) => l.includes('agent executor failed'));
    assert.ok(executor, r.err);
    assert.match(executor, new RegExp(`^a2a-kit error: agent executor failed taskId=${thrown} `));
    assert.match(executor, /err=TypeError: the agent tripped over its own feet \(at /);
    const unfinished = lines.find((l) => l.includes(`taskId=${forgotten}`));
    assert.ok(unfinished, r.err);
    assert.match(
      unfinished,
      /^a2a-kit warn: task still TASK_STATE_WORKING 200 ms after its executor/,
    );
  });

  it('prints nothing with logger: silentLogger', async () => {
    const r = await child('silent', () => false);
    assert.equal(r.code, 0, `the child ended with ${r.code}: ${r.err}`);
    assert.equal(r.err, '');
  });

  it('keeps a line to one line, its peer text escaped and bounded', () => {
    const line = formatLogLine(
      'warn',
      { url: 'http://x/\u001b]0;owned\u0007', err: new Error('two\nlines'), taskId: 't1' },
      'push notification given up\r\nfake line',
    );
    assert.ok(![...line].some((c) => c.charCodeAt(0) < 0x20), line);
    assert.match(
      line,
      /^a2a-kit warn: push notification given up\\u\{d\}\\u\{a\}fake line taskId=t1 url=/,
    );
    assert.match(line, /\\u\{1b\}\]0;owned\\u\{7\}/);
    const long = formatLogLine('error', { reason: 'x'.repeat(100_000) }, 'm');
    assert.ok(long.length < 2100);
    const seen: string[] = [];
    const info = stderrLogger({ level: 'info', write: (l) => void seen.push(l) });
    info.debug({}, 'not this');
    info.info({ n: 1 }, 'this');
    assert.deepEqual(seen, ['a2a-kit info: this n=1\n']);
    assert.throws(() => stderrLogger({ level: 'loud' as never }), /unknown level "loud"/);
  });
});
