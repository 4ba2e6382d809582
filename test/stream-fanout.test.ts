/**
 * Many readers of one large task (issue 28: encode once, send to many). Subscribers on every binding
 * (JSON-RPC and HTTP+JSON SSE, gRPC) and GetTask callers on every binding get the same bytes and the
 * right events; each JSON-RPC reader gets its own id; after the task changes, nobody is answered
 * from an encoding made before the change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, credentials, Metadata, type ClientReadableStream } from '@grpc/grpc-js';
import type { AgentCard, StreamResponse, Task } from '../src/protocol/index.js';
import { GRPC_METHODS, decodeMessage, encodeMessage } from '../src/protocol/grpc/index.js';
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { BIG_PAYLOAD_BYTES, eventBody } from '../src/server/kernel/encode-cache.js';
import { taskJson } from '../src/server/tasks/json.js';
import { sharedSnapshot } from '../src/server/tasks/view.js';
import { toFetchHandler } from '../src/server/adapters/fetch.js';
import { WEB, eventOf, readFrames, webRequest } from './fetch-fixture.js';
import { BOUND_MS, cardFor, optionsFor } from './rest-fixture.js';

const AUTH = { authorization: 'Bearer good', 'a2a-version': '1.0' };
const passBytes = (b: Buffer): Buffer => b;

/** Text of `kb` KiB that differs per label (so each artifact is its own large payload). */
const bulk = (label: string, kb: number) =>
  Array.from({ length: kb * 16 }, (_, i) => `${label} line ${i} ${'x'.repeat(40)}`).join('\n');

/** Steps the test releases one by one; the agent waits at each. */
function gates(n: number) {
  const opens: Array<() => void> = [];
  const opened = Array.from({ length: n }, () => new Promise<void>((r) => opens.push(r)));
  return { wait: (i: number) => opened[i]!, open: (i: number) => opens[i]!() };
}

function startServer(agent: AgentExecutor) {
  const grpcCard = (origin: string, url: string): AgentCard => {
    const card = cardFor(origin, 'full');
    return {
      ...card,
      supportedInterfaces: [
        ...card.supportedInterfaces,
        { url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ],
    };
  };
  return createAgentServer(
    optionsFor('full', { executor: agent, card: (o, g) => grpcCard(o, g!.url), grpc: { port: 0 } }),
  );
}

/** An SSE response read as it comes: its raw text, and a promise per number of complete events. */
function sseReader(res: Response) {
  assert.equal(res.status, 200);
  let text = '';
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const count = () => text.split('\n\n').length - 1;
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (const w of waiters.splice(0)) {
        if (count() >= w.n) w.resolve();
        else waiters.push(w);
      }
    }
    for (const w of waiters.splice(0)) w.resolve();
  })();
  return {
    get text() {
      return text;
    },
    /** The data lines of the events so far. */
    data: () =>
      text
        .split('\n\n')
        .slice(0, count())
        .map((f) =>
          f
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
        ),
    events: (n: number) =>
      new Promise<void>((resolve) => (count() >= n ? resolve() : waiters.push({ n, resolve }))),
    done,
  };
}

/** A raw gRPC server stream: the message bytes as they come. */
function grpcReader(client: Client, op: 'SubscribeToTask', params: object) {
  const m = GRPC_METHODS[op];
  const md = new Metadata();
  for (const [k, v] of Object.entries(AUTH)) md.set(k, v);
  const call: ClientReadableStream<Buffer> = client.makeServerStreamRequest(
    m.path,
    passBytes,
    passBytes,
    encodeMessage(m.request, params),
    md,
    { deadline: Date.now() + BOUND_MS * 4 },
  );
  const messages: Buffer[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  call.on('data', (b: Buffer) => {
    messages.push(b);
    for (const w of waiters.splice(0)) {
      if (messages.length >= w.n) w.resolve();
      else waiters.push(w);
    }
  });
  const done = new Promise<number>((resolve) => {
    call.on('status', (s) => resolve(s.code));
    call.on('error', () => undefined);
  });
  return {
    messages,
    events: (n: number) =>
      new Promise<void>((resolve) =>
        messages.length >= n ? resolve() : waiters.push({ n, resolve }),
      ),
    done,
  };
}

function grpcGetTask(client: Client, id: string): Promise<Buffer> {
  const m = GRPC_METHODS.GetTask;
  const md = new Metadata();
  for (const [k, v] of Object.entries(AUTH)) md.set(k, v);
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      m.path,
      passBytes,
      passBytes,
      encodeMessage(m.request, { id }),
      md,
      { deadline: Date.now() + BOUND_MS },
      (err, value) => (err ? reject(err) : resolve(value!)),
    ),
  );
}

