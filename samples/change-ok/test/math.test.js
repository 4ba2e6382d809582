import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clamp, mean } from '../src/math.js';

test('clamp keeps values inside the range', () => {
  assert.equal(clamp(5, 0, 10), 5);
  assert.equal(clamp(-3, 0, 10), 0);
  assert.equal(clamp(42, 0, 10), 10);
});

test('clamp refuses an inverted range', () => {
  assert.throws(() => clamp(1, 10, 0), RangeError);
});

test('mean averages a list', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
});

test('mean refuses an empty list', () => {
  assert.throws(() => mean([]), RangeError);
});
