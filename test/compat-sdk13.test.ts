/**
 * A2A 0.3 interop with the reference JavaScript SDK 1.3 and its compatibility layer
 * (`legacyCompat: { enabled: true }`, `@a2a-js/sdk/compat/v0_3/…`; a dev dependency, tests only), both
 * ways and over both bindings: our client over the SDK agent's 0.3 interfaces, and the SDK's 0.3
 * transports against our agent with `compat: { v03: true }`.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  AgentCard as SdkAgentCard,
  Task as SdkTask,
  TaskArtifactUpdateEvent as SdkArtifact,
  TaskStatusUpdateEvent as SdkStatus,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from '@a2a-js/sdk/server/express';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { A2AClient, isA2AError } from '../src/client/index.js';
import { createPushReceiver } from '../src/client/push-receiver.js';
import type { AgentCard, StreamResponse, Task } from '../src/protocol/index.js';
import { closeAll, startWebhook, track } from './push-fixture.js';
import { BOUND_MS, collect, msg10, startCompatAgent } from './compat-fixture.js';

afterEach(closeAll);

const LEGACY = { legacyCompat: { enabled: true } };

/** The SDK 1.3 agent: echoes; "wait" runs until canceled. */
function sdkExecutor(): AgentExecutor {
  const waiting = new Map<string, { contextId: string; done: () => void }>();
  return {
    async execute(ctx, bus) {
      const text = ctx.userMessage.parts
        .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
        .join('');
      const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
      if (!ctx.task)
        bus.publish(
          AgentEvent.task(
            SdkTask.fromJSON({
              id: ctx.taskId,
              contextId: ctx.contextId,
              status: { state: 'TASK_STATE_SUBMITTED' },
              history: [],
            }),
          ),
        );
      bus.publish(
        AgentEvent.statusUpdate(
          SdkStatus.fromJSON({ ...ids, status: { state: 'TASK_STATE_WORKING' } }),
        ),
      );
      if (text === 'wait') {
        await new Promise<void>((done) =>
          waiting.set(ctx.taskId, { contextId: ctx.contextId, done }),
        );
        return;
      }
      bus.publish(
        AgentEvent.artifactUpdate(
          SdkArtifact.fromJSON({
            ...ids,
            artifact: { artifactId: 'a1', name: 'echo', parts: [{ text }, { data: [1, 2] }] },
          }),
        ),
      );
      bus.publish(
        AgentEvent.statusUpdate(
          SdkStatus.fromJSON({ ...ids, status: { state: 'TASK_STATE_COMPLETED' } }),
        ),
      );
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      const w = waiting.get(taskId);
      bus.publish(
        AgentEvent.statusUpdate(
          SdkStatus.fromJSON({
            taskId,
            contextId: w?.contextId ?? '',
            status: { state: 'TASK_STATE_CANCELED' },
          }),
        ),
      );
      bus.finished();
      w?.done();
    },
  };
}

/** The SDK 1.3 agent with its 0.3 layer on; its card lists the 0.3 entries first, then the 1.0 ones. */
async function startSdk13Agent(): Promise<{ origin: string; close(): Promise<void> }> {
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const at = (path: string, binding: string, version: string) => ({
    url: `${origin}${path}`,
    protocolBinding: binding,
    protocolVersion: version,
  });
  const card: AgentCard = {
    name: 'sdk13-echo',
    description: 'the 1.3 reference SDK with its 0.3 layer',
    version: '1.0.0',
    supportedInterfaces: [
      at('/a2a/jsonrpc', 'JSONRPC', '0.3'),
      at('/a2a/rest', 'HTTP+JSON', '0.3'),
      at('/a2a/jsonrpc', 'JSONRPC', '1.0'),
      at('/a2a/rest', 'HTTP+JSON', '1.0'),
    ],
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
  };
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    SdkAgentCard.fromJSON(card),
    new InMemoryTaskStore(),
    sdkExecutor(),
    undefined,
    pushStore,
    createLegacyAwarePushNotificationSender(pushStore),
  );
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: handler, ...LEGACY }),
  );
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      ...LEGACY,
    }),
  );
  app.use(
    '/a2a/rest',
    restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, ...LEGACY }),
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

