import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, truncate } from '../src/text.js';

test('slugify lowercases and joins words with dashes', () => {
  assert.equal(slugify('Hello, A2A World!'), 'hello-a2a-world');
});

test('slugify drops accents', () => {
  assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
});

test('truncate leaves short text alone', () => {
  assert.equal(truncate('short', 10), 'short');
});

test('truncate cuts long text with an ellipsis', () => {
  assert.equal(truncate('abcdefghij', 5), 'abcd…');
});