const rpc = (origin: string, id: number | string, method: string, params: object) =>
  fetch(`${origin}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(BOUND_MS * 4),
  });

const rest = (origin: string, path: string, method = 'GET') =>
  fetch(`${origin}/a2a/rest${path}`, {
    method,
    headers: AUTH,
    signal: AbortSignal.timeout(BOUND_MS * 4),
  });

/** The part of a JSON-RPC answer after its id: the same for every reader of the same result. */
function afterId(text: string, id: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"result":`;
  assert.ok(text.startsWith(head), `the answer carries its own id ${id}: ${text.slice(0, 60)}`);
  return text.slice(head.length);
}

const artifactTexts = (t: Task) =>
  (t.artifacts ?? []).map((a) => (a.parts[0] as { text: string }).text);

test('many readers of a large task on every binding: the same bytes, their own ids, nothing stale after an update', async () => {
  const gate = gates(2);
  const first = bulk('first', 64);
  const second = bulk('second', 32);
  const agent: AgentExecutor = async (_ctx, task) => {
    task.working();
    task.addArtifact({ artifactId: 'a1', name: 'first', parts: [{ text: first }] });
    await gate.wait(0);
    task.addArtifact({ artifactId: 'a2', name: 'second', parts: [{ text: second }] });
    task.working('halfway');
    await gate.wait(1);
    task.complete('done');
  };
  const server = startServer(agent);
  const origin = await server.listen(0);
  const grpc = new Client(
    server.grpc!.url.replace(/^https?:\/\//, ''),
    credentials.createInsecure(),
  );
  try {
    const started = (await (
      await rpc(origin, 0, 'SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
        configuration: { returnImmediately: true },
      })
    ).json()) as { result: { task: Task } };
    const id = started.result.task.id;
    // Wait until the first artifact is there (the agent then waits at the first gate).
    for (let i = 0; i < 200; i++) {
      const t = (await (await rest(origin, `/tasks/${id}`)).json()) as Task;
      if (t.artifacts?.length) break;
      await new Promise((r) => setTimeout(r, 10));
    }

    const N = 4;
    const rpcSubs = await Promise.all(
      Array.from({ length: N }, async (_, i) =>
        sseReader(await rpc(origin, 100 + i, 'SubscribeToTask', { id })),
      ),
    );
    const restSubs = await Promise.all(
      Array.from({ length: N }, async () =>
        sseReader(await rest(origin, `/tasks/${id}:subscribe`)),
      ),
    );
    const grpcSubs = Array.from({ length: N }, () => grpcReader(grpc, 'SubscribeToTask', { id }));
    await Promise.all([...rpcSubs, ...restSubs, ...grpcSubs].map((s) => s.events(1)));

    // Every reader opens with the same Task, byte for byte, large enough to be encoded once.
    const restOpen = restSubs.map((s) => s.data()[0]!);
    assert.ok(restOpen[0]!.length >= BIG_PAYLOAD_BYTES);
    for (const d of restOpen) assert.equal(d, restOpen[0]);
    const opening = JSON.parse(restOpen[0]!) as StreamResponse;
    assert.ok('task' in opening);
    assert.deepEqual(artifactTexts(opening.task), [first]);
    rpcSubs.forEach((s, i) => assert.equal(afterId(s.data()[0]!, 100 + i), `${restOpen[0]}}`));
    for (const s of grpcSubs) assert.deepEqual(s.messages[0], grpcSubs[0]!.messages[0]);
    assert.deepEqual(decodeMessage('StreamResponse', grpcSubs[0]!.messages[0]!), opening);

    // GetTask on every binding, several times each: the same task, each JSON-RPC answer with its id.
    const gets = async () => {
      const viaRpc = await Promise.all(
        [1, 2, 3].map(async (i) =>
          afterId(await (await rpc(origin, i, 'GetTask', { id })).text(), i),
        ),
      );
      const viaRest = await Promise.all(
        [1, 2, 3].map(async () => (await rest(origin, `/tasks/${id}`)).text()),
      );
      const viaGrpc = await Promise.all([1, 2, 3].map(() => grpcGetTask(grpc, id)));
      for (const t of viaRpc) assert.equal(t, `${viaRest[0]}}`);
      for (const t of viaRest) assert.equal(t, viaRest[0]);
      for (const b of viaGrpc) assert.deepEqual(b, viaGrpc[0]);
      const task = JSON.parse(viaRest[0]!) as Task;
      assert.deepEqual(decodeMessage('Task', viaGrpc[0]!), task);
      return task;
    };
    const before = await gets();
    assert.deepEqual(artifactTexts(before), [first]);
    assert.equal(before.status.state, 'TASK_STATE_WORKING');

    // The task changes after those cached reads: every reader sees the change.
    gate.open(0);
    await Promise.all([...rpcSubs, ...restSubs, ...grpcSubs].map((s) => s.events(3)));
    const restLater = restSubs.map((s) => s.data().slice(1, 3));
    for (const d of restLater) assert.deepEqual(d, restLater[0]);
    const [artifactEvent, statusEvent] = restLater[0]!.map((d) => JSON.parse(d) as StreamResponse);
    assert.ok(artifactEvent && 'artifactUpdate' in artifactEvent);
    assert.equal((artifactEvent.artifactUpdate.artifact.parts[0] as { text: string }).text, second);
    assert.ok(statusEvent && 'statusUpdate' in statusEvent);
    rpcSubs.forEach((s, i) =>
      assert.deepEqual(
        s
          .data()
          .slice(1, 3)
          .map((d) => afterId(d, 100 + i)),
        restLater[0]!.map((d) => `${d}}`),
      ),
    );
    for (const s of grpcSubs) {
      assert.deepEqual(s.messages.slice(1, 3), grpcSubs[0]!.messages.slice(1, 3));
      assert.deepEqual(decodeMessage('StreamResponse', s.messages[1]!), artifactEvent);
    }

    const after = await gets();
    assert.deepEqual(artifactTexts(after), [first, second], 'GetTask after the update sees it');
    assert.equal(
      after.status.message?.parts[0] && 'text' in after.status.message.parts[0]
        ? after.status.message.parts[0].text
        : '',
      'halfway',
    );
    // A subscriber that attaches now opens with the task as it is now.
    const late = sseReader(await rest(origin, `/tasks/${id}:subscribe`));
    await late.events(1);
    const lateOpen = JSON.parse(late.data()[0]!) as StreamResponse;
    assert.ok('task' in lateOpen);
    assert.deepEqual(artifactTexts(lateOpen.task), [first, second]);
    const lateGrpc = grpcReader(grpc, 'SubscribeToTask', { id });
    await lateGrpc.events(1);
    assert.deepEqual(decodeMessage('StreamResponse', lateGrpc.messages[0]!), lateOpen);

    // The task finishes: every stream ends after the final status, and GetTask says COMPLETED.
    gate.open(1);
    await Promise.all([...rpcSubs, ...restSubs, late].map((s) => s.done));
    const codes = await Promise.all([...grpcSubs, lateGrpc].map((s) => s.done));
    assert.deepEqual(new Set(codes), new Set([0]));
    for (const s of restSubs) assert.equal(s.text, restSubs[0]!.text);
    const final = await gets();
    assert.equal(final.status.state, 'TASK_STATE_COMPLETED');
    assert.deepEqual(artifactTexts(final), [first, second]);
  } finally {
    grpc.close();
    await server.close(1000);
  }
});

