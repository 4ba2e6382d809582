/**
 * A2A 0.3 interop with the last 0.3 release of the reference JavaScript SDK (@a2a-js/sdk 0.3.14,
 * installed as `a2a-sdk-03`, tests only), both ways and over both bindings, every operation 0.3 has:
 * our client (`versions: ['1.0', '0.3']`) against its agent, and its client against our agent with
 * `compat: { v03: true }`. Streams, resubscribe, cancel, push configs and push deliveries included.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
} from 'a2a-sdk-03/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from 'a2a-sdk-03/server/express';
import {
  ClientFactory,
  ClientFactoryOptions,
  TaskNotCancelableError,
  TaskNotFoundError,
} from 'a2a-sdk-03/client';
import { A2AClient, isA2AClientError, isA2AError } from '../src/client/index.js';
import { createPushReceiver } from '../src/client/push-receiver.js';
import type { StreamResponse, Task } from '../src/protocol/index.js';
import { closeAll, startWebhook, track } from './push-fixture.js';
import { BOUND_MS, collect, msg03, msg10, startCompatAgent } from './compat-fixture.js';

afterEach(closeAll);

/** The SDK 0.3 agent: echoes text (and a file part); "wait" runs until canceled. */
function sdkExecutor(): AgentExecutor {
  const waiting = new Map<string, { contextId: string; done: () => void }>();
  return {
    async execute(ctx, bus: ExecutionEventBus) {
      const text = ctx.userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
      if (!ctx.task)
        bus.publish({
          kind: 'task',
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: 'submitted' },
          history: [ctx.userMessage],
        });
      bus.publish({ kind: 'status-update', ...ids, status: { state: 'working' }, final: false });
      if (text === 'wait') {
        await new Promise<void>((done) =>
          waiting.set(ctx.taskId, { contextId: ctx.contextId, done }),
        );
        return;
      }
      bus.publish({
        kind: 'artifact-update',
        ...ids,
        artifact: {
          artifactId: 'a1',
          name: 'echo',
          parts: [
            { kind: 'text', text },
            {
              kind: 'file',
              file: { uri: 'https://example.com/y.txt', mimeType: 'text/plain', name: 'y.txt' },
            },
          ],
        },
      });
      bus.publish({
        kind: 'status-update',
        ...ids,
        status: { state: 'completed', timestamp: new Date().toISOString() },
        final: true,
      });
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      const w = waiting.get(taskId);
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId: w?.contextId ?? '',
        status: { state: 'canceled' },
        final: true,
      });
      bus.finished();
      w?.done();
    },
  };
}