const stateOf = (e: StreamResponse): string | undefined =>
  'task' in e ? e.task.status.state : 'statusUpdate' in e ? e.statusUpdate.status.state : undefined;

async function receiver(token: string) {
  const events: StreamResponse[] = [];
  const r = createPushReceiver({ token, onEvent: (e) => void events.push(e) });
  const server = createServer(r.listener);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  return track({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    events,
    async until(pred: (e: StreamResponse) => boolean) {
      const deadline = Date.now() + BOUND_MS;
      while (!events.some(pred) && Date.now() < deadline)
        await new Promise((res) => setTimeout(res, 20));
      assert.ok(events.some(pred), `no matching push notification in ${JSON.stringify(events)}`);
    },
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  });
}

describe('a2a-kit client → @a2a-js/sdk 1.3 agent with legacyCompat', () => {
  test(
    '§8.3.2 a 1.0-only client skips the 0.3 entries the card lists first; one that allows 0.3 takes them',
    { timeout: 60_000 },
    async () => {
      const agent = await startSdk13Agent();
      const v10 = await A2AClient.connect(agent.origin, { cache: false });
      assert.equal(v10.interface.index, 2);
      assert.match(v10.interface.reason, /skipped \[0\] JSONRPC 0\.3: version not spoken/);
      const both = await A2AClient.connect(agent.origin, {
        cache: false,
        versions: ['1.0', '0.3'],
      });
      assert.equal(both.interface.index, 0);
      assert.equal(both.interface.protocolVersion, '0.3');
    },
  );

  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(
      `over ${binding} 0.3: send, stream, get, cancel, resubscribe, push configs and 0.3 deliveries, errors — all 1.0-shaped`,
      { timeout: 120_000 },
      async () => {
        const agent = await startSdk13Agent();
        const client = await A2AClient.connect(agent.origin, {
          cache: false,
          bindings: [binding],
          versions: ['1.0', '0.3'],
        });
        assert.equal(client.interface.protocolVersion, '0.3');

        const sent = await client.sendMessage({ message: msg10('hello 1.3 compat') });
        assert.ok('task' in sent, JSON.stringify(sent));
        assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');
        // A non-object data value crosses 0.3 wrapped and flagged in the part's metadata (the 1.3 convention) and
        // comes back as it was; the 0.3 proto (HTTP+JSON) has no part metadata, so there it stays wrapped.
        const data = binding === 'JSONRPC' ? [1, 2] : { value: [1, 2] };
        assert.deepEqual(sent.task.artifacts?.[0]?.parts, [{ text: 'hello 1.3 compat' }, { data }]);

        const events = await collect(client.sendStreamingMessage({ message: msg10('stream') }));
        assert.ok('task' in events[0]!);
        assert.equal(stateOf(events.at(-1)!), 'TASK_STATE_COMPLETED');
        assert.equal((await client.getTask(sent.task.id)).status.state, 'TASK_STATE_COMPLETED');
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
          (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
        );

        const hook = await receiver('tok-13');
        const started = await client.sendMessage({
          message: msg10('wait'),
          configuration: { returnImmediately: true },
        });
        assert.ok('task' in started);
        const id = started.task.id;
        const made = await client.createPushNotificationConfig({
          taskId: id,
          id: 'c1',
          url: hook.url,
          token: 'tok-13',
        });
        assert.equal(made.id, 'c1');
        assert.equal(
          (await client.getPushNotificationConfig({ taskId: id, id: 'c1' })).url,
          hook.url,
        );
        assert.deepEqual(
          (await client.listPushNotificationConfigs({ taskId: id })).configs.map((c) => c.id),
          ['c1'],
        );
        let canceled: Task | undefined;
        const resub = await collect(client.subscribeToTask(id), async (_e, i) => {
          if (i === 0) canceled = await client.cancelTask(id);
        });
        assert.ok('task' in resub[0]!);
        assert.equal(canceled?.status.state, 'TASK_STATE_CANCELED');
        assert.equal(stateOf(resub.at(-1)!), 'TASK_STATE_CANCELED');
        // Registered over 0.3, so the SDK sends 0.3 bodies; the receiver reads them as 1.0 StreamResponses.
        await hook.until((e) => stateOf(e) === 'TASK_STATE_CANCELED');
        await client.deletePushNotificationConfig({ taskId: id, id: 'c1' });
        assert.deepEqual((await client.listPushNotificationConfigs({ taskId: id })).configs, []);
      },
    );
  }
});