test('a small task keeps the ordinary path: every reader still gets its own id and the same result', async () => {
  const gate = gates(1);
  const agent: AgentExecutor = async (_ctx, task) => {
    task.working('small');
    await gate.wait(0);
    task.complete();
  };
  const server = startServer(agent);
  const origin = await server.listen(0);
  try {
    const started = (await (
      await rpc(origin, 0, 'SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
        configuration: { returnImmediately: true },
      })
    ).json()) as { result: { task: Task } };
    const id = started.result.task.id;
    const subs = await Promise.all(
      [7, 'seven', 8].map(async (rid) => ({
        rid,
        r: sseReader(await rpc(origin, rid, 'SubscribeToTask', { id })),
      })),
    );
    await Promise.all(subs.map((s) => s.r.events(1)));
    const results = subs.map(({ rid, r }) => {
      const env = JSON.parse(r.data()[0]!) as { id: unknown; result: unknown };
      assert.equal(env.id, rid);
      return env.result;
    });
    for (const r of results) assert.deepEqual(r, results[0]);
    gate.open(0);
    await Promise.all(subs.map((s) => s.r.done));
  } finally {
    await server.close(1000);
  }
});

test('a shared snapshot is the same object until the task changes; only sealed or emitted payloads keep encodings', () => {
  const big = 'y'.repeat(BIG_PAYLOAD_BYTES);
  const live: Task = {
    id: 't1',
    contextId: 'c1',
    status: { state: 'TASK_STATE_WORKING' },
    history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    artifacts: [{ artifactId: 'a1', parts: [{ text: big }] }],
  };
  const s1 = sharedSnapshot(live);
  assert.equal(sharedSnapshot(live), s1, 'unchanged: the same snapshot');
  const json1 = taskJson(s1);
  assert.equal(taskJson(sharedSnapshot(live)), json1);

  // Every kind of change a run makes gives a new snapshot, and new text.
  const changes: Array<(t: Task) => void> = [
    (t) => (t.status = { state: 'TASK_STATE_INPUT_REQUIRED' }),
    (t) => t.history!.push({ messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'more' }] }),
    (t) => (t.artifacts![0] = { artifactId: 'a1', parts: [{ text: `${big}!` }] }),
    (t) => t.artifacts!.push({ artifactId: 'a2', parts: [{ text: 'second' }] }),
    (t) => (t.metadata = { k: 'v' }),
    (t) => delete t.metadata,
  ];
  let prev = s1;
  for (const change of changes) {
    change(live);
    const s = sharedSnapshot(live);
    assert.notEqual(s, prev);
    assert.equal(taskJson(s), JSON.stringify(live), 'the text of the task as it is now');
    assert.equal(
      Buffer.from(eventBody({ task: s }) as Uint8Array).toString(),
      JSON.stringify({ task: live }),
    );
    prev = s;
  }
  // The first snapshot still shows the task as it was when it was taken.
  assert.equal(taskJson(s1), json1);

  // A large event is encoded once; a Task event of a live (unsealed) task never is.
  const update = {
    artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: live.artifacts![0]! },
  };
  const b1 = eventBody(update);
  assert.ok(b1 instanceof Uint8Array);
  assert.equal(eventBody(update), b1);
  const liveEvent = { task: live };
  const l1 = eventBody(liveEvent);
  live.status = { state: 'TASK_STATE_COMPLETED' };
  const l2 = eventBody(liveEvent);
  assert.notEqual(l1, l2);
  assert.equal(Buffer.from(l2 as Uint8Array).toString(), JSON.stringify(liveEvent));
  // A small event is text made each time, as before.
  assert.equal(
    typeof eventBody({ statusUpdate: { taskId: 't1', contextId: 'c1', status: live.status } }),
    'string',
  );
});

