import assert from 'node:assert/strict';
import { test } from 'node:test';
import { driverMismatch } from '../src/server/store/sqlite-driver.js';

test('better-sqlite3 12 runs on Node 20 and 22, 13 on Node 22 and later', () => {
  const fine: Array<[node: string, driver: string]> = [
    ['20.3.0', '12.11.1'],
    ['22.23.3', '12.11.1'],
    ['22.23.3', '13.2.0'],
    ['24.21.0', '13.2.0'],
    ['v25.0.0', '14.0.0'],
  ];
  for (const [node, driver] of fine)
    assert.equal(driverMismatch(node, driver), undefined, `${driver} on Node ${node}`);
});

test('a better-sqlite3 that would crash this Node is named, with the version to install', () => {
  assert.equal(
    driverMismatch('20.20.2', '13.2.0'),
    'better-sqlite3 13.2.0 needs Node 22 or later (this is Node 20.20.2): npm install better-sqlite3@12',
  );
  assert.equal(
    driverMismatch('24.21.0', '12.11.1'),
    'better-sqlite3 12.11.1 aborts Node 24 processes; version 13 or later is needed: npm install better-sqlite3@13',
  );
});