describe('@a2a-js/sdk 1.3 legacy (0.3) client → a2a-kit agent with compat: { v03: true }', () => {
  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(
      `over ${binding} 0.3: send, stream, get, cancel, resubscribe, push configs and 0.3 deliveries, errors`,
      { timeout: 120_000 },
      async () => {
        const ours = track(await startCompatAgent());
        const hook = track(await startWebhook());
        // The SDK's own discovery asks for the 1.0 card and then prefers 1.0 entries (so does its
        // resolver on the card served without A2A-Version, which has 1.0 entries too); the pure 0.3
        // form sends it to its 0.3 transports.
        const raw = await (
          await fetch(`${ours.origin}/.well-known/agent-card.json`, {
            headers: { 'a2a-version': '0.3' },
          })
        ).json();
        const card = new DefaultAgentCardResolver(LEGACY).normalizeAgentCard(raw);
        const factory = new ClientFactory(
          ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
            transports: [new JsonRpcTransportFactory(LEGACY), new RestTransportFactory(LEGACY)],
            preferredTransports: [binding],
          }),
        );
        const client = await factory.createFromAgentCard(card);
        assert.equal(client.protocolVersion, '0.3');
        const message = (text: string) => ({
          messageId: `sdk-${Math.random().toString(36).slice(2)}`,
          role: 1,
          parts: [{ content: { $case: 'text', value: text } }],
        });

        const sent: any = await client.sendMessage({
          message: message('hello from 1.3 legacy'),
        } as any);
        const task = sent.payload?.value ?? sent;
        assert.equal(task.status.state, 3 /* COMPLETED */, JSON.stringify(sent));
        assert.equal(task.artifacts[0].parts[0].content.value, 'hello from 1.3 legacy');

        const events: any[] = await collect(
          client.sendMessageStream({ message: message('stream') } as any),
        );
        assert.equal(events[0].payload.$case, 'task');
        assert.equal(events.at(-1).payload.value.status.state, 3);

        const got: any = await client.getTask({ id: task.id, historyLength: 1 } as any);
        assert.equal(got.history.length, 1);
        await assert.rejects(
          client.getTask({ id: '00000000-0000-4000-8000-000000000000' } as any),
          /not found/i,
        );
        await assert.rejects(client.cancelTask({ id: task.id } as any), /cancel/i);

        const started: any = await client.sendMessage({
          message: message('wait'),
          configuration: { returnImmediately: true },
        } as any);
        const id = (started.payload?.value ?? started).id;
        const made: any = await client.createTaskPushNotificationConfig({
          taskId: id,
          id: 'c1',
          url: hook.url,
          token: 'tok',
        } as any);
        assert.equal(made.id, 'c1');
        assert.equal(
          ((await client.getTaskPushNotificationConfig({ taskId: id, id: 'c1' } as any)) as any)
            .url,
          hook.url,
        );
        assert.equal(
          ((await client.listTaskPushNotificationConfig({ taskId: id } as any)) as any).configs
            .length,
          1,
        );
        let canceled: any;
        const resub: any[] = await collect(client.resubscribeTask({ id } as any), async (_e, i) => {
          if (i === 0) canceled = await client.cancelTask({ id } as any);
        });
        assert.equal(resub[0].payload.$case, 'task');
        assert.equal(canceled.status.state, 5 /* CANCELED */);
        assert.equal(resub.at(-1).payload.value.status.state, 5);
        const deadline = Date.now() + BOUND_MS;
        while (!hook.hits.some((h) => /"canceled"/.test(h.body)) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        const last = JSON.parse(hook.hits.at(-1)!.body);
        assert.equal(last.kind, 'task');
        assert.equal(last.status.state, 'canceled');
        await client.deleteTaskPushNotificationConfig({ taskId: id, id: 'c1' } as any);
      },
    );
  }
});