test('the Web path (fetch handler): a large event written as bytes reaches every reader whole, after the text before it', async () => {
  const gate = gates(1);
  const text = bulk('web', 80);
  const agent: AgentExecutor = async (_ctx, task) => {
    task.working();
    await gate.wait(0);
    task.addArtifact({ artifactId: 'w', parts: [{ text }] });
    task.complete();
  };
  const server = createAgentServer({
    executor: agent,
    card: (o) => cardFor(o, 'full'),
    sse: { keepAliveMs: 0 },
  });
  const handle = toFetchHandler(server, { origin: WEB });
  try {
    const started = await webRequest(handle, 'rest', 'SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] },
      configuration: { returnImmediately: true },
    });
    const id = ((await started.json()) as { task: Task }).task.id;
    const subs = await Promise.all(
      (['jsonrpc', 'rest', 'jsonrpc', 'rest'] as const).map(async (b) => ({
        b,
        res: await webRequest(handle, b, 'SubscribeToTask', { id }),
      })),
    );
    gate.open(0);
    const read = await Promise.all(
      subs.map(async (s) => ({ b: s.b, ...(await readFrames(s.res.body!)) })),
    );
    for (const r of read) {
      assert.ok(r.ended);
      const events = r.frames.map((f) => {
        const { data } = eventOf(f);
        return (r.b === 'jsonrpc' ? data.result : data) as StreamResponse;
      });
      assert.ok('task' in events[0]!);
      const update = events.find((e) => 'artifactUpdate' in e) as {
        artifactUpdate: { artifact: { parts: Array<{ text: string }> } };
      };
      assert.equal(update.artifactUpdate.artifact.parts[0]!.text, text);
      assert.ok('statusUpdate' in events.at(-1)!);
    }
    assert.deepEqual(read[1]!.frames, read[3]!.frames, 'HTTP+JSON readers: the same frames');
    // A large unary answer (over 64 KiB) is sent in parts: the Web host gets it whole.
    const viaRpc = (await (await webRequest(handle, 'jsonrpc', 'GetTask', { id })).json()) as {
      id: string;
      result: Task;
    };
    const viaRest = (await (await webRequest(handle, 'rest', 'GetTask', { id })).json()) as Task;
    assert.equal(viaRpc.id, 'req-1');
    assert.deepEqual(viaRpc.result, viaRest);
    assert.equal(JSON.stringify(viaRest).length > 64 * 1024, true);
    assert.deepEqual(artifactTexts(viaRest), [text]);
  } finally {
    await server.close(100);
  }
});

