/** Core units without HTTP: state machine, request validation, history views, the in-memory store. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  A2AError,
  OPERATIONS_BY_NAME,
  TASK_STATES,
  TERMINAL_STATES,
  type Operation,
  type Task,
  type TaskState,
} from '../src/protocol/index.js';
import { IllegalTransitionError, InMemoryTaskStore } from '../src/server/index.js';
import { TaskRun } from '../src/server/tasks/run.js';
import { viewTask } from '../src/server/tasks/view.js';
import { plainCopy } from '../src/server/util/plain-copy.js';
import { card, probe, scripted } from './core-fixture.js';
import { OperationDispatcher } from '../src/server/dispatch/dispatcher.js';
import { callContext } from '../src/server/dispatch/call-context.js';
import { canTransition } from '../src/server/tasks/state.js';

const ACTIVE: TaskState[] = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
];

test('§4.1.3 a terminal state has no way out: every transition from it is refused', () => {
  for (const from of TERMINAL_STATES)
    for (const to of TASK_STATES) assert.equal(canTransition(from, to), false, `${from} → ${to}`);
});

test('§4.1.3 no task goes back to SUBMITTED (WORKING → SUBMITTED and the like are refused)', () => {
  for (const from of TASK_STATES)
    assert.equal(canTransition(from, 'TASK_STATE_SUBMITTED'), false, `${from} → SUBMITTED`);
});

test('§4.1.3 active and interrupted states may move to any state but SUBMITTED', () => {
  for (const from of ACTIVE) {
    for (const to of TASK_STATES) {
      if (to === 'TASK_STATE_SUBMITTED') continue;
      assert.equal(canTransition(from, to), true, `${from} → ${to}`);
    }
  }
});

function runOf(state: TaskState): { run: TaskRun; events: unknown[] } {
  const events: unknown[] = [];
  const task: Task = { id: 't', contextId: 'c', status: { state } };
  const run = new TaskRun(
    { tenant: '', owner: '' },
    't',
    'c',
    { onEvent: (_r, e) => events.push(e), onChange: () => {} },
    task,
  );
  return { run, events };
}

test('§4.1.3 a task run refuses illegal transitions: an error for WORKING → SUBMITTED, no event from a terminal state', () => {
  const { run, events } = runOf('TASK_STATE_WORKING');
  assert.throws(() => run.setStatus('TASK_STATE_SUBMITTED'), IllegalTransitionError);
  assert.equal(run.state, 'TASK_STATE_WORKING');
  assert.equal(events.length, 0);
  for (const from of TERMINAL_STATES) {
    for (const to of TASK_STATES) {
      const r = runOf(from);
      assert.equal(r.run.setStatus(to), false, `${from} → ${to} must not apply`);
      assert.equal(r.run.state, from);
      assert.equal(r.events.length, 0);
    }
  }
});

// ---- validation (SPEC-NOTES 13) through the transport-agnostic service

const service = () =>
  new OperationDispatcher({
    card: card('http://127.0.0.1:1', { streaming: true }),
    executor: scripted(probe()),
  });
const cc = () => callContext({ version: '1.0' });
const SEND = OPERATIONS_BY_NAME.SendMessage;

async function invalid(params: unknown, op: Operation = SEND): Promise<string[]> {
  try {
    await service().call(op, params, cc());
  } catch (e) {
    assert.ok(e instanceof A2AError, String(e));
    assert.equal(e.kind, 'InvalidParams', e.message);
    assert.equal(e.spec.jsonRpcCode, -32602);
    const br = e
      .wireDetails()
      .find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest') as any;
    assert.ok(br, 'a google.rpc.BadRequest detail');
    return br.fieldViolations.map((v: { field: string }) => v.field);
  }
  assert.fail('expected -32602');
}

const good = () => ({ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] });

test('§3.3.2 empty parts → -32602 naming message.parts', async () => {
  assert.deepEqual(await invalid({ message: { ...good(), parts: [] } }), ['message.parts']);
});

test('§4.1.6 a part with no content (none of text/raw/url/data) → -32602 naming the part', async () => {
  assert.deepEqual(
    await invalid({ message: { ...good(), parts: [{ mediaType: 'text/plain' }] } }),
    ['message.parts[0]'],
  );
});

test('§4.1.6 a part with several of text/raw/url/data → -32602 naming the part', async () => {
  assert.deepEqual(
    await invalid({
      message: { ...good(), parts: [{ text: 'a' }, { text: 'a', url: 'https://x.test/f' }] },
    }),
    ['message.parts[1]'],
  );
  assert.deepEqual(
    await invalid({ message: { ...good(), parts: [{ raw: 'AAAA', data: { a: 1 } }] } }),
    ['message.parts[0]'],
  );
});

test('§4.1.5 missing role → -32602 naming message.role', async () => {
  const { role: _r, ...m } = good();
  assert.deepEqual(await invalid({ message: m }), ['message.role']);
});

test('§4.1.5 unknown role (0.3 "user", ROLE_UNSPECIFIED) → -32602 naming message.role', async () => {
  assert.deepEqual(await invalid({ message: { ...good(), role: 'user' } }), ['message.role']);
  assert.deepEqual(await invalid({ message: { ...good(), role: 'ROLE_UNSPECIFIED' } }), [
    'message.role',
  ]);
});

test('§4.1.4 missing messageId → -32602 naming message.messageId', async () => {
  const { messageId: _m, ...m } = good();
  assert.deepEqual(await invalid({ message: m }), ['message.messageId']);
});

test('§3.2.1 missing message → -32602 naming message', async () => {
  assert.deepEqual(await invalid({}), ['message']);
});

test('§3.2.4 negative historyLength → -32602 (GetTask, ListTasks, SendMessage configuration)', async () => {
  assert.deepEqual(await invalid({ id: 'x', historyLength: -1 }, OPERATIONS_BY_NAME.GetTask), [
    'historyLength',
  ]);
  assert.deepEqual(await invalid({ historyLength: -1 }, OPERATIONS_BY_NAME.ListTasks), [
    'historyLength',
  ]);
  assert.deepEqual(await invalid({ message: good(), configuration: { historyLength: -3 } }), [
    'configuration.historyLength',
  ]);
});

// ---- history views

const H = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    messageId: `h${i}`,
    role: 'ROLE_USER' as const,
    parts: [{ text: `${i}` }],
  }));
const withHistory = (n: number): Task => ({
  id: 't',
  contextId: 'c',
  status: { state: 'TASK_STATE_COMPLETED' },
  history: H(n),
  artifacts: [],
});

test('§3.2.4 historyLength unset → the whole history', () => {
  assert.equal(viewTask(withHistory(5), {}).history!.length, 5);
});

test('§3.2.4 historyLength 0 → no history member at all', () => {
  const v = viewTask(withHistory(5), { historyLength: 0 });
  assert.equal('history' in v, false);
});

test('§3.2.4 historyLength N → the N most recent messages; N larger than the history → all', () => {
  const t = withHistory(5);
  assert.deepEqual(
    viewTask(t, { historyLength: 2 }).history!.map((m) => m.messageId),
    ['h3', 'h4'],
  );
  assert.equal(viewTask(t, { historyLength: 50 }).history!.length, 5);
  assert.equal(t.history!.length, 5, 'the stored task is not changed');
});

test('§3.1.4 includeArtifacts false → no artifacts member (not an empty array)', () => {
  assert.equal('artifacts' in viewTask(withHistory(1), { includeArtifacts: false }), false);
  assert.deepEqual(viewTask(withHistory(1), { includeArtifacts: true }).artifacts, []);
});

// ---- in-memory store

const scope = { tenant: '', owner: '' };
const task = (id: string, state: TaskState, ms: number): Task => ({
  id,
  contextId: 'c',
  status: { state, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString() },
});

test('memory store: past maxTasks only terminal tasks are evicted, oldest first', async () => {
  const store = new InMemoryTaskStore({ maxTasks: 3 });
  await store.saveTask(scope, task('w1', 'TASK_STATE_WORKING', 1));
  await store.saveTask(scope, task('c1', 'TASK_STATE_COMPLETED', 2));
  await store.saveTask(scope, task('c2', 'TASK_STATE_FAILED', 3));
  await store.saveTask(scope, task('w2', 'TASK_STATE_INPUT_REQUIRED', 4));
  assert.equal(store.size, 3);
  assert.equal(await store.getTask(scope, 'c1'), undefined, 'the oldest terminal task went first');
  assert.ok(
    await store.getTask(scope, 'w1'),
    'a non-terminal task is never evicted, even the oldest',
  );
  assert.ok(await store.getTask(scope, 'c2'));
  await store.saveTask(scope, task('w3', 'TASK_STATE_WORKING', 5));
  assert.equal(await store.getTask(scope, 'c2'), undefined);
  await store.saveTask(scope, task('w4', 'TASK_STATE_WORKING', 6));
  assert.equal(
    store.size,
    4,
    'with nothing terminal left the store grows rather than drop live tasks',
  );
  for (const id of ['w1', 'w2', 'w3', 'w4']) assert.ok(await store.getTask(scope, id), id);
});

test("§13.1 memory store: a task id holding NUL cannot reach another tenant's task", async () => {
  const store = new InMemoryTaskStore();
  await store.saveTask({ tenant: 'acme', owner: '' }, task('t1', 'TASK_STATE_COMPLETED', 1));
  assert.ok(await store.getTask({ tenant: 'acme', owner: '' }, 't1'));
  assert.equal(await store.getTask(scope, 'acme\u0000t1'), undefined);
  await assert.rejects(
    store.saveTask(scope, task('acme\u0000t1', 'TASK_STATE_WORKING', 2)),
    /not found/i,
  );
  assert.equal(
    (await store.getTask({ tenant: 'acme', owner: '' }, 't1'))?.status.state,
    'TASK_STATE_COMPLETED',
  );
});

test('§13.1 a live task of one tenant is not found from another through an id holding NUL', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const service = new OperationDispatcher({
    card: card('http://127.0.0.1:1'),
    executor: async (_ctx, t) => {
      t.working();
      await held;
      t.complete();
    },
  });
  const cc = () => callContext({ version: '1.0' });
  const sent = (await service.call(
    OPERATIONS_BY_NAME.SendMessage,
    {
      tenant: 'acme',
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hold' }] },
      configuration: { returnImmediately: true },
    },
    cc(),
  )) as { task: Task };
  const id = sent.task.id;
  assert.equal(
    (await service.call(OPERATIONS_BY_NAME.GetTask, { tenant: 'acme', id }, cc())).id,
    id,
  );
  await assert.rejects(
    service.call(OPERATIONS_BY_NAME.GetTask, { id: `acme\u0000${id}` }, cc()),
    (e: unknown) => e instanceof A2AError && e.kind === 'TaskNotFound',
  );
  await assert.rejects(
    service.call(OPERATIONS_BY_NAME.CancelTask, { id: `acme\u0000${id}` }, cc()),
    (e: unknown) => e instanceof A2AError && e.kind === 'TaskNotFound',
  );
  release();
});

test('memory store: past the cap it evicts a batch (1 %), so inserts at the cap stay cheap', async () => {
  const store = new InMemoryTaskStore({ maxTasks: 1000 });
  for (let i = 0; i < 1001; i++)
    await store.saveTask(scope, task(`t${i}`, 'TASK_STATE_COMPLETED', i));
  assert.equal(store.size, 990);
  assert.equal(await store.getTask(scope, 't10'), undefined);
  assert.ok(await store.getTask(scope, 't11'));
});

test('§3.1.4 memory store: cursor pagination walks every task once, newest first, ties by id', async () => {
  const store = new InMemoryTaskStore();
  const ids: string[] = [];
  for (let i = 0; i < 23; i++) {
    const id = `t${String(i).padStart(2, '0')}`;
    ids.push(id);
    await store.saveTask(scope, task(id, 'TASK_STATE_COMPLETED', Math.floor(i / 3))); // groups of equal timestamps
  }
  const seen: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < 10; page++) {
    const p = await store.listTasks(scope, { pageSize: 5, ...(token ? { pageToken: token } : {}) });
    assert.equal(p.totalSize, 23);
    seen.push(...p.tasks.map((t) => t.id));
    if (p.nextPageToken === '') break;
    token = p.nextPageToken;
  }
  assert.equal(seen.length, 23);
  assert.equal(new Set(seen).size, 23, 'no task twice');
  const expected = [...ids].sort(
    (a, b) =>
      Math.floor(Number(b.slice(1)) / 3) - Math.floor(Number(a.slice(1)) / 3) || (a < b ? -1 : 1),
  );
  assert.deepEqual(seen, expected);
});

test('§3.1.4 memory store: a token it did not issue → -32602 naming pageToken', async () => {
  const store = new InMemoryTaskStore();
  await store.saveTask(scope, task('a', 'TASK_STATE_COMPLETED', 1));
  await assert.rejects(
    store.listTasks(scope, { pageSize: 5, pageToken: 'garbage' }),
    (e: A2AError) => e.kind === 'InvalidParams',
  );
});

test('§13.1 memory store: another owner or tenant sees nothing', async () => {
  const store = new InMemoryTaskStore();
  await store.saveTask({ tenant: '', owner: 'alice' }, task('a', 'TASK_STATE_COMPLETED', 1));
  assert.equal(await store.getTask({ tenant: '', owner: 'bob' }, 'a'), undefined);
  assert.equal(await store.getTask({ tenant: 'x', owner: 'alice' }, 'a'), undefined);
  assert.equal(
    (await store.listTasks({ tenant: '', owner: 'bob' }, { pageSize: 10 })).totalSize,
    0,
  );
});

test('plainCopy: a shallow copy with the same members in the same order, whose prototype a "__proto__" member never sets', () => {
  const src = { b: 1, a: [2], c: { d: 3 } };
  const copy = plainCopy(src);
  assert.notEqual(copy, src);
  assert.deepEqual(Object.keys(copy), ['b', 'a', 'c']);
  assert.equal(copy.a, src.a);
  const hostile = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
  const safe = plainCopy(hostile);
  assert.equal(Object.getPrototypeOf(safe), Object.prototype);
  assert.equal((safe as { polluted?: boolean }).polluted, undefined);
  assert.ok(Object.hasOwn(safe, '__proto__'));
  assert.equal(safe.x, 1);
});
