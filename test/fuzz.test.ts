/**
 * Fuzzing both HTTP bindings (issue 15: nothing a peer sends can crash, stall or silently lose).
 * Valid requests for every operation are mutated where it hurts — deep nesting, huge strings, wrong
 * types, NUL and lone surrogates, snake_case names, duplicate keys, numbers out of range, broken
 * envelopes, paths, headers and bytes — and every answer must be well-formed, in time, and not an
 * internal error the agent did not cause; the server must stay up.
 *
 * Bounded: a fixed seed, a sweep of deep nesting at every spot of every operation, then FUZZ_COUNT
 * random requests (default 2,000) in-process, and a fifth as many against a server in a child process,
 * where a crash shows as the process dying. Every request is bounded in time. FUZZ_SEED picks
 * another sequence. What the suite found once is pinned by the cases below, a minimal request each;
 * a new finding that cannot be fixed at once goes to KNOWN_ISSUES in fuzz-run.ts (reported in the
 * diagnostics, not failed on) with a `todo` case, until it is fixed.
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import {
  OPERATIONS_BY_NAME,
  WELL_KNOWN_CARD_PATH,
  type OperationName,
} from '../src/protocol/index.js';
import { deepSweep, generate, spellings, type Binding, type FuzzCase } from './fuzz-gen.js';
import { deepJson, toJson } from './fuzz-mutate.js';
import { judge, send } from './fuzz-oracle.js';
import { ChildTarget } from './fuzz-proc.js';
import {
  KNOWN_ISSUES,
  REQUEST_BOUND_MS,
  buildWorld,
  describe as describeFinding,
  runCases,
  type RunResult,
  type TargetRef,
} from './fuzz-run.js';
import { FUZZ_REST_PATH, FUZZ_RPC_PATH, startFuzzTarget } from './fuzz-server.js';

const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261203);
const CHILD_COUNT = Math.max(200, Math.round(COUNT / 5));
/** Whole-run budget: a run that needs longer stops early and fails (the count is part of the contract). */
const RUN_BUDGET_MS = 240_000;
/** Deep enough to overflow V8's recursive JSON.stringify, shallow enough for JSON.parse. */
const SWEEP_DEPTH = 5000;
const SWEEP_SIZE = [
  ...deepSweep({ hook: '', done: ['t'], waiting: ['t'], contexts: ['c'], configs: ['c'] }, 1),
].length;

function* chain<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const p of parts) yield* p;
}

function report(t: TestContext, r: RunResult): void {
  t.diagnostic(
    `sent ${r.sent}; answers by HTTP status: ${JSON.stringify(Object.fromEntries(r.statuses))}`,
  );
  for (const [id, cases] of r.skipped)
    t.diagnostic(`not sent (known crasher ${id}): ${cases.length}`);
  for (const k of KNOWN_ISSUES) {
    const hits = r.findings.filter((f) => f.known === k.id);
    if (hits.length === 0) continue;
    t.diagnostic(`known issue ${k.id}: ${hits.length} requests, e.g.`);
    const example = hits.find((f) => f.crash !== undefined) ?? hits[0]!;
    for (const line of describeFinding(example).split('\n')) t.diagnostic(line.slice(0, 400));
  }
}

function assertNoUnknownFindings(r: RunResult): void {
  const bad = r.findings.filter((f) => !f.known);
  assert.equal(
    bad.length,
    0,
    `${bad.length} requests went wrong:\n\n${bad.slice(0, 12).map(describeFinding).join('\n\n')}`,
  );
}

