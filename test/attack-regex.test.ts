/**
 * Issue 28, regular expressions on peer text in the library: every pattern that reads what a peer
 * sends (request bodies, service parameters, gRPC metadata, answers shown by the command line) gets
 * the shapes that make backtracking patterns quadratic, under an event-loop delay monitor. The kit's
 * own readers have the same test in kit/test/kit-attack-regex.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as turn, setTimeout } from 'node:timers/promises';
import { mayHaveProtoNames, requestedVersion } from '../src/protocol/index.js';
import { encodeGrpcMessage, grpcMessageText } from '../src/protocol/grpc/status.js';
import { timeoutMs } from '../src/server/grpc/h2-wire.js';
import { hostAllowed } from '../src/server/mount/origin-policy.js';
import { textLine } from '../src/cli/render.js';
import { parseRetryAfter } from '../src/protocol/retry-after.js';

/** The longest the loop may be held by one of these texts; a quadratic pattern takes seconds. */
const BUDGET_MS = 1500;
const n = 1_000_000;
const sp = ' '.repeat(n);

const SHAPES: Record<string, string> = {
  blanks: `a${sp}b`,
  'blanks then a line break': `a${sp}\nb`,
  'a( × n': 'a('.repeat(n / 2),
  newlines: `a${'\n'.repeat(n)}`,
  'open quote': `"a_${'a'.repeat(n)}`,
  'snake keys without colons': `"a_b"${sp}`.repeat(4),
  'underscores in a quoted run': `"${'ab_'.repeat(n / 3)}`,
  'quoted snake runs without a colon': `"a_b${'_c'.repeat(n / 2)}"`,
  'digits and dots': `1${'.1'.repeat(n / 2)}x`,
  'v and blanks': `v1${sp}x`,
  'host-like': `${'a.'.repeat(n / 2)}:`,
  'percent and controls': '%\u0001'.repeat(n / 2),
};

/** The longest stall of the event loop (ms) while `read` goes through every shape, one per turn. */
async function longestStall(
  read: (text: string) => unknown,
): Promise<{ ms: number; shape: string }> {
  let worst = { ms: 0, shape: '' };
  for (const [shape, text] of Object.entries(SHAPES)) {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    await setTimeout(25); // the monitor's first tick only starts its clock
    await turn();
    read(text);
    await setTimeout(25); // a tick after the work, so the stall is recorded
    h.disable();
    if (h.max / 1e6 > worst.ms) worst = { ms: h.max / 1e6, shape };
  }
  return worst;
}

test('patterns that read peer text stay linear on adversarial shapes (issue 28)', async () => {
  const readers: Record<string, (text: string) => unknown> = {
    'proto field names in a body': mayHaveProtoNames,
    'A2A-Version': requestedVersion,
    'grpc-timeout': timeoutMs,
    'grpc-message out': encodeGrpcMessage,
    'grpc-message in': grpcMessageText,
    'Host against allowedHosts': (t) => hostAllowed(t, ['localhost']),
    'Retry-After': parseRetryAfter,
    "the CLI's one-line text of an answer": (t) => textLine([{ text: t }]),
  };
  for (const [name, read] of Object.entries(readers)) {
    const worst = await longestStall(read);
    assert.ok(
      worst.ms < BUDGET_MS,
      `${name} on "${worst.shape}" held the event loop ${worst.ms.toFixed(0)} ms`,
    );
  }
});

test("the CLI's one-line text keeps its meaning: a blank run with a line break is one ↵", () => {
  assert.equal(textLine([{ text: ' a \n\n  b\tc \r\n d ' }]), 'a ↵ b\tc ↵ d');
  assert.equal(textLine([{ text: 'a' }, { text: 'b' }]), 'a ↵ b');
});

test('the proto-name scan finds exactly what the pattern it replaced finds', () => {
  const pattern = /"[a-z][a-z0-9]*_[a-z][a-z0-9_]*"[ \t\n\r]*:/;
  const alphabet = ['"', '_', 'a', 'z', '0', '9', ':', ' ', '\n', 'A', '{', '\\'];
  let seed = 7;
  const next = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 8) % k;
  for (let i = 0; i < 20_000; i++) {
    let text = '';
    for (let len = next(24); len > 0; len--) text += alphabet[next(alphabet.length)];
    assert.equal(mayHaveProtoNames(text), pattern.test(text), JSON.stringify(text));
  }
  for (const text of [
    '{"message_id":"x"}',
    '{"a":"ROLE_USER"}',
    '{"history_length" :1}',
    '{"k_1":1}',
  ])
    assert.equal(mayHaveProtoNames(text), pattern.test(text), text);
});
