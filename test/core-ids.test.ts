import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../src/server/util/ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('server ids are RFC 9562 version 4 UUIDs, distinct across pool refills', () => {
  const seen = new Set<string>();
  // 2 000 ids cross the 256-id pool several times.
  for (let i = 0; i < 2000; i++) {
    const id = newId();
    assert.match(id, UUID_V4);
    seen.add(id);
  }
  assert.equal(seen.size, 2000);
});

test('server ids use every hex digit in the random positions (no stuck nibbles)', () => {
  const digits = new Set<string>();
  for (let i = 0; i < 200; i++) for (const c of newId().slice(0, 8)) digits.add(c);
  assert.equal(digits.size, 16);
});
