/**
 * `a2a send` on a terminal: run inside `script` (util-linux), which gives it a pseudo-terminal, so
 * stdin is a TTY — the INPUT_REQUIRED question is asked and answered in the same task, with colours
 * and the spinner; NO_COLOR removes the colours. Skipped where `script` (Debian's bsdutils) is not installed — a failure under CI=true.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, BOUND_MS, startAgents, type TestAgents } from './cli-fixture.js';
import { commandMissing } from './service-fixture.js';

const noScript = commandMissing('script', 'bsdutils');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs a2a on a pseudo-terminal, typing `answer` once `promptSeen` appears; resolves with everything the terminal showed. */
function onTerminal(
  args: string[],
  answer: string,
  promptSeen: RegExp,
  env: Record<string, string> = {},
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH, TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    if (!typed && promptSeen.test(screen)) {
      typed = true;
      child.stdin.write(`${answer}\n`);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    }),
  );
}

const ESC = String.fromCharCode(27);
const plain = (s: string) =>
  s.replace(new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, 'g'), '').replace(/\r/g, '');

describe('a2a on a terminal', { skip: noScript }, () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('asks the INPUT_REQUIRED question and sends the answer in the same task, in colour', async () => {
    const r = await onTerminal(
      ['send', agents.streaming.url, 'ask'],
      'Ada',
      /waits for your answer/,
    );
    assert.equal(r.code, 0, r.screen);
    const text = plain(r.screen);
    assert.match(text, /INPUT_REQUIRED {2}What is your name\?\n/);
    assert.match(
      text,
      /streamer waits for your answer \(an empty line or Ctrl-D leaves the task waiting\)\n> Ada/,
    );
    assert.match(text, /COMPLETED {2}hello Ada\n/);
    assert.equal(text.match(/What is your name\?/g)?.length, 1, 'the question is shown once');
    assert.ok(r.screen.includes('\x1b[32mCOMPLETED\x1b[39m'), 'states are coloured on a terminal');
  });

  it('NO_COLOR: no colours, even on a terminal', async () => {
    const r = await onTerminal(
      ['send', agents.plain.url, 'ask'],
      'Grace',
      /waits for your answer/,
      { NO_COLOR: '1' },
    );
    assert.equal(r.code, 0, r.screen);
    assert.match(plain(r.screen), /COMPLETED {2}hello Grace/);
    assert.doesNotMatch(r.screen, new RegExp(`${ESC}\\[3\\dm`), 'no colour codes');
  });
});
