/**
 * The code reviewer can be sent anything without holding up the process: reviews run off the event loop,
 * a review over its time budget is stopped, size limits and a full pool are answered clearly, and reviewed
 * code cannot make the compiler read, or probe for, files outside the review.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentServer, type AgentServer } from 'a2a-kit/server';
import {
  DEFAULT_REVIEW_LIMITS,
  ReviewError,
  ReviewPool,
  WorkspaceError,
  reviewDirectory,
  reviewFiles,
  warmUpReviewer,
  type FileReview,
} from '../src/work/index.js';
import {
  UPDATE_FINDINGS,
  codeReviewerExecutor,
  type CodeReviewerOptions,
} from '../src/agents/code-reviewer.js';
import { codeReviewerCard } from '../src/agents/cards.js';
import { BOUND_MS, endpoint, send, startKit, statusText } from './kit-agents-fixture.js';

const samples = fileURLToPath(new URL('../../samples', import.meta.url));

/** Valid TypeScript of about `bytes` bytes; type-checking 400 KB of it takes seconds. */
function bigSource(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const chunk = `export function f${i}(a: number, b: string): string {\n  const o = { k${i}: a * 2, s: b.toUpperCase() };\n  return o.s + String(o.k${i});\n}\n`;
    parts.push(chunk);
    size += chunk.length;
  }
  return parts.join('');
}

const BIG = bigSource(400_000);

/** A code-reviewer alone on 127.0.0.1:0 with the given options. */
async function reviewer(
  opts: Omit<CodeReviewerOptions, 'workspaceRoot'>,
): Promise<{ server: AgentServer; url: string }> {
  const server = createAgentServer({
    card: (o) => codeReviewerCard({ baseUrl: o, bindings: ['JSONRPC'] }),
    executor: codeReviewerExecutor({ workspaceRoot: samples, ...opts }),
  });
  const origin = await server.listen(0, '127.0.0.1');
  return { server, url: `${origin}/a2a/jsonrpc` };
}

async function sendMessage(url: string, parts: unknown[]): Promise<any> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: send(parts) }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  const body = await r.json();
  assert.ok(body.result?.task, JSON.stringify(body).slice(0, 500));
  return body.result.task;
}

test('review: a big review leaves the event loop free (a timer set after it starts fires before it ends)', async () => {
  await warmUpReviewer();
  const order: string[] = [];
  const review = reviewFiles([{ path: 'big.ts', content: BIG }]).then((r) => {
    order.push('review');
    return r;
  });
  setTimeout(() => order.push('timer'), 20);
  const r = await review;
  assert.equal(r.verdict, 'approve');
  assert.deepEqual(order, ['timer', 'review']);
});

test('code-reviewer: while a big review runs, another agent of the process answers (deployer card)', async (t) => {
  const f = await startKit();
  t.after(() => f.close());
  const order: string[] = [];
  let card: Promise<void> | undefined;
  const res = await fetch(endpoint(f, 'code-reviewer', 'JSONRPC'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: send([{ text: BIG, filename: 'big.ts' }]),
    }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  const decoder = new TextDecoder();
  let buffer = '';
  let chunks = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (++chunks > 10_000) throw new Error('runaway stream');
    buffer += decoder.decode(chunk, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut !== -1) {
      const data = buffer
        .slice(0, cut)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('');
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      const state: string | undefined = data
        ? JSON.parse(data).result?.statusUpdate?.status?.state
        : undefined;
      if (state === 'TASK_STATE_WORKING' && !card) {
        // The review is under way: ask the deployer (same process) for its card.
        card = fetch(`${f.kit.agents.deployer.origin}/.well-known/agent-card.json`, {
          signal: AbortSignal.timeout(BOUND_MS),
        })
          .then((r) => r.json())
          .then(() => void order.push('deployer card'));
      }
      if (state === 'TASK_STATE_COMPLETED') order.push('review completed');
    }
  }
  assert.ok(card, 'the review reported WORKING');
  await card;
  assert.deepEqual(order, ['deployer card', 'review completed']);
});

