/** SendStreamingMessage and SubscribeToTask over JSON-RPC + SSE on real HTTP (§3.1.2, §3.1.6, §3.5.2, §9.4.2). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import {
  msg,
  openStream,
  rpc,
  sendTask,
  start,
  stateOf,
  UNKNOWN_TASK,
  V,
  waitForTask,
  type SseEvent,
  type Started,
} from './core-fixture.js';

let s: Started;
before(async () => {
  s = await start();
});
after(() => s.close());

const TERMINAL = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];
const kindOf = (e: SseEvent) => Object.keys(e.data.result)[0];

/** Checks every stream invariant we rely on and returns the event kinds. */
function checkStream(events: SseEvent[], requestId: unknown): string[] {
  assert.ok(events.length > 0, 'at least one event');
  const ids = events.map((e) => e.id);
  for (const e of events) {
    assert.equal(e.data.jsonrpc, '2.0');
    assert.deepEqual(
      e.data.id,
      requestId,
      'every event is a JSON-RPC response with the request id',
    );
    assert.equal(Object.keys(e.data.result).length, 1, 'a StreamResponse has exactly one member');
    assert.ok(e.id !== undefined && /^\d+$/.test(e.id), `every event has an id: (${e.id})`);
  }
  for (let i = 1; i < ids.length; i++)
    assert.ok(Number(ids[i]) >= Number(ids[i - 1]), `ids never go back: ${ids.join(',')}`);
  const first = kindOf(events[0]!);
  assert.ok(
    first === 'task' || first === 'message',
    `first event is a Task or a Message, got ${first}`,
  );
  // Once a terminal state was announced nothing else follows.
  const t = events.findIndex((e) => TERMINAL.includes(stateOf(e) ?? ''));
  if (t >= 0) assert.equal(t, events.length - 1, 'nothing after the terminal state');
  return events.map(kindOf) as string[];
}

