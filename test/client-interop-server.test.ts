/**
 * The client against this project's own server (src/server), over both bindings: the same calls
 * must give the same answers on JSON-RPC and HTTP+JSON (§5.1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, CardCache, discoverAgentCard, isA2AError } from '../src/client/index.js';
import {
  createAgentServer,
  staticBearerTokens,
  type AgentExecutor,
  type AgentServer,
} from '../src/server/index.js';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';

/** Echoes; "wait" parks the task until `release()` (bounded by the test's own close). */
let release: () => void = () => undefined;
const executor: AgentExecutor = async (ctx, task) => {
  task.working('on it');
  if (ctx.text === 'wait') {
    await new Promise<void>((resolve) => {
      release = resolve;
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (ctx.signal.aborted) return;
  }
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

function cardFor(
  origin: string,
  caps: AgentCard['capabilities'],
  extra: Partial<AgentCard> = {},
): AgentCard {
  return {
    name: 'interop',
    description: 'echo for client interop',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: caps,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
    ...extra,
  };
}

const msg = (text: string, taskId?: string) => ({
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
    ...(taskId ? { taskId } : {}),
  },
});

async function collect(it: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

async function serve(
  caps: AgentCard['capabilities'],
  extra: Partial<AgentCard> = {},
  opts = {},
): Promise<{ server: AgentServer; origin: string }> {
  const server = createAgentServer({ executor, card: (o) => cardFor(o, caps, extra), ...opts });
  const origin = await server.listen(0);
  return { server, origin };
}

for (const binding of ['JSONRPC', 'HTTP+JSON']) {
  test(`interop ${binding}: send, stream, get, list, cancel and errors against our server`, async () => {
    const { server, origin } = await serve(
      { streaming: true, pushNotifications: true },
      {},
      { push: { policy: { allowLoopback: true } } },
    );
    try {
      const client = await A2AClient.connect(origin, { bindings: [binding], cache: false });
      assert.equal(client.interface.binding, binding);

      const sent = await client.sendMessage(msg('hello'));
      assert.ok('task' in sent);
      assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');
      assert.equal(
        sent.task.artifacts?.[0]?.parts[0] && 'text' in sent.task.artifacts[0].parts[0]
          ? sent.task.artifacts[0].parts[0].text
          : '',
        'hello',
      );

      const events = await collect(client.sendStreamingMessage(msg('streamed')));
      assert.ok('task' in events[0]!);
      const last = events.at(-1)!;
      assert.ok(
        'statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_COMPLETED',
      );

      const got = await client.getTask({ id: sent.task.id, historyLength: 0 });
      assert.equal(got.id, sent.task.id);
      const list = await client.listTasks({ pageSize: 1 });
      assert.equal(list.tasks.length, 1);
      assert.equal(typeof list.nextPageToken, 'string');

      await assert.rejects(
        client.getTask('00000000-0000-4000-8000-000000000000'),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
      );
      await assert.rejects(
        client.cancelTask(sent.task.id),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
      );
      await assert.rejects(
        collect(client.subscribeToTask(sent.task.id)),
        (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
      );

      const hook = 'http://127.0.0.1:9/hook';
      const cfg = await client.createPushNotificationConfig({
        taskId: sent.task.id,
        url: hook,
        token: 'tok',
      });
      assert.ok(cfg.id);
      const one = await client.getPushNotificationConfig({ taskId: sent.task.id, id: cfg.id });
      assert.equal(one.url, hook);
      assert.equal(
        (await client.listPushNotificationConfigs({ taskId: sent.task.id })).configs.length,
        1,
      );
      await client.deletePushNotificationConfig({ taskId: sent.task.id, id: cfg.id });
      await client.deletePushNotificationConfig({ taskId: sent.task.id, id: cfg.id });
    } finally {
      await server.close(100);
    }
  });

  test(`interop ${binding}: subscribe to a running task, resume from a Last-Event-ID, cancel`, async () => {
    const { server, origin } = await serve({ streaming: true });
    try {
      const client = await A2AClient.connect(origin, { bindings: [binding], cache: false });
      const started = await client.sendMessage({
        ...msg('wait'),
        configuration: { returnImmediately: true },
      });
      assert.ok('task' in started);
      const id = started.task.id;
      const ids: string[] = [];
      const it = client.subscribeToTask(id, { onEventId: (x) => ids.push(x) });
      const first = await it.next();
      assert.ok(!first.done && 'task' in first.value);
      release();
      const rest = await collect({ [Symbol.asyncIterator]: () => it });
      assert.ok(
        rest.some(
          (e) => 'statusUpdate' in e && e.statusUpdate.status.state === 'TASK_STATE_COMPLETED',
        ),
      );
      assert.ok(ids.length >= 2);
      // Replaying from the first id gives the events after it, even now the task is done.
      // (The server may add a final Task snapshot, §11.7, so only the update events are compared.)
      const updates = (evs: StreamResponse[]) => evs.filter((e) => !('task' in e));
      const replay = await collect(client.subscribeToTask(id, { lastEventId: ids[0] }));
      assert.deepEqual(updates(replay), updates(rest));

      const parked = await client.sendMessage({
        ...msg('wait'),
        configuration: { returnImmediately: true },
      });
      assert.ok('task' in parked);
      const canceled = await client.cancelTask(parked.task.id);
      assert.equal(canceled.status.state, 'TASK_STATE_CANCELED');
    } finally {
      release();
      await server.close(100);
    }
  });

  test(`interop ${binding}: §3.3.4 capability errors locally and from the server agree`, async () => {
    const { server, origin } = await serve({});
    try {
      const client = await A2AClient.connect(origin, { bindings: [binding], cache: false });
      await assert.rejects(
        client.listPushNotificationConfigs({ taskId: 'x' }),
        (e: unknown) => isA2AError(e) && e.kind === 'PushNotificationNotSupported',
      );
      // The same call made against the server's own check: a card that claims push gets the server's -32003.
      const liar = new A2AClient(
        { ...client.card, capabilities: { pushNotifications: true } },
        { bindings: [binding] },
      );
      await assert.rejects(
        liar.listPushNotificationConfigs({ taskId: 'x' }),
        (e: unknown) => isA2AError(e) && e.kind === 'PushNotificationNotSupported',
      );
    } finally {
      await server.close(100);
    }
  });

  test(`interop ${binding}: bearer credentials from the card's scheme, refreshed after a 401`, async () => {
    const security = {
      securitySchemes: { token: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { token: { list: [] } } }],
    };
    const { server, origin } = await serve({ streaming: true }, security, {
      auth: { verifiers: { token: staticBearerTokens({ good: 'planner' }) } },
    });
    try {
      let refreshed = 0;
      const client = await A2AClient.connect(origin, {
        bindings: [binding],
        cache: false,
        credentials: { token: 'expired' },
        onUnauthorized: () => (refreshed++, { token: 'good' }),
      });
      const res = await client.sendMessage(msg('secured'));
      assert.ok('task' in res);
      assert.equal(refreshed, 1);
      const none = new A2AClient(client.card, { bindings: [binding] });
      await assert.rejects(
        none.getTask('x'),
        (e: unknown) => isA2AError(e) && e.kind === 'Unauthenticated',
      );
    } finally {
      await server.close(100);
    }
  });
}

test('interop: the card endpoint answers the cache’s revalidation with 304', async () => {
  const { server, origin } = await serve({});
  try {
    let t = 0;
    const cache = new CardCache({ now: () => t });
    assert.equal((await discoverAgentCard(origin, { cache })).from, 'network');
    assert.equal((await discoverAgentCard(origin, { cache })).from, 'cache');
    t += 24 * 3600 * 1000;
    assert.equal((await discoverAgentCard(origin, { cache })).from, 'revalidated');
  } finally {
    await server.close(100);
  }
});
