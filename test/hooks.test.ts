/**
 * Operation hooks (src/server/dispatch/hooks.ts): the one seam for cross-cutting concerns. Real servers
 * on 127.0.0.1:0 serving both bindings, our client on the other end; the hooks are plain objects of
 * the test, installed through `createAgentServer({ hooks })` exactly as an application would.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, userMessage } from '../src/client/index.js';
import {
  A2AError,
  createAgentServer,
  silentLogger,
  type A2AErrorKind,
  type AgentCard,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
  type CompletedCall,
  type Logger,
  type OperationCall,
  type OperationHooks,
  type StreamResponse,
} from '../src/server/index.js';
import { OPERATIONS_BY_NAME } from '../src/protocol/index.js';
import { OperationDispatcher } from '../src/server/dispatch/dispatcher.js';
import { callContext } from '../src/server/dispatch/call-context.js';
import { HookRunner } from '../src/server/dispatch/hooks.js';

const BOUND_MS = 10_000;
const BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;

/** Resolves when the test opens it (bounded, so a bug fails the test instead of hanging it). */
class Gate {
  open!: () => void;
  readonly opened = new Promise<void>((resolve) => {
    this.open = resolve;
    setTimeout(resolve, BOUND_MS).unref();
  });
}
const gates = new Map<string, Gate>();
const gate = (name: string): Gate =>
  gates.get(name) ?? (gates.set(name, new Gate()), gates.get(name)!);

let executed = 0;
/** `gate <name>`: working, waits for the test, then completes; anything else: echo. */
const executor: AgentExecutor = async (ctx, task) => {
  executed++;
  const [cmd, arg = ''] = ctx.text.split(/\s+/, 2);
  task.working('on it');
  if (cmd === 'gate') await gate(arg).opened;
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

const card = (origin: string): AgentCard => ({
  name: 'hooks-test',
  description: 'an agent with operation hooks',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${origin}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'] }],
});

async function serve(
  hooks: OperationHooks | OperationHooks[],
  extra: Partial<AgentServerOptions> = {},
) {
  // Hooks fail on purpose in some tests: their stderr lines would be noise here.
  const server: AgentServer = createAgentServer({
    executor,
    card,
    hooks,
    logger: silentLogger,
    ...extra,
  });
  const origin = await server.listen(0);
  const client = (binding: (typeof BINDINGS)[number]) =>
    A2AClient.connect(origin, { bindings: [binding], retry: false });
  return { server, origin, client };
}

async function drain(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const e of stream) {
    events.push(e);
    if (events.length > 100) throw new Error('runaway stream');
  }
  return events;
}

async function kindOf(p: Promise<unknown>): Promise<A2AErrorKind> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof A2AError, `expected an A2AError, got ${String(e)}`);
    return e.kind;
  }
  assert.fail('expected the call to fail');
}

describe('operation hooks over real HTTP, both bindings', () => {
  const started: OperationCall[] = [];
  const completed = new Map<string, number>(); // `${binding} ${operation}` → count
  const failed: Array<[string, A2AErrorKind]> = [];
  const streamed: Array<[string, number]> = [];
  const seenIds: string[] = [];
  let refuseSends = false;
  let s: Awaited<ReturnType<typeof serve>>;

  const metrics: OperationHooks = {
    before(call) {
      started.push(call);
    },
    after(call) {
      const key = `${call.context.binding} ${call.operation}`;
      completed.set(key, (completed.get(key) ?? 0) + 1);
      // Typed per operation: narrowing on the name narrows params and result.
      if (call.operation === 'GetTask') seenIds.push(call.params.id, call.result.id);
      if (call.operation === 'SendStreamingMessage' || call.operation === 'SubscribeToTask') {
        streamed.push([`${call.context.binding} ${call.operation}`, call.result.events]);
      }
    },
    error(call, error) {
      failed.push([`${call.context.binding} ${call.operation}`, error.kind]);
    },
  };
  // A second hook set, asynchronous: refuses SendMessage on demand, as a rate limiter would.
  const limiter: OperationHooks = {
    async before(call) {
      await Promise.resolve();
      if (refuseSends && call.operation === 'SendMessage')
        throw new A2AError('PermissionDenied', 'Too many requests');
    },
  };

  before(async () => {
    s = await serve([metrics, limiter]);
  });
  after(async () => {
    for (const g of gates.values()) g.open();
    await s.server.close(1000);
  });

  test('counts operations by kind, per binding, with typed params and results', async () => {
    for (const binding of BINDINGS) {
      const client = await s.client(binding);
      const first = await client.sendMessage({ message: userMessage('one') });
      await client.sendMessage({ message: userMessage('two') });
      assert.ok('task' in first);
      const got = await client.getTask(first.task.id);
      assert.equal(got.status.state, 'TASK_STATE_COMPLETED');
      await client.listTasks({ pageSize: 5 });
    }
    for (const binding of BINDINGS) {
      assert.equal(completed.get(`${binding} SendMessage`), 2, binding);
      assert.equal(completed.get(`${binding} GetTask`), 1, binding);
      assert.equal(completed.get(`${binding} ListTasks`), 1, binding);
    }
    assert.equal(seenIds.length, 4);
    assert.equal(seenIds[0], seenIds[1], 'GetTask: params.id and result.id');
    assert.equal(started.length, 8, 'before ran once per call');
    assert.ok(started.every((c) => c.tenant === ''));
    assert.deepEqual(failed, []);
  });

  test('a before hook refuses with an A2AError: the client sees that kind, the agent never runs, error hooks see it', async () => {
    refuseSends = true;
    try {
      for (const binding of BINDINGS) {
        const client = await s.client(binding);
        const before = executed;
        assert.equal(
          await kindOf(client.sendMessage({ message: userMessage('refused') })),
          'PermissionDenied',
          binding,
        );
        assert.equal(executed, before, `${binding}: the agent must not run`);
      }
    } finally {
      refuseSends = false;
    }
    assert.deepEqual(failed.splice(0), [
      ['JSONRPC SendMessage', 'PermissionDenied'],
      ['HTTP+JSON SendMessage', 'PermissionDenied'],
    ]);
  });

  test('error hooks see the kind of a failed operation (TaskNotFound)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const binding of BINDINGS) {
      const client = await s.client(binding);
      assert.equal(await kindOf(client.getTask(unknown)), 'TaskNotFound');
      assert.equal(await kindOf(client.cancelTask(unknown)), 'TaskNotFound');
    }
    assert.deepEqual(failed.splice(0), [
      ['JSONRPC GetTask', 'TaskNotFound'],
      ['JSONRPC CancelTask', 'TaskNotFound'],
      ['HTTP+JSON GetTask', 'TaskNotFound'],
      ['HTTP+JSON CancelTask', 'TaskNotFound'],
    ]);
  });

  test('stream hooks: before at open, after at the end with the number of events the client received', async () => {
    streamed.length = 0;
    const expected: Array<[string, number]> = [];
    for (const binding of BINDINGS) {
      const client = await s.client(binding);
      const events = await drain(
        client.sendStreamingMessage({ message: userMessage('stream me') }),
      );
      assert.ok(events.length >= 3, `${binding}: task, updates, final status (${events.length})`);
      expected.push([`${binding} SendStreamingMessage`, events.length]);

      // SubscribeToTask to a task that is still running, then let it finish.
      const name = `sub-${binding}`;
      const sent = await client.sendMessage({
        message: userMessage(`gate ${name}`),
        configuration: { returnImmediately: true },
      });
      assert.ok('task' in sent);
      const subscription = client.subscribeToTask(sent.task.id);
      const firstEvent = await subscription.next();
      assert.ok(
        !firstEvent.done && 'task' in firstEvent.value,
        'a subscription starts with the task',
      );
      gate(name).open();
      const rest = await drain(subscription);
      expected.push([`${binding} SubscribeToTask`, 1 + rest.length]);
    }
    assert.deepEqual(streamed, expected);
    assert.deepEqual(failed, []);
  });

  test('a before hook refuses a stream before it opens; the client sees the kind', async () => {
    const refusing = await serve({
      before(call) {
        if (call.operation === 'SendStreamingMessage')
          throw new A2AError('UnsupportedOperation', 'no streams today');
      },
    });
    try {
      for (const binding of BINDINGS) {
        const client = await refusing.client(binding);
        const ran = executed;
        assert.equal(
          await kindOf(drain(client.sendStreamingMessage({ message: userMessage('x') }))),
          'UnsupportedOperation',
          binding,
        );
        assert.equal(executed, ran);
      }
    } finally {
      await refusing.server.close(1000);
    }
  });
});