async function startSdk03Agent(): Promise<{ origin: string; close(): Promise<void> }> {
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = {
    protocolVersion: '0.3.0',
    name: 'sdk03-echo',
    description: 'the 0.3 reference SDK',
    url: `${origin}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, transport: 'JSONRPC' },
      { url: `${origin}/a2a/rest`, transport: 'HTTP+JSON' },
    ],
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), sdkExecutor());
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use(
    '/a2a/rest',
    restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return track({
    origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** A push receiver (our client side) on 127.0.0.1:0 that keeps what it accepts. */
async function startReceiver(token: string): Promise<{
  url: string;
  events: StreamResponse[];
  waitFor(n: number, pred?: (e: StreamResponse) => boolean): Promise<void>;
  close(): Promise<void>;
}> {
  const events: StreamResponse[] = [];
  const receiver = createPushReceiver({ token, onEvent: (e) => void events.push(e) });
  const server = createServer(receiver.listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return track({
    url,
    events,
    async waitFor(n: number, pred: (e: StreamResponse) => boolean = () => true) {
      const deadline = Date.now() + BOUND_MS;
      while (events.filter(pred).length < n && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        events.filter(pred).length >= n,
        `expected ${n} push notifications, got ${JSON.stringify(events)}`,
      );
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

const stateOf = (e: StreamResponse): string | undefined =>
  'task' in e ? e.task.status.state : 'statusUpdate' in e ? e.statusUpdate.status.state : undefined;

describe('a2a-kit client → @a2a-js/sdk 0.3.14 agent', () => {
  test('§3.6.3 a 1.0-only client never falls back: the error says the agent speaks only 0.3 and how to allow it', async () => {
    const agent = await startSdk03Agent();
    await assert.rejects(A2AClient.connect(agent.origin, { cache: false }), (e: unknown) => {
      assert.ok(isA2AClientError(e) && e.code === 'NO_COMPATIBLE_INTERFACE', String(e));
      assert.match(e.message, /JSONRPC 0\.3/);
      assert.match(e.message, /speaks A2A 0\.3 only/);
      assert.match(e.message, /versions: \['1\.0', '0\.3'\]/);
      return true;
    });
  });

  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(
      `over ${binding} 0.3: card, send, stream, get, cancel, resubscribe, push configs and deliveries, errors — all 1.0-shaped`,
      { timeout: 120_000 },
      async () => {
        const agent = await startSdk03Agent();
        const client = await A2AClient.connect(agent.origin, {
          cache: false,
          bindings: [binding],
          versions: ['1.0', '0.3'],
        });
        assert.equal(client.interface.protocolVersion, '0.3');
        assert.equal(client.interface.binding, binding);
        assert.equal(client.card.capabilities.streaming, true);

        const sent = await client.sendMessage({ message: msg10('hello 0.3') });
        assert.ok('task' in sent, JSON.stringify(sent));
        assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');
        // The 0.3 proto (HTTP+JSON) has no file name: the SDK's REST server drops it.
        const file = {
          url: 'https://example.com/y.txt',
          mediaType: 'text/plain',
          ...(binding === 'JSONRPC' ? { filename: 'y.txt' } : {}),
        };
        assert.deepEqual(sent.task.artifacts?.[0]?.parts, [{ text: 'hello 0.3' }, file]);

        const events = await collect(client.sendStreamingMessage({ message: msg10('stream 0.3') }));
        assert.ok('task' in events[0]!, JSON.stringify(events[0]));
        assert.ok(events.some((e) => 'artifactUpdate' in e));
        assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');

        const got = await client.getTask({ id: sent.task.id, historyLength: 5 });
        assert.equal(got.id, sent.task.id);
        assert.equal(got.status.state, 'TASK_STATE_COMPLETED');

        await assert.rejects(
          client.getTask('00000000-0000-4000-8000-000000000000'),
          (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
        );
        await assert.rejects(
          client.cancelTask(sent.task.id),
          (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
        );
        await assert.rejects(
          client.listTasks(),
          (e: unknown) =>
            isA2AError(e) &&
            e.kind === 'UnsupportedOperation' &&
            /not part of A2A 0\.3/.test(e.message),
        );

        // A long task with a webhook given with the message; resubscribe, then cancel.
        const receiver = await startReceiver('tok-03');
        const started = await client.sendMessage({
          message: msg10('wait'),
          configuration: {
            returnImmediately: true,
            taskPushNotificationConfig: { url: receiver.url, token: 'tok-03' },
          },
        });
        assert.ok('task' in started);
        const id = started.task.id;
        let canceled: Task | undefined;
        const resubscribed = await collect(client.subscribeToTask(id), async (_e, i) => {
          if (i === 0) canceled = await client.cancelTask(id);
        });
        assert.ok('task' in resubscribed[0]!, JSON.stringify(resubscribed[0]));
        assert.equal(canceled?.status.state, 'TASK_STATE_CANCELED');
        assert.equal(
          stateOf(resubscribed.at(-1)!),
          'TASK_STATE_CANCELED',
          JSON.stringify(resubscribed),
        );
        // The SDK posts the whole 0.3 task after each event; the receiver hands it on as a 1.0 StreamResponse.
        await receiver.waitFor(1, (e) => stateOf(e) === 'TASK_STATE_CANCELED');
        assert.ok(receiver.events.every((e) => 'task' in e && e.task.id === id));

        // Push configs: the one given with the message is named after its task (0.3's convention).
        const inline = await client.getPushNotificationConfig({ taskId: id, id });
        assert.equal(inline.url, receiver.url);
        assert.equal(inline.token, 'tok-03');
        if (binding === 'JSONRPC') {
          const made = await client.createPushNotificationConfig({
            taskId: id,
            id: 'c2',
            url: receiver.url,
            token: 't2',
            authentication: { scheme: 'Bearer', credentials: 'abc' },
          });
          assert.equal(made.id, 'c2');
          assert.deepEqual(made.authentication, { scheme: 'Bearer', credentials: 'abc' });
        } else {
          // Deviation of SDK 0.3.14's REST server: it reads the body as CreateTaskPushNotificationConfigRequest
          // ({config: …}), not as the proto's `body: "config"` ({name, pushNotificationConfig}) that 0.3 clients send.
          await assert.rejects(
            client.createPushNotificationConfig({ taskId: id, id: 'c2', url: receiver.url }),
            (e: unknown) => isA2AError(e) && e.kind === 'InvalidParams',
          );
        }
        const listed = await client.listPushNotificationConfigs({ taskId: id });
        assert.deepEqual(
          listed.configs.map((c) => c.id).sort(),
          binding === 'JSONRPC' ? ['c2', id].sort() : [id],
        );
        await client.deletePushNotificationConfig({ taskId: id, id });
        assert.equal(
          (await client.listPushNotificationConfigs({ taskId: id })).configs.some(
            (c) => c.id === id,
          ),
          false,
        );
      },
    );
  }
});

describe('@a2a-js/sdk 0.3.14 client → a2a-kit agent with compat: { v03: true }', () => {
  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(
      `over ${binding}: discovery from the 0.3 card, send, stream, get, cancel, resubscribe, push configs and 0.3 deliveries, errors`,
      { timeout: 120_000 },
      async () => {
        const ours = track(await startCompatAgent());
        const hook = track(await startWebhook());
        const factory = new ClientFactory(
          ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
            preferredTransports: [binding],
          }),
        );
        const client = await factory.createFromUrl(ours.origin);
        const card = await client.getAgentCard();
        assert.equal(card.protocolVersion, '0.3');
        assert.equal(card.url, `${ours.origin}/a2a/jsonrpc`);

        const sent: any = await client.sendMessage({ message: msg03('hello from 0.3') });
        assert.equal(sent.kind, 'task', JSON.stringify(sent));
        assert.equal(sent.status.state, 'completed');
        assert.deepEqual(sent.artifacts[0].parts[0], { kind: 'text', text: 'hello from 0.3' });
        assert.equal(sent.artifacts[0].parts[1].kind, 'data');

        const events: any[] = await collect(
          client.sendMessageStream({ message: msg03('stream from 0.3') }),
        );
        assert.equal(events[0].kind, 'task');
        assert.ok(events.some((e) => e.kind === 'artifact-update'));
        const last = events.at(-1);
        assert.equal(last.kind, 'status-update');
        assert.equal(last.status.state, 'completed');
        assert.equal(last.final, true);

        const got: any = await client.getTask({ id: sent.id, historyLength: 1 });
        assert.equal(got.status.state, 'completed');
        assert.equal(got.history.length, 1);

        await assert.rejects(
          client.getTask({ id: '00000000-0000-4000-8000-000000000000' }),
          (e: unknown) =>
            e instanceof TaskNotFoundError ||
            (e as Error).cause instanceof TaskNotFoundError ||
            /-32001|not found/i.test(String(e)),
        );
        await assert.rejects(
          client.cancelTask({ id: sent.id }),
          (e: unknown) => e instanceof TaskNotCancelableError || /-32002|cancel/i.test(String(e)),
        );

        // A long task with a webhook registered with the message: 0.3 bodies (the whole task) go to it.
        const started: any = await client.sendMessage({
          message: msg03('wait'),
          configuration: {
            blocking: false,
            pushNotificationConfig: { url: hook.url, token: 'tok' },
          },
        });
        assert.equal(started.kind, 'task');
        let canceled: any;
        const resub: any[] = await collect(
          client.resubscribeTask({ id: started.id }),
          async (_e, i) => {
            if (i === 0) canceled = await client.cancelTask({ id: started.id });
          },
        );
        assert.equal(resub[0].kind, 'task');
        assert.equal(canceled.status.state, 'canceled');
        assert.equal(resub.at(-1).status.state, 'canceled');
        await hook.waitFor(1);
        const deadline = Date.now() + BOUND_MS;
        while (!hook.hits.some((h) => /"canceled"/.test(h.body)) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        for (const h of hook.hits) {
          const body = JSON.parse(h.body);
          assert.equal(body.kind, 'task', h.body);
          assert.equal(body.id, started.id);
          assert.match(String(h.headers['content-type']), /^application\/json/);
          assert.equal(h.headers['x-a2a-notification-token'], 'tok');
        }
        assert.ok(hook.hits.some((h) => JSON.parse(h.body).status.state === 'canceled'));

        // Push configs, 0.3 style: without an id a config is named after its task.
        const set: any = await client.setTaskPushNotificationConfig({
          taskId: started.id,
          pushNotificationConfig: {
            id: 'c2',
            url: hook.url,
            token: 't2',
            authentication: { schemes: ['Bearer'], credentials: 'abc' },
          },
        });
        assert.equal(set.pushNotificationConfig.id, 'c2');
        const one: any = await client.getTaskPushNotificationConfig({
          id: started.id,
          pushNotificationConfigId: 'c2',
        } as any);
        assert.equal(one.pushNotificationConfig.url, hook.url);
        assert.deepEqual(one.pushNotificationConfig.authentication.schemes, ['Bearer']);
        const all: any[] = await client.listTaskPushNotificationConfig({ id: started.id });
        assert.deepEqual(
          all.map((c) => c.pushNotificationConfig.id).sort(),
          ['c2', started.id].sort(),
        );
        await client.deleteTaskPushNotificationConfig({
          id: started.id,
          pushNotificationConfigId: 'c2',
        });
        assert.equal((await client.listTaskPushNotificationConfig({ id: started.id })).length, 1);

        // The same tasks, read over 1.0 — and a task made over 1.0, read over 0.3.
        const v10 = await A2AClient.connect(ours.origin, { cache: false, bindings: [binding] });
        assert.equal(v10.interface.protocolVersion, '1.0');
        assert.equal((await v10.getTask(sent.id)).status.state, 'TASK_STATE_COMPLETED');
        assert.equal((await v10.getTask(started.id)).status.state, 'TASK_STATE_CANCELED');
        const made = await v10.sendMessage({ message: msg10('made over 1.0') });
        assert.ok('task' in made);
        const seen: any = await client.getTask({ id: made.task.id });
        assert.equal(seen.kind, 'task');
        assert.equal(seen.status.state, 'completed');
        // A webhook registered over 1.0 keeps its 1.0 config shape when listed over 1.0 (no version marker leaks).
        const cfg = await v10.getPushNotificationConfig({ taskId: started.id, id: started.id });
        assert.deepEqual(Object.keys(cfg).sort(), ['id', 'taskId', 'token', 'url']);
      },
    );
  }
});
