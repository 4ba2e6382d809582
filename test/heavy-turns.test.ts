/**
 * Large request bodies take turns (issue 28's soak): one per turn of the event loop, so what else is
 * ready — a card request, a health probe — is served between them instead of after all of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { HEAVY_BODY_BYTES, inTurn } from '../src/server/kernel/heavy-turns.js';

test('a small body is handed on at once; a large one waits for its turn', async () => {
  assert.equal(inTurn('{}'), '{}');
  const big = 'x'.repeat(HEAVY_BODY_BYTES);
  const later = inTurn(big);
  assert.ok(later instanceof Promise);
  assert.equal(await later, big);
});

test('I/O that became ready while a large body was handled is served before the next large body', async () => {
  const big = 'x'.repeat(HEAVY_BODY_BYTES);
  const order: string[] = [];
  // A message port is I/O to the event loop: its messages are delivered in the poll phase.
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: string) => order.push(m));
  const bodies = [1, 2, 3].map((i) =>
    Promise.resolve(inTurn(big)).then(() => {
      order.push(`body ${i}`);
      port2.postMessage(`request that arrived during body ${i}`);
    }),
  );
  await Promise.all(bodies);
  await once(port1, 'message');
  port1.close();
  assert.deepEqual(order, [
    'body 1',
    'request that arrived during body 1',
    'body 2',
    'request that arrived during body 2',
    'body 3',
    'request that arrived during body 3',
  ]);
});
