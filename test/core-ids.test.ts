import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../src/server/util/ids.js';
import { msg, rpc, start } from './core-fixture.js';

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

describe('issue 15: ids are bounded at the edge', () => {
  it('a messageId, taskId or tenant over 256 characters is refused with -32602 naming the field and the limit', async () => {
    const s = await start();
    try {
      const long = 'x'.repeat(300);
      const r = await rpc(s.url, 'SendMessage', { message: msg('echo', { messageId: long }) });
      assert.equal(r.body.error?.code, -32602);
      assert.match(JSON.stringify(r.body.error), /messageId.*at most 256 characters/);
      const g = await rpc(s.url, 'GetTask', { id: long });
      assert.equal(g.body.error?.code, -32602);
      assert.doesNotMatch(JSON.stringify(g.body), /x{300}/, 'the id is not echoed back');
    } finally {
      await s.close();
    }
  });

  it('a JSON-RPC id over 256 characters is an invalid request answered with id null', async () => {
    const s = await start();
    try {
      const r = await rpc(s.url, 'GetTask', { id: 'x' }, undefined, 'i'.repeat(300));
      assert.equal(r.body.error?.code, -32600);
      assert.equal(r.body.id, null);
    } finally {
      await s.close();
    }
  });
});
