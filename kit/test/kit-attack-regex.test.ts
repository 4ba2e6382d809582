/**
 * Issue 28, regular expressions on peer text: the texts that held the event loop for 10–41 s (the
 * sentence readers on "test a" + 200–300 KB of spaces + "b", the reviewer's code hints on "a" +
 * 150,000 newlines and on "a(" × 100,000) and their relatives go through every reader, then to the
 * three running agents. The budget is asserted by an event-loop delay monitor, not a clock around
 * the call: any stall of the loop, wherever it comes from, shows there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as turn, setTimeout } from 'node:timers/promises';
import type { Message } from 'a2a-kit';
import { inbound } from '../src/agents/common.js';
import { testTargetOf } from '../src/agents/test-runner.js';
import { reviewPlanOf } from '../src/agents/code-reviewer.js';
import { deployRequestOf } from '../src/agents/deployer.js';
import { looksLikeCode, stripFence } from '../src/agents/code-hints.js';
import { AUTH, rpc, send, startKit } from './kit-agents-fixture.js';

/** The longest the loop may be held by one of these texts; the old patterns took 10,000–41,000 ms. */
const BUDGET_MS = 1500;

const n = 300_000;
const sp = ' '.repeat(n);
/** Peer texts that made a former pattern backtrack (quadratically or worse), and their relatives. */
const SHAPES: Record<string, string> = {
  'test a␠…␠b': `test a${sp}b`,
  'run tests in a␠…␠b': `run tests in a${sp}b`,
  'please × n': 'please '.repeat(n / 7),
  'review a␠…␠b': `review a${sp}b`,
  'review the the …': `review ${'the '.repeat(n / 4)}x y`,
  'deploy a to to to …': `deploy a${' to'.repeat(n / 3)}`,
  'deploy a␠…␠to staging x y': `deploy a${sp}to staging x y`,
  'deploy a to staging v␠…': `deploy a to staging v${sp}x`,
  'roll␠…-␠…back': `roll${sp}-${sp}back x`,
  'rollback the␠…': `rollback the${sp}x y`,
  'a + 150,000 newlines': `a${'\n'.repeat(150_000)}`,
  'a( × 100,000': 'a('.repeat(100_000),
  '( ␠…': `(${sp}`,
  'a␠…( per line': `a${sp}(\n`.repeat(3),
  '``` fences': `\`\`\`\n${'```   '.repeat(n / 6)}x`,
  quotes: `"${'a'.repeat(n)}`,
  'yes after blanks': `${sp}yes`,
};

const message = (text: string): Message => ({
  messageId: 'm',
  role: 'ROLE_USER',
  parts: [{ text }],
});

/** Runs `work` (one turn per item) under an event-loop delay monitor; resolves with the longest stall in ms. */
async function longestStall(items: string[], work: (text: string) => unknown): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    // Its first tick only starts the clock: a stall before it would go unrecorded.
    await setTimeout(25);
    for (const text of items) {
      await turn();
      work(text);
      // The monitor samples from a timer: let it fire once after the work, or a stall goes unseen.
      await setTimeout(25);
    }
  } finally {
    h.disable();
  }
  return h.max / 1e6;
}

test('every sentence reader and code hint reads each adversarial text within the budget', async () => {
  const readers: Record<string, (text: string) => unknown> = {
    'test-runner': (t) => testTargetOf(message(t)),
    'code-reviewer': (t) => reviewPlanOf(inbound(message(t))),
    deployer: (t) => deployRequestOf(inbound(message(t))),
    'code hints': (t) => [looksLikeCode(t), stripFence(t)],
  };
  for (const [name, read] of Object.entries(readers)) {
    for (const [shape, text] of Object.entries(SHAPES)) {
      const ms = await longestStall([text], read);
      assert.ok(ms < BUDGET_MS, `${name} on "${shape}" held the event loop ${ms.toFixed(0)} ms`);
    }
  }
});

test('the three agents answer the adversarial texts without holding the loop', async () => {
  const f = await startKit();
  try {
    for (const agent of ['test-runner', 'code-reviewer', 'deployer'] as const) {
      for (const [shape, text] of Object.entries(SHAPES)) {
        const h = monitorEventLoopDelay({ resolution: 10 });
        h.enable();
        await setTimeout(25); // the monitor's first tick only starts its clock
        const r = await rpc(f, agent, 'SendMessage', send([{ text }]), AUTH);
        await setTimeout(25); // and a tick after the answer, so a stall just before it is seen
        h.disable();
        assert.equal(r.status, 200, `${agent} on "${shape}": HTTP ${r.status}`);
        const ms = h.max / 1e6;
        assert.ok(ms < BUDGET_MS, `${agent} on "${shape}" held the event loop ${ms.toFixed(0)} ms`);
      }
    }
  } finally {
    await f.close();
  }
});
