/**
 * Issue 28: the client's `timeoutMs` must fire when the caller passes its own abort signal too, even
 * after a garbage collection. On Node 20, `AbortSignal.any` holds its sources weakly, so a bare
 * `AbortSignal.timeout` under it was collected with its timer and the call waited forever (the CLI
 * always passes a signal). The collector is forced here (`--expose-gc`, set at run time).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { A2AClient, isA2AClientError } from '../src/client/index.js';
import { deadline } from '../src/protocol/deadline.js';
import { makeCard, startServer } from './client-fixture.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage every few ms until `p` settles or `boundMs` passes; resolves with how it settled. */
async function settleUnderGc(p: Promise<unknown>, boundMs: number): Promise<unknown> {
  let outcome: { error: unknown } | { value: unknown } | undefined;
  p.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  const until = Date.now() + boundMs;
  for (let i = 0; i < 10_000 && !outcome && Date.now() < until; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(outcome, `the call had not settled ${boundMs} ms after a far shorter timeout`);
  return 'error' in outcome ? outcome.error : outcome.value;
}

test('timeoutMs fires with a caller signal after garbage collections (issue 28)', async () => {
  const s = await startServer(() => undefined); // never answers
  try {
    const client = new A2AClient(makeCard(s.url), { timeoutMs: 100 });
    const caller = new AbortController(); // held for the whole test, as the CLI holds its Ctrl-C signal
    const err = await settleUnderGc(client.getTask('t1', { signal: caller.signal }), 10_000);
    assert.ok(isA2AClientError(err), String(err));
    assert.equal(err.code, 'TIMEOUT');
    assert.match(err.message, /timed out after 100 ms/);
    assert.equal(caller.signal.aborted, false, "the caller's own signal is left alone");
  } finally {
    await s.close();
  }
});

test('deadline: the parent still aborts it, and clear() lets go of the parent', async () => {
  const parent = new AbortController();
  const d = deadline(parent.signal, 60_000);
  parent.abort(new Error('stop'));
  assert.equal(d.signal.aborted, true);
  assert.equal((d.signal.reason as Error).message, 'stop');

  const other = new AbortController();
  const cleared = deadline(other.signal, 60_000);
  cleared.clear();
  other.abort();
  assert.equal(cleared.signal.aborted, false, 'a cleared deadline no longer follows its parent');

  const timed = deadline(undefined, 20, 'GetTask');
  const reason = await settleUnderGc(
    new Promise((_r, reject) =>
      timed.signal.addEventListener('abort', () => reject(timed.signal.reason)),
    ),
    10_000,
  );
  assert.equal((reason as DOMException).name, 'TimeoutError');
  assert.match((reason as DOMException).message, /GetTask timed out after 20 ms/);
});