test('review: over its time budget the worker is stopped and the task fails saying so; a fresh worker replaces it', async (t) => {
  const pool = new ReviewPool({ timeBudgetMs: 300, maxConcurrent: 1 });
  t.after(() => pool.close());
  await pool.warmUp();
  await assert.rejects(
    reviewFiles([{ path: 'big.ts', content: BIG }], { pool }),
    (err: unknown) => {
      assert.ok(err instanceof ReviewError);
      assert.equal(err.code, 'TIMEOUT');
      assert.match(err.message, /did not finish within its time budget of 0\.3 s/);
      return true;
    },
  );
  const { server, url } = await reviewer({ pool });
  t.after(() => server.close(1000));
  const task = await sendMessage(url, [{ text: BIG, filename: 'big.ts' }]);
  assert.equal(task.status.state, 'TASK_STATE_FAILED');
  assert.match(
    statusText(task),
    /The review of 1 file\(s\) stopped: the review did not finish within its time budget of 0\.3 s/,
  );
  // The stopped workers are gone; a fresh one starts and gets ready.
  assert.deepEqual(pool.load, { running: 0, queued: 0 });
  await pool.warmUp();
});

test('review: size and count limits are refused up front with the limit in the message', async (t) => {
  assert.deepEqual(
    { ...DEFAULT_REVIEW_LIMITS },
    { maxFiles: 500, maxFileBytes: 1_000_000, maxTotalBytes: 4_000_000, maxFindings: 1_000 },
  );
  const limited = (e: RegExp) => (err: unknown) =>
    err instanceof WorkspaceError && err.code === 'LIMIT_EXCEEDED' && e.test(err.message);
  const file = (n: number, bytes: number) => ({
    path: `f${n}.ts`,
    content: `//${'x'.repeat(bytes - 3)}\n`,
  });
  await assert.rejects(
    reviewFiles([file(1, 1_001)], { limits: { maxFileBytes: 1_000 } }),
    limited(/"f1\.ts" is 1,001 bytes; the reviewer accepts at most 1,000 bytes per file/),
  );
  await assert.rejects(
    reviewFiles([file(1, 10), file(2, 10), file(3, 10)], { limits: { maxFiles: 2 } }),
    limited(/3 files sent; the reviewer accepts at most 2 files/),
  );
  await assert.rejects(
    reviewFiles([file(1, 900), file(2, 900)], { limits: { maxTotalBytes: 1_500 } }),
    limited(/exceed 1,500 bytes together/),
  );
  await assert.rejects(
    reviewFiles([file(1, DEFAULT_REVIEW_LIMITS.maxFileBytes + 1)]),
    limited(/at most 1,000,000 bytes per file/),
  );
  await assert.rejects(
    reviewDirectory(samples, 'change-ok', { limits: { maxFiles: 2 } }),
    limited(/"change-ok" holds more than 2 files/),
  );
  await assert.rejects(
    reviewDirectory(samples, 'change-ok', { limits: { maxFileBytes: 100 } }),
    limited(/accepts at most 100 bytes per file/),
  );

  // Through the agent: a REJECTED task whose message names the limit.
  const { server, url } = await reviewer({ limits: { maxFileBytes: 1_000 } });
  t.after(() => server.close(1000));
  const task = await sendMessage(url, [{ text: 'x'.repeat(2_000), filename: 'big.ts' }]);
  assert.equal(task.status.state, 'TASK_STATE_REJECTED');
  assert.match(
    statusText(task),
    /Cannot review 1 file\(s\): file "big\.ts" is 2,000 bytes; the reviewer accepts at most 1,000 bytes per file/,
  );
});

/** `lines` lines that each trip the compiler and several rules (the soak's "noisy" file, issue 28). */
const noisy = (lines: number): string =>
  Array.from({ length: lines }, (_, i) => `var a${i} = eval("x") == null; debugger;`).join('\n');