/** Whether the target still answers a card request (bounded). */
function cardAnswers(origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      `${origin}${WELL_KNOWN_CARD_PATH}`,
      { timeout: REQUEST_BOUND_MS, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

describe('fuzz: mutated requests over JSON-RPC and HTTP+JSON', () => {
  it(`${COUNT} requests in-process: no 5xx, no hang, well-formed errors, streams that end`, async (t) => {
    const target = await startFuzzTarget();
    // A crash in-process would take the test runner down: catch it here and count it as a failure.
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    try {
      const world = await buildWorld(target.origin, target.hook);
      const cases = chain(deepSweep(world, SWEEP_DEPTH), generate(SEED, COUNT, world));
      const r = await runCases({ origin: () => target.origin }, cases, {
        concurrency: 4,
        crashersToSend: 0,
        budgetMs: RUN_BUDGET_MS,
      });
      report(t, r);
      const ran = r.sent + [...r.skipped.values()].reduce((n, cs) => n + cs.length, 0);
      assert.equal(
        ran,
        COUNT + SWEEP_SIZE,
        `only ${ran} of ${COUNT + SWEEP_SIZE} requests ran within ${RUN_BUDGET_MS} ms`,
      );
      assert.deepEqual(
        uncaught.map(String),
        [],
        'nothing escaped as an uncaught exception or unhandled rejection',
      );
      assertNoUnknownFindings(r);
    } finally {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUncaught);
      await target.close();
    }
  });

  it(`${CHILD_COUNT} requests against a server in a child process: it never dies, answers stay well-formed`, async (t) => {
    let child = await ChildTarget.start();
    const ref: TargetRef = {
      origin: () => child.origin,
      // The fatal write may come with the agent's next event, just after the answer: ask once more.
      alive: async () => child.alive && (await cardAnswers(child.origin)) && child.alive,
      restart: async () => {
        await child.stop();
        const stderr = child.stderr;
        child = await ChildTarget.start();
        return stderr;
      },
    };
    try {
      const world = await buildWorld(child.origin, child.hook);
      // Another seed than the in-process run, leaning on streams and deep nesting, where crashes were found.
      const cases = chain(
        deepSweep(world, SWEEP_DEPTH),
        generate(SEED + 1, CHILD_COUNT, world, 'streams'),
      );
      const r = await runCases(ref, cases, {
        concurrency: 1,
        crashersToSend: Infinity,
        budgetMs: RUN_BUDGET_MS,
      });
      report(t, r);
      assertNoUnknownFindings(r);
    } finally {
      await child.stop();
    }
  });
});

/** A hand-written request: `params` for `op` over `binding`, judged by the same oracle. */
function caseOf(binding: Binding, op: OperationName, params: string): FuzzCase {
  const rpc = binding === 'jsonrpc';
  return {
    n: 0,
    binding,
    op,
    mutations: ['hand-written'],
    verb: 'POST',
    path: rpc ? FUZZ_RPC_PATH : `${FUZZ_REST_PATH}${OPERATIONS_BY_NAME[op].rest.path}`,
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: Buffer.from(
      rpc ? `{"jsonrpc":"2.0","id":1,"method":"${op}","params":${params}}` : params,
    ),
    ...(rpc ? { rpcId: 1 } : {}),
    streaming: OPERATIONS_BY_NAME[op].streaming,
    onPurpose: false,
    depth: 0,
  };
}

/** Send `c` to a fresh child target: the oracle's problems, with the stack if the process died. */
async function onChild(c: FuzzCase): Promise<{ problems: string[]; stderr: string }> {
  const child = await ChildTarget.start();
  try {
    const verdict = judge(c, await send(child.origin, c, new Agent(), REQUEST_BOUND_MS));
    const up = (await cardAnswers(child.origin)) && child.alive;
    return {
      problems: up ? verdict.problems : ['the server process died', ...verdict.problems],
      stderr: child.stderr,
    };
  } finally {
    await child.stop();
  }
}

/** A message whose agent answers with a burst of events, with metadata nested `depth` levels deep. */
const deepMessage = (depth: number, text: string) =>
  `{"message":{"messageId":"deep-1","role":"ROLE_USER","parts":[{"text":"${text}"}],"metadata":${deepJson(depth, 'object').text}}}`;

describe('what the fuzz suite found once, pinned with a minimal request each', () => {
  for (const binding of ['jsonrpc', 'rest'] as const) {
    it(`${binding}: SendStreamingMessage with message.metadata nested 5,000 deep leaves the process up and the stream well-formed`, async () => {
      const r = await onChild(
        caseOf(binding, 'SendStreamingMessage', deepMessage(5000, 'chunks deep')),
      );
      assert.deepEqual(r.problems, [], r.stderr);
    });
    it(`${binding}: SendMessage with message.metadata nested 5,000 deep is refused naming a depth limit, not an internal error`, async () => {
      const r = await onChild(caseOf(binding, 'SendMessage', deepMessage(5000, 'echo deep')));
      assert.deepEqual(r.problems, [], r.stderr);
    });
  }

  it('a task left open by a request nested 5,000 deep does not break ListTasks for its owner', async () => {
    const target = await startFuzzTarget();
    try {
      const agent = new Agent();
      await send(
        target.origin,
        caseOf('jsonrpc', 'SendMessage', deepMessage(5000, 'ask')),
        agent,
        REQUEST_BOUND_MS,
      );
      for (const binding of ['jsonrpc', 'rest'] as const) {
        const list =
          binding === 'rest'
            ? restOf(caseOf(binding, 'ListTasks', '{}'), {})
            : caseOf(binding, 'ListTasks', '{}');
        assert.deepEqual(
          judge(list, await send(target.origin, list, agent, REQUEST_BOUND_MS)).problems,
          [],
          binding,
        );
      }
    } finally {
      await target.close();
    }
  });

  it('every operation accepts the proto field names (snake_case) exactly as camelCase, on both bindings', async () => {
    const target = await startFuzzTarget();
    try {
      const world = await buildWorld(target.origin, target.hook);
      const agent = new Agent();
      const outcome = async (
        binding: Binding,
        op: OperationName,
        params: unknown,
      ): Promise<string> => {
        const c =
          binding === 'rest'
            ? restOf(caseOf(binding, op, '{}'), params)
            : caseOf(binding, op, toJson(params));
        const o = await send(target.origin, c, agent, REQUEST_BOUND_MS);
        // Ids, timestamps and counters differ between two calls; the rest of the answer must not.
        const body = (o.body ?? (o.events ?? []).join('\n'))
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
          .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
          .replace(/"messageId":"[^"]*"/g, '"messageId":"<id>"')
          .replace(/"totalSize":\d+/g, '"totalSize":<n>');
        return `HTTP ${o.status} ${body.slice(0, 300)}`;
      };
      const differences: string[] = [];
      for (const op of Object.keys(OPERATIONS_BY_NAME) as OperationName[]) {
        // Subscriptions stay open; cancel and delete change what the second call sees.
        if (
          op === 'SubscribeToTask' ||
          op === 'CancelTask' ||
          op === 'DeleteTaskPushNotificationConfig'
        )
          continue;
        for (const binding of ['jsonrpc', 'rest'] as const) {
          const { camel, snake } = spellings(op, world);
          const [a, b] = [await outcome(binding, op, camel), await outcome(binding, op, snake)];
          if (a !== b)
            differences.push(`${binding} ${op}:\n  camelCase  → ${a}\n  snake_case → ${b}`);
        }
      }
      assert.equal(differences.length, 0, differences.join('\n'));
    } finally {
      await target.close();
    }
  });
});

/** `c` as the HTTP+JSON request for `params` in either spelling: path fields out, the rest in the body or query. */
function restOf(c: FuzzCase, params: unknown): FuzzCase {
  const route = OPERATIONS_BY_NAME[c.op].rest;
  const fields = Object.entries(JSON.parse(toJson(params)) as Record<string, unknown>);
  const take = (name: string): string => {
    const snake = name.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`);
    const i = fields.findIndex(([k]) => k === name || k === snake);
    return i < 0 ? '' : encodeURIComponent(String(fields.splice(i, 1)[0]![1]));
  };
  const path = `${FUZZ_REST_PATH}${route.path.replace(/\{(\w+)\}/g, (_m, n: string) => take(n))}`;
  const { body: _unused, ...rest } = c;
  if (route.body)
    return {
      ...rest,
      verb: 'POST',
      path,
      body: Buffer.from(JSON.stringify(Object.fromEntries(fields))),
    };
  const q = new URLSearchParams(fields.map(([k, v]) => [k, String(v)]));
  return { ...rest, verb: route.verbs[0]!, path: q.size > 0 ? `${path}?${q}` : path };
}