describe('hook failures and ordering', () => {
  test('a non-A2AError from a before hook reaches the client and the error hooks as Internal', async () => {
    const kinds: A2AErrorKind[] = [];
    const s = await serve({
      before() {
        throw new Error('limiter backend down');
      },
      error: (_call, error) => void kinds.push(error.kind),
    });
    try {
      const client = await s.client('JSONRPC');
      assert.equal(await kindOf(client.sendMessage({ message: userMessage('x') })), 'Internal');
      assert.deepEqual(kinds, ['Internal']);
    } finally {
      await s.server.close(1000);
    }
  });

  test('what after and error hooks throw is logged and does not change the answer', async () => {
    const logged: string[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn() {},
      error: (_o, msg) => void logged.push(msg ?? ''),
    };
    const s = await serve(
      [
        {
          after() {
            throw new Error('metrics backend down');
          },
          error: () => Promise.reject(new Error('log shipper down')),
        },
      ],
      { logger },
    );
    try {
      const client = await s.client('HTTP+JSON');
      const r = await client.sendMessage({ message: userMessage('still fine') });
      assert.ok('task' in r && r.task.status.state === 'TASK_STATE_COMPLETED');
      assert.equal(
        await kindOf(client.getTask('00000000-0000-4000-8000-000000000000')),
        'TaskNotFound',
      );
      await new Promise((resolve) => setImmediate(resolve)); // the rejected error hook is logged a turn later
      assert.deepEqual(logged, [
        'an operation after hook failed',
        'an operation error hook failed',
      ]);
    } finally {
      await s.server.close(1000);
    }
  });

  test('before hooks run in the order given, after hooks in reverse; one call object is shared', async () => {
    const order: string[] = [];
    const objects = new Set<OperationCall | CompletedCall>();
    const set = (name: string): OperationHooks => ({
      before: (call) => void (order.push(`before ${name}`), objects.add(call)),
      after: (call) => void (order.push(`after ${name}`), objects.add(call)),
    });
    const d = new OperationDispatcher({
      card: card('http://127.0.0.1:1'),
      executor,
      hooks: [set('a'), set('b')],
    });
    const result = await d.call(
      OPERATIONS_BY_NAME.SendMessage,
      { message: userMessage('x') },
      callContext({ version: '1.0' }),
    );
    assert.ok('task' in result);
    assert.deepEqual(order, ['before a', 'before b', 'after b', 'after a']);
    assert.equal(objects.size, 1);
  });

  test('no hooks, or hook sets without any hook, install nothing (the dispatcher skips the seam)', () => {
    assert.equal(HookRunner.of(undefined, silentLogger), undefined);
    assert.equal(HookRunner.of([], silentLogger), undefined);
    assert.equal(HookRunner.of([{}, {}], silentLogger), undefined);
    assert.ok(HookRunner.of({ error() {} }, silentLogger));
  });
});