test('review: findings past maxFindings are counted, not listed; a file update lists a few and counts the rest', async (t) => {
  const all = await reviewFiles([{ path: 'noisy.js', content: noisy(50) }]);
  assert.equal(all.omitted, 0);
  assert.ok(all.findings.length >= 100, `${all.findings.length} findings`);

  const files: FileReview[] = [];
  const capped = await reviewFiles(
    [
      { path: 'a.js', content: noisy(50) },
      { path: 'b.js', content: noisy(50) },
    ],
    { limits: { maxFindings: 30 }, onFile: (f) => void files.push(f) },
  );
  assert.equal(capped.findings.length, 30);
  assert.deepEqual(
    capped.findings,
    all.findings.slice(0, 30).map((f) => ({ ...f, file: 'a.js' })),
  );
  // Counts and verdict are those of every finding, listed or not.
  assert.equal(capped.errors, 2 * all.errors);
  assert.equal(capped.warnings, 2 * all.warnings);
  assert.equal(capped.findings.length + capped.omitted, 2 * all.findings.length);
  assert.equal(capped.verdict, all.verdict);
  assert.deepEqual(
    files.map((f) => [f.file, f.findings.length, f.omitted, f.errors]),
    [
      ['a.js', 30, all.findings.length - 30, all.errors],
      ['b.js', 0, all.findings.length, all.errors],
    ],
  );

  // Through the agent, at the default: 5,000 noisy lines (225 KB) give a review of at most 1,000
  // findings, not ~3 MB; the file's WORKING update lists UPDATE_FINDINGS and counts the rest.
  const { server, url } = await reviewer({});
  t.after(() => server.close(1000));
  const sent = noisy(5_000);
  const task = await sendMessage(url, [{ text: sent, filename: 'noisy.js' }]);
  assert.equal(task.status.state, 'TASK_STATE_COMPLETED', statusText(task));
  const data = task.artifacts[0].parts[1].data;
  assert.equal(data.findings.length, DEFAULT_REVIEW_LIMITS.maxFindings);
  assert.equal(data.findings.length + data.omittedFindings, 100 * all.findings.length);
  assert.match(
    task.artifacts[0].parts[0].text,
    /more not listed: a review lists at most 1000 findings/,
  );
  const update = task.history.find((m: any) => m.parts[1]?.data?.event === 'file').parts[1].data;
  assert.equal(update.findings.length, UPDATE_FINDINGS);
  assert.equal(update.moreFindings, data.findings.length + data.omittedFindings - UPDATE_FINDINGS);
  const size = JSON.stringify(task).length;
  assert.ok(size < 2 * sent.length, `the task is ${size} characters for ${sent.length} sent`);
});

test('review: a worker collects its garbage after a review once it is past heapSlackMb, so memory stays flat', async (t) => {
  const tight = new ReviewPool({ maxConcurrent: 1, heapSlackMb: 8 });
  const loose = new ReviewPool({ maxConcurrent: 1, heapSlackMb: 4096 });
  t.after(() => Promise.all([tight.close(), loose.close()]));
  const source = bigSource(60_000);
  /** The worker's heap once it has said so after its last review. */
  const heapAfter = async (pool: ReviewPool, before: number[]): Promise<number> => {
    for (let i = 0; i < 200 && pool.workerHeapBytes.join() === before.join(); i++)
      await new Promise((r) => setTimeout(r, 10));
    return pool.workerHeapBytes[0]!;
  };
  const heaps = { tight: [] as number[], loose: [] as number[] };
  for (let i = 0; i < 6; i++) {
    for (const [name, pool] of [
      ['tight', tight],
      ['loose', loose],
    ] as const) {
      const before = pool.workerHeapBytes;
      const r = await reviewFiles([{ path: `f${i}.ts`, content: source }], { pool });
      assert.equal(r.errors, 0);
      heaps[name].push(await heapAfter(pool, before));
    }
  }
  const mb = (xs: number[]) => xs.map((x) => Math.round(x / 2 ** 20)).join(' ');
  t.diagnostic(
    `worker heap after each review, MB: tight ${mb(heaps.tight)}; loose ${mb(heaps.loose)}`,
  );
  const first = heaps.tight[0]!;
  // Never more than the slack (and one review's garbage) above what the worker kept.
  assert.ok(
    Math.max(...heaps.tight) < first + 8 * 2 ** 20 + 64 * 2 ** 20,
    `tight: ${mb(heaps.tight)} MB`,
  );
  // Left to V8, the same reviews leave more behind: the control shows the collection is what helps.
  assert.ok(
    heaps.loose.at(-1)! > heaps.tight.at(-1)! + 16 * 2 ** 20,
    `loose: ${mb(heaps.loose)} MB; tight: ${mb(heaps.tight)} MB`,
  );
});