test('§3.1.2 SendStreamingMessage: Task first, then updates in order, closed at the terminal state', async () => {
  const st = await openStream(
    s.url,
    'SendStreamingMessage',
    { message: msg('chunks') },
    V,
    'req-9',
  );
  assert.equal(st.response.status, 200);
  assert.match(st.response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events = await st.rest();
  assert.ok(st.cleanEnd, 'the server closed the stream');
  const kinds = checkStream(events, 'req-9');
  assert.deepEqual(kinds, [
    'task',
    'statusUpdate',
    'artifactUpdate',
    'artifactUpdate',
    'artifactUpdate',
    'artifactUpdate',
    'statusUpdate',
  ]);
  const task = events[0]!.data.result.task as Task;
  for (const e of events.slice(1)) {
    const u = e.data.result.statusUpdate ?? e.data.result.artifactUpdate;
    assert.equal(u.taskId, task.id);
    assert.equal(u.contextId, task.contextId);
  }
  const chunks = events
    .filter((e) => kindOf(e) === 'artifactUpdate')
    .map((e) => e.data.result.artifactUpdate);
  assert.deepEqual(
    chunks.map((c) => [c.artifact.artifactId, c.append === true, c.lastChunk === true]),
    [
      ['doc', false, false],
      ['doc', true, false],
      ['doc', true, true],
      ['other', false, true],
    ],
  );
  assert.deepEqual(
    chunks[1].artifact.parts,
    [{ text: 'b' }],
    'an append event carries only the new chunk',
  );
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
});

test('§3.1.2 message-only stream: exactly one Message, then the stream closes', async () => {
  const st = await openStream(s.url, 'SendStreamingMessage', { message: msg('reply hi') }, V, 3);
  const events = await st.rest();
  assert.ok(st.cleanEnd);
  assert.deepEqual(checkStream(events, 3), ['message']);
  assert.equal(events[0]!.data.result.message.parts[0].text, 'you said hi');
});

test('§3.1.2 the stream closes at input-required too', async () => {
  const st = await openStream(s.url, 'SendStreamingMessage', { message: msg('ask') });
  const events = await st.rest();
  assert.ok(st.cleanEnd);
  checkStream(events, 7);
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_INPUT_REQUIRED');
});

test('§3.1.2 a streamed follow-up to an input-required task: Task first, states in order, closed at the end', async () => {
  const asked = await sendTask(s.url, 'ask');
  const st = await openStream(s.url, 'SendStreamingMessage', {
    message: msg('green', { taskId: asked.id }),
  });
  const events = await st.rest();
  assert.ok(st.cleanEnd);
  const kinds = checkStream(events, 7);
  assert.equal(kinds[0], 'task');
  const first = events[0]!.data.result.task as Task;
  assert.equal(first.id, asked.id);
  assert.ok(
    !TERMINAL.includes(first.status.state),
    `the first Task must not already be terminal (${first.status.state}) when updates follow`,
  );
  assert.deepEqual(events.slice(1).map(stateOf).filter(Boolean), [
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
  ]);
});

test('§3.3.2 streaming: an executor that throws after creating the task → FAILED event, no error text', async () => {
  const st = await openStream(s.url, 'SendStreamingMessage', { message: msg('throw') });
  const events = await st.rest();
  checkStream(events, 7);
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_FAILED');
  assert.doesNotMatch(JSON.stringify(events), /secret|passwd/);
});

test('§3.3.2 streaming: an executor that throws before any task → a plain JSON-RPC -32603 answer', async () => {
  const r = await rpc(s.url, 'SendStreamingMessage', { message: msg('throw-early') });
  assert.equal(r.status, 200);
  assert.equal(r.body.error.code, -32603);
  assert.doesNotMatch(JSON.stringify(r.body), /secret|passwd/);
});

test('§3.1.2 streaming errors before the first event are plain JSON-RPC errors (unknown task → -32001, terminal → -32004)', async () => {
  const unknown = await rpc(s.url, 'SendStreamingMessage', {
    message: msg('x', { taskId: UNKNOWN_TASK }),
  });
  assert.equal(unknown.body.error.code, -32001);
  const done = await sendTask(s.url, 'echo');
  const terminal = await rpc(s.url, 'SendStreamingMessage', {
    message: msg('x', { taskId: done.id }),
  });
  assert.equal(terminal.body.error.code, -32004);
});

test('§3.1.6 SubscribeToTask: first event is the current Task, then every update, closed at terminal', async () => {
  const t = await sendTask(s.url, 'gate sub1', { configuration: { returnImmediately: true } });
  await waitForTask(s.url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');
  const st = await openStream(s.url, 'SubscribeToTask', { id: t.id }, V, 'sub');
  const first = await st.next();
  assert.equal(kindOf(first!), 'task');
  assert.equal(first!.data.result.task.id, t.id);
  assert.equal(first!.data.result.task.status.state, 'TASK_STATE_WORKING');
  s.probe.gate('sub1').open();
  const events = [first!, ...(await st.rest())];
  assert.ok(st.cleanEnd);
  assert.deepEqual(checkStream(events, 'sub'), ['task', 'artifactUpdate', 'statusUpdate']);
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
});

test('§3.5.2 two concurrent subscribers get every event in the same order; closing one does not affect the other', async () => {
  const t = await sendTask(s.url, 'gate sub2', { configuration: { returnImmediately: true } });
  await waitForTask(s.url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');
  const a = await openStream(s.url, 'SubscribeToTask', { id: t.id }, V, 'a');
  const b = await openStream(s.url, 'SubscribeToTask', { id: t.id }, V, 'b');
  const c = await openStream(s.url, 'SubscribeToTask', { id: t.id }, V, 'c');
  const firsts = await Promise.all([a.next(), b.next(), c.next()]);
  for (const f of firsts) assert.equal(kindOf(f!), 'task');
  await c.cancel(); // one subscriber leaves
  s.probe.gate('sub2').open();
  const [ea, eb] = await Promise.all([a.rest(), b.rest()]);
  assert.ok(a.cleanEnd && b.cleanEnd);
  const strip = (es: SseEvent[]) => es.map((e) => ({ id: e.id, result: e.data.result }));
  assert.deepEqual(strip(ea), strip(eb));
  assert.deepEqual(ea.map(kindOf), ['artifactUpdate', 'statusUpdate']);
});

test('§3.1.6 SubscribeToTask of a terminal task → -32004; of an unknown task → -32001', async () => {
  const t = await sendTask(s.url, 'echo');
  const r = await rpc(s.url, 'SubscribeToTask', { id: t.id });
  assert.equal(r.status, 200);
  assert.equal(r.body.error.code, -32004);
  assert.equal((await rpc(s.url, 'SubscribeToTask', { id: UNKNOWN_TASK })).body.error.code, -32001);
});

test("§3.1.6 SubscribeToTask on an input-required task: the Task, then the follow-up's updates", async () => {
  const t = await sendTask(s.url, 'ask');
  const st = await openStream(s.url, 'SubscribeToTask', { id: t.id });
  const first = await st.next();
  assert.equal(first!.data.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
  await sendTask(s.url, 'purple', {}, { taskId: t.id });
  const events = [first!, ...(await st.rest())];
  checkStream(events, 7);
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
});

test('SSE resume: SubscribeToTask with Last-Event-ID replays the events missed while disconnected', async () => {
  const t = await sendTask(s.url, 'gate res', { configuration: { returnImmediately: true } });
  await waitForTask(s.url, t.id, (x) => x.status.state === 'TASK_STATE_WORKING');
  const st = await openStream(s.url, 'SubscribeToTask', { id: t.id });
  const first = (await st.next())!;
  await st.cancel(); // disconnect, then the task moves on
  s.probe.gate('res').open();
  await waitForTask(s.url, t.id, (x) => x.status.state === 'TASK_STATE_COMPLETED');
  const again = await openStream(
    s.url,
    'SubscribeToTask',
    { id: t.id },
    { ...V, 'Last-Event-ID': first.id! },
  );
  assert.equal(again.response.status, 200, 'resuming a task that finished meanwhile still works');
  const events = await again.rest();
  assert.deepEqual(
    events.map(kindOf),
    ['artifactUpdate', 'statusUpdate'],
    'the continuation of the earlier stream, in order',
  );
  assert.ok(
    events.every((e) => Number(e.id) > Number(first.id)),
    'only what was missed',
  );
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
});

test('§3.1.5 canceling a streamed task ends the stream with CANCELED', async () => {
  const st = await openStream(s.url, 'SendStreamingMessage', { message: msg('hang') });
  const first = (await st.next())!;
  const id = first.data.result.task.id as string;
  await rpc(s.url, 'CancelTask', { id });
  const events = [first, ...(await st.rest())];
  checkStream(events, 7);
  assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_CANCELED');
  assert.ok(
    !events.some((e) => e.data.result.artifactUpdate),
    'nothing from the agent after the cancel',
  );
});

test('SSE resume: a Last-Event-ID the server cannot resume from → a fresh subscription starting with the current Task', async () => {
  const t = await sendTask(s.url, 'ask');
  const st = await openStream(
    s.url,
    'SubscribeToTask',
    { id: t.id },
    { ...V, 'Last-Event-ID': '999' },
  );
  const first = await st.next();
  assert.equal(kindOf(first!), 'task');
  assert.equal(first!.data.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
  await st.cancel();
});

test('SSE ids of a task never repeat across runs and restarts (a resume after a restart gets the Task, not silence)', async () => {
  const { InMemoryTaskStore } = await import('../src/server/index.js');
  const store = new InMemoryTaskStore();
  const one = await start({ streaming: true }, { store });
  const t = await sendTask(one.url, 'ask');
  const a = await openStream(one.url, 'SubscribeToTask', { id: t.id });
  const seen = (await a.next())!;
  await a.cancel();
  await one.close();
  const two = await start({ streaming: true }, { store });
  try {
    const b = await openStream(
      two.url,
      'SubscribeToTask',
      { id: t.id },
      { ...V, 'Last-Event-ID': seen.id! },
    );
    const first = (await b.next())!;
    assert.equal(
      kindOf(first),
      'task',
      'the new process cannot replay: it starts over with the Task',
    );
    assert.notEqual(first.id, seen.id);
    const follow = await openStream(two.url, 'SendStreamingMessage', {
      message: msg('teal', { taskId: t.id }),
    });
    const events = await follow.rest();
    const ids = events.map((e) => Number(e.id));
    assert.ok(
      ids.every((id) => id > Number(seen.id)),
      `ids keep growing: ${seen.id} then ${ids.join(',')}`,
    );
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no id twice in a stream');
    await b.rest();
  } finally {
    await two.close();
  }
});

test('§4.2.2 each artifact event keeps the chunk it was sent with, even if the agent reuses its object', async () => {
  const { createAgentServer } = await import('../src/server/index.js');
  const { card } = await import('./core-fixture.js');
  const server = createAgentServer({
    card: (o) => card(o),
    executor: (_ctx, task) => {
      const chunk = { artifactId: 'reused', parts: [{ text: 'one' }] };
      task.addArtifact(chunk);
      chunk.parts = [{ text: 'two' }];
      task.addArtifact(chunk, { append: true, lastChunk: true });
      task.complete();
    },
  });
  const origin = await server.listen(0);
  try {
    const st = await openStream(`${origin}/rpc`, 'SendStreamingMessage', { message: msg('go') });
    const parts = (await st.rest())
      .filter((e) => kindOf(e) === 'artifactUpdate')
      .map((e) => e.data.result.artifactUpdate.artifact.parts[0].text);
    assert.deepEqual(parts, ['one', 'two']);
    const id = (await rpc(`${origin}/rpc`, 'ListTasks', {})).body.result.tasks[0].id;
    const t = (await rpc(`${origin}/rpc`, 'GetTask', { id })).body.result as Task;
    assert.deepEqual(t.artifacts![0]!.parts, [{ text: 'one' }, { text: 'two' }]);
  } finally {
    await server.close(1000);
  }
});
