/**
 * Options of the Redis bus and of the drain are checked when they are given, with an error naming the
 * option: a typo fails at start rather than spinning a heartbeat or hanging a shutdown later.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisEvents } from '../src/server/events/redis.js';
import { createAgentServer } from '../src/server/index.js';
import { card, scripted, probe } from './core-fixture.js';

test('redisEvents refuses a URL that is not redis:// or rediss://, without echoing its password', () => {
  assert.throws(
    () => redisEvents('postgres://u:secret@db:5432/x'),
    (e: Error) =>
      e instanceof TypeError &&
      /redis:\/\/ or rediss:\/\//.test(e.message) &&
      !e.message.includes('secret'),
  );
  assert.throws(() => redisEvents('127.0.0.1:6379'), TypeError);
  assert.doesNotThrow(() => redisEvents('rediss://:pw@cache.example:6380/2'));
});

test('redisEvents refuses lease, retention and timeout values that are not whole numbers in range', () => {
  assert.throws(
    () => redisEvents('redis://127.0.0.1', { lease: { ttlMs: 0 } }),
    /lease\.ttlMs must be a whole number ≥ 100, got 0/,
  );
  assert.throws(
    () => redisEvents('redis://127.0.0.1', { lease: { scanMs: 2.5 } }),
    /lease\.scanMs/,
  );
  assert.throws(() => redisEvents('redis://127.0.0.1', { retention: { ms: -1 } }), /retention\.ms/);
  assert.throws(
    () => redisEvents('redis://127.0.0.1', { retention: { maxEvents: Number.NaN } }),
    /retention\.maxEvents/,
  );
  assert.throws(() => redisEvents('redis://127.0.0.1', { cancelTimeoutMs: -5 }), /cancelTimeoutMs/);
  assert.throws(() => redisEvents('redis://127.0.0.1', { prefix: '' }), /prefix must be non-empty/);
  assert.throws(() => redisEvents('redis://127.0.0.1', { prefix: 'a {b}' }), /prefix/);
});

test('the drain deadline must be a whole number of milliseconds ≥ 0, in the option and in close()', async () => {
  assert.throws(
    () =>
      createAgentServer({
        executor: scripted(probe()),
        card: (o) => card(o),
        drain: { deadlineMs: -1 },
      }),
    /drain\.deadlineMs must be a whole number ≥ 0/,
  );
  assert.throws(
    () =>
      createAgentServer({
        executor: scripted(probe()),
        card: (o) => card(o),
        drain: { readinessDelayMs: 1.5 },
      }),
    /drain\.readinessDelayMs/,
  );
  const server = createAgentServer({ executor: scripted(probe()), card: (o) => card(o) });
  assert.throws(() => server.drain(Number.POSITIVE_INFINITY), /close\(deadlineMs\)/);
  await server.close(0);
});