test('review: a full pool answers BUSY at once; aborting stops queued and running reviews', async (t) => {
  const pool = new ReviewPool({ maxConcurrent: 1, maxQueued: 1 });
  t.after(() => pool.close());
  const a = new AbortController();
  const b = new AbortController();
  const running = reviewFiles([{ path: 'a.ts', content: BIG }], { pool, signal: a.signal });
  const queued = reviewFiles([{ path: 'b.ts', content: BIG }], { pool, signal: b.signal });
  assert.deepEqual(pool.load, { running: 0, queued: 2 }, 'the worker is still starting');
  await assert.rejects(
    reviewFiles([{ path: 'c.ts', content: 'export {};\n' }], { pool }),
    (err: unknown) => {
      assert.ok(err instanceof ReviewError);
      assert.equal(err.code, 'BUSY');
      assert.match(
        err.message,
        /the code reviewer is busy \(0 review\(s\) running, 2 waiting, limit 1 \+ 1\); try again later/,
      );
      return true;
    },
  );

  // Through the agent: REJECTED with the same explanation.
  const { server, url } = await reviewer({ pool });
  t.after(() => server.close(1000));
  const task = await sendMessage(url, [{ text: 'export const z = 1;\n', filename: 'z.ts' }]);
  assert.equal(task.status.state, 'TASK_STATE_REJECTED');
  assert.match(statusText(task), /Cannot review 1 file\(s\) now: the code reviewer is busy/);

  b.abort();
  await assert.rejects(queued, { name: 'AbortError' });
  a.abort();
  await assert.rejects(running, { name: 'AbortError' });
  assert.deepEqual(pool.load, { running: 0, queued: 0 });
});

test('review: imports and references outside the reviewed files are refused, and existence is not revealed', async (t) => {
  const outside = await mkdtemp(path.join(os.tmpdir(), 'kit-review-outside-'));
  t.after(() => rm(outside, { recursive: true, force: true }));
  await writeFile(path.join(outside, 'secret.json'), '{"topSecretKey": 1}\n');
  await writeFile(path.join(outside, 'lib.ts'), 'export const leaked = 42;\n');
  const up = '../'.repeat(12);
  const lines = [
    `/// <reference path="${outside}/lib.ts" />`,
    `import s from '${outside}/secret.json';`,
    `import n from '${outside}/absent.json';`,
    `import { nothere } from '${outside}/lib.ts';`,
    `import { gone } from '${outside}/absent.ts';`,
    `import q from '${up}${outside.slice(1)}/secret.json';`,
    `import p from '${up}etc/passwd';`,
    "import own from './data.json';",
    'export const all = [s.nope, n, nothere, gone, q, p, own.missing, leaked];',
  ];
  const r = await reviewFiles([
    { path: 'src/a.ts', content: `${lines.join('\n')}\n` },
    { path: 'src/data.json', content: '{"ownKey": 1}' },
  ]);
  const text = JSON.stringify(r.findings);
  assert.ok(!text.includes('topSecretKey'), 'no key of an outside JSON file is revealed');
  assert.ok(!/TS2305|TS2339[^}]*secret/.test(text), 'no outside module is loaded');
  const at = (line: number) => r.findings.filter((f) => f.line === line).map((f) => f.rule);
  assert.deepEqual(at(1), ['TS6053'], 'the reference to an outside file is "not found"');
  for (const line of [2, 3, 4, 5, 6, 7])
    assert.deepEqual(at(line), ['TS2307'], `line ${line}: ${lines[line - 1]}`);
  const message = (line: number) =>
    r.findings.find((f) => f.line === line)!.message.replace(outside, '<dir>');
  assert.equal(
    message(2).replace('secret', 'X'),
    message(3).replace('absent', 'X'),
    'an existing and an absent file answer alike',
  );
  assert.equal(message(4).replace('lib', 'X'), message(5).replace('absent', 'X'));
  // Imports among the reviewed files still resolve: the own JSON's keys are known.
  assert.match(
    r.findings.find((f) => f.line === 9 && f.rule === 'TS2339')?.message ?? '',
    /'missing' does not exist on type '\{ ownKey: number; \}'/,
  );
  assert.ok(
    r.findings.some((f) => f.line === 9 && /Cannot find name 'leaked'/.test(f.message)),
    'the outside file did not join the program',
  );
});

test('review: input the compiler chokes on fails clearly, and the worker keeps serving', async (t) => {
  const pool = new ReviewPool({ maxConcurrent: 1 });
  t.after(() => pool.close());
  const deep = `export const x = ${'['.repeat(20_000)}${']'.repeat(20_000)};\n`;
  await assert.rejects(
    reviewFiles([{ path: 'deep.ts', content: deep }], { pool }),
    (err: unknown) => {
      assert.ok(err instanceof ReviewError);
      assert.equal(err.code, 'CRASHED');
      assert.match(
        err.message,
        /the compiler could not process this input \(RangeError: Maximum call stack size exceeded\)/,
      );
      return true;
    },
  );
  const ok = await reviewFiles([{ path: 'a.ts', content: 'export const n = 1;\n' }], { pool });
  assert.equal(ok.verdict, 'approve');
});
