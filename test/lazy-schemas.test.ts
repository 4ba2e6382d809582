/**
 * The schemas loaded on first use (src/protocol/lazy-schemas.ts): callers that arrive while they load
 * share one load, and request validation gives the same answer (the same request, or the same
 * InvalidParams with the same violations) before the schemas have loaded, while they load and after.
 * Nothing else in this process loads them first: the tests run in order, the first one before any load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardSchemas, jose, requestSchemas } from '../src/protocol/lazy-schemas.js';
import { validateRequest } from '../src/server/dispatch/validate.js';
import { isA2AError } from '../src/protocol/index.js';

const LIST = { pageSize: 5, contextId: 'c1' };
const BAD_LIST = { pageSize: 0, status: 'DONE', historyLength: -1 };

/** The outcome of a validation, whether it answers at once or through a promise, in a comparable form. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (err) {
    assert.ok(isA2AError(err), `not an A2AError: ${String(err)}`);
    return { kind: err.kind, message: err.message, details: err.details };
  }
}

test('a fast-checked request is answered synchronously before any schema has loaded', () => {
  assert.equal(requestSchemas.now(), undefined, 'the request schemas were loaded before the test');
  const params = {
    message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
  };
  assert.equal(validateRequest('SendMessage', params), params);
  assert.equal(requestSchemas.now(), undefined, 'a fast-checked request loaded the schemas');
});

test('concurrent first uses share one load; requests that need the schemas wait for it and get the usual answer', async () => {
  assert.equal(requestSchemas.now(), undefined);
  const first = validateRequest('ListTasks', LIST);
  const second = validateRequest('ListTasks', BAD_LIST);
  assert.ok(first instanceof Promise, 'a request needing the schemas answered before they loaded');
  assert.ok(second instanceof Promise);
  assert.equal(requestSchemas.load(), requestSchemas.load(), 'two loads, not one');
  const [whileLoading, refusedWhileLoading] = await Promise.all([
    outcome(() => first),
    outcome(() => second),
  ]);
  assert.ok(requestSchemas.now(), 'the schemas are not held once loaded');
  // After the load the same requests are answered synchronously, identically.
  const after = validateRequest('ListTasks', LIST);
  assert.ok(!(after instanceof Promise), 'still asynchronous after the load');
  assert.deepEqual(whileLoading, await outcome(() => after));
  assert.deepEqual(whileLoading, { ok: { pageSize: 5, contextId: 'c1' } });
  const refusedAfter = await outcome(() => validateRequest('ListTasks', BAD_LIST));
  assert.deepEqual(refusedWhileLoading, refusedAfter);
  assert.equal((refusedAfter as { kind: string }).kind, 'InvalidParams');
});

test('the card schema and jose are each loaded once, however many callers ask at the same time', async () => {
  const cards = [cardSchemas.load(), cardSchemas.load(), cardSchemas.load()];
  assert.ok(cards.every((p) => p === cards[0]));
  const loaded = await cards[0];
  assert.equal(cardSchemas.now(), loaded);
  assert.equal(await cardSchemas.load(), loaded);
  const joses = [jose.load(), jose.load()];
  assert.equal(joses[0], joses[1]);
  assert.equal(await joses[0], jose.now());
});