test('a large finished task read from a store is parsed once: readers get their own copies of the same content', async () => {
  const { InMemoryTaskStore } = await import('../src/server/store/memory.js');
  const store = new InMemoryTaskStore();
  const scope = { tenant: '', owner: '' };
  const done: Task = {
    id: 'f1',
    contextId: 'c1',
    status: { state: 'TASK_STATE_COMPLETED' },
    history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    artifacts: [{ artifactId: 'a1', parts: [{ text: 'z'.repeat(BIG_PAYLOAD_BYTES) }] }],
  };
  await store.saveTask(scope, done);
  const a = (await store.getTask(scope, 'f1'))!;
  const b = (await store.getTask(scope, 'f1'))!;
  assert.notEqual(a, b, 'each reader its own task object');
  assert.deepEqual(a, done);
  assert.deepEqual(b, done);
  // One reader changing its copy (as a run does: lists grow, members are replaced) changes no other.
  a.history!.push({ messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'more' }] });
  a.artifacts![0] = { artifactId: 'a1', parts: [{ text: 'replaced' }] };
  a.status = { state: 'TASK_STATE_FAILED' };
  assert.deepEqual(await store.getTask(scope, 'f1'), done);
  assert.equal(taskJson((await store.getTask(scope, 'f1'))!), JSON.stringify(done));
});
