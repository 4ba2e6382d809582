/**
 * The agents' sentence readers and code hints, rewritten as linear scans (issue 28), accept exactly
 * what the former regular expressions accepted: both are run over thousands of short sentences built
 * from the agents' own words (where the old patterns are quick) and must agree on every one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  deployText,
  reviewTargetText,
  rollbackTarget,
  testTargetText,
} from '../src/agents/sentences.js';
import { hasCall, hasCommentLine, looksLikeCode, stripFence } from '../src/agents/code-hints.js';

// The former patterns, kept here as the reference they were (quadratic only on long inputs).
const RUN_TESTS =
  /^(?:please\s+)?(?:run\s+(?:the\s+)?tests?|test)\s+(?:(?:in|on|for|under|of)\s+)?(.+?)\s*$/i;
const REVIEW =
  /^(?:please\s+)?review\s+(?:the\s+)?(?:(?:code|directory|dir|folder)\s+)?(?:(?:in|of|at)\s+)?(\S+)\s*$/i;
const DEPLOY =
  /^(?:please\s+)?(?:deploy|publish|release)\s+(.+?)\s+to\s+([\w-]+)(?:\s+(?:as\s+)?(?:version\s+)?v?(\S+?))?\s*\.?$/i;
const ROLLBACK = /^(?:please\s+)?roll\s*-?\s*back\s+(?:the\s+)?([\w-]+)(?:\s+release)?\s*\.?$/i;
const OLD_HINTS = [
  /[;{}]/,
  /=>|===|!==|\(\s*\)/,
  /\b(?:const|let|var|function|class|import|export|return|interface|type)\b/,
  /\w\s*\(.*\)/,
  /^\s*(?:\/\/|\/\*)/m,
];
const OLD_FENCE = /^```[\w-]*\n([\s\S]*?)\n?```\s*$/;

const WORDS = [
  ...['please', 'Please', 'run', 'RUN', 'the', 'test', 'tests', 'Tests', 'in', 'on', 'for', 'of'],
  ...['under', 'at', 'review', 'code', 'dir', 'folder', 'directory', 'deploy', 'publish'],
  ...['release', 'to', 'TO', 'staging', 'prod', 'as', 'version', 'v', 'v1.2', '1.0.', 'V2'],
  ...['.', '..', 'v.', 'staging.', 'rollback', 'roll', 'back', '-', '-back', 'roll-', 'roll-back'],
  ...['change-ok', '"my dir"', "'x'", 'a.b', 'x-y_z', '`p`', 'testsuite', 'runs'],
];
const GAPS = [' ', ' ', ' ', '  ', '\t', '\n', ' \n '];

/** A small deterministic generator (mulberry32), so a failure names a sentence that reproduces. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function* sentences(count: number): Generator<string> {
  const r = rng(20261205);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(r() * 7);
    let s = '';
    for (let w = 0; w < n; w++) s += (w ? pick(GAPS) : '') + pick(WORDS);
    yield s;
  }
}

test('the sentence readers agree with the former patterns on 30,000 sentences', () => {
  const differ: string[] = [];
  const read = { test: 0, review: 0, deploy: 0, rollback: 0 };
  for (const s of sentences(30_000)) {
    const old = {
      test: RUN_TESTS.exec(s)?.[1],
      review: REVIEW.exec(s)?.[1],
      deploy: DEPLOY.exec(s),
      rollback: ROLLBACK.exec(s)?.[1],
    };
    const d = deployText(s);
    const now = {
      test: testTargetText(s),
      review: reviewTargetText(s),
      deploy: d && [d.source, d.target, d.version],
      rollback: rollbackTarget(s),
    };
    const was = {
      ...old,
      deploy: old.deploy ? [old.deploy[1], old.deploy[2], old.deploy[3]] : undefined,
    };
    for (const k of Object.keys(now) as Array<keyof typeof now>) {
      if (now[k] !== undefined) read[k]++;
      if (JSON.stringify(now[k]) !== JSON.stringify(was[k]))
        differ.push(
          `${k} ${JSON.stringify(s)}: was ${JSON.stringify(was[k])}, now ${JSON.stringify(now[k])}`,
        );
    }
  }
  assert.deepEqual(differ.slice(0, 20), []);
  for (const [k, n] of Object.entries(read))
    assert.ok(n >= 30, `the corpus exercises the ${k} reader (${n} sentences read)`);
});

test('the code hints and the fence agree with the former patterns on short texts', () => {
  const bits = [
    'a',
    '(',
    ')',
    ' ',
    '\n',
    '\r\n',
    '//',
    '/*',
    'f(x)',
    '=>',
    ';',
    'const',
    '\t',
    'b(',
  ];
  const r = rng(7);
  const differ: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    let t = '';
    for (let n = Math.floor(r() * 10); n > 0; n--) t += bits[Math.floor(r() * bits.length)];
    if (hasCall(t) !== OLD_HINTS[3]!.test(t)) differ.push(`call ${JSON.stringify(t)}`);
    if (hasCommentLine(t) !== OLD_HINTS[4]!.test(t)) differ.push(`comment ${JSON.stringify(t)}`);
    const was = OLD_HINTS.filter((re) => re.test(t)).length >= 2;
    if (looksLikeCode(t) !== was) differ.push(`looksLikeCode ${JSON.stringify(t)}`);
    const fenced = ['```', '```ts\n', '```x-y\n'][i % 3] + t + ['```', '\n```', '```  '][i % 3]!;
    const old = OLD_FENCE.exec(fenced.trim());
    if (stripFence(fenced) !== (old ? old[1] : fenced))
      differ.push(`fence ${JSON.stringify(fenced)}`);
  }
  assert.deepEqual(differ.slice(0, 20), []);
});
