/**
 * gRPC interop with the reference JavaScript SDK (@a2a-js/sdk 1.3, dev dependency only), both ways
 * and every operation: the SDK's gRPC client against our gRPC server, and our gRPC client against
 * the SDK's gRPC server. Proof that both ends speak the A2AService of §10 on the wire, not just
 * our own dialect.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server, ServerCredentials, type ServerUnaryCall } from '@grpc/grpc-js';
import {
  AgentCard as SdkAgentCard,
  CancelTaskRequest as SdkCancel,
  DeleteTaskPushNotificationConfigRequest as SdkDeletePush,
  GetTaskPushNotificationConfigRequest as SdkGetPush,
  GetTaskRequest as SdkGetTask,
  ListTaskPushNotificationConfigsRequest as SdkListPush,
  ListTasksRequest as SdkListTasks,
  ListTasksResponse as SdkListTasksResponse,
  SendMessageRequest as SdkSend,
  StreamResponse as SdkStreamResponse,
  SubscribeToTaskRequest as SdkSubscribe,
  Message as SdkMessage,
  Task as SdkTask,
  TaskArtifactUpdateEvent as SdkArtifact,
  TaskPushNotificationConfig as SdkPushConfig,
  TaskStatusUpdateEvent as SdkStatus,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import { ClientFactory, ClientFactoryOptions, type Client as SdkClient } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';
import { A2AClient, isA2AError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { BOUND_MS, HOOK, UNKNOWN, message } from './rest-fixture.js';
import { startGrpcAgent } from './grpc-fixture.js';

const json = (v: unknown): any => JSON.parse(JSON.stringify(v));
/** An SDK result (its generated classes' shapes) in ProtoJSON, via the SDK's own toJSON. */
const proto = (v: unknown): any =>
  json('status' in (v as object) ? SdkTask.toJSON(v as never) : SdkMessage.toJSON(v as never));

describe('the SDK gRPC client against our gRPC server', () => {
  let ours: Awaited<ReturnType<typeof startGrpcAgent>>;
  let sdk: SdkClient;
  const auth = { serviceParameters: { authorization: 'Bearer good' } };

  before(async () => {
    ours = await startGrpcAgent('full');
    const card = ours.server.service.card;
    // The SDK hands the interface URL to grpc-js as a channel target, so it must be host:port (see the README).
    const withGrpc = {
      ...card,
      supportedInterfaces: [
        { url: ours.grpc.target, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        ...card.supportedInterfaces,
      ],
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
      }),
    );
    sdk = await factory.createFromAgentCard(SdkAgentCard.fromJSON(withGrpc));
    assert.equal(sdk.transport.protocolName, 'GRPC');
  });
  after(() => ours.close());

  const send = (text: string, extra: Record<string, unknown> = {}) =>
    SdkSend.fromJSON({ message: message(text), ...extra });

  test('SendMessage, GetTask, ListTasks', async () => {
    const sent = proto(await sdk.sendMessage(send('echo from sdk')));
    assert.equal(sent.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(sent.artifacts[0].parts[0].text, 'echo from sdk');
    const got = proto(await sdk.getTask(SdkGetTask.fromJSON({ id: sent.id, historyLength: 0 })));
    assert.equal(got.id, sent.id);
    assert.equal(got.history, undefined);
    const listed = json(
      SdkListTasksResponse.toJSON(
        await sdk.listTasks(
          SdkListTasks.fromJSON({ contextId: sent.contextId, includeArtifacts: true }),
        ),
      ),
    );
    assert.deepEqual(
      listed.tasks.map((t: any) => t.id),
      [sent.id],
    );
    assert.equal(listed.tasks[0].artifacts.length, 1);
    const reply = proto(await sdk.sendMessage(send('reply hi')));
    assert.equal(reply.role, 'ROLE_AGENT');
  });

  test('SendStreamingMessage: the Task, then updates, closed at completion', async () => {
    const events: any[] = [];
    for await (const ev of sdk.sendMessageStream(send('echo streamed')))
      events.push(json(SdkStreamResponse.toJSON(ev)));
    assert.ok(events[0].task, JSON.stringify(events[0]));
    assert.ok(events.some((e) => e.artifactUpdate?.artifact.parts[0].text === 'echo streamed'));
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
  });

  test('CancelTask and SubscribeToTask', async () => {
    const started = proto(
      await sdk.sendMessage(send('slow', { configuration: { returnImmediately: true } })),
    );
    assert.equal(started.status.state, 'TASK_STATE_WORKING');
    const events: any[] = [];
    for await (const ev of sdk.resubscribeTask(SdkSubscribe.fromJSON({ id: started.id }))) {
      events.push(json(SdkStreamResponse.toJSON(ev)));
      if (events.length === 1)
        assert.equal(
          proto(await sdk.cancelTask(SdkCancel.fromJSON({ id: started.id }))).status.state,
          'TASK_STATE_CANCELED',
        );
    }
    assert.equal(events[0].task.id, started.id);
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_CANCELED');
  });

  test('push notification configs: create, get, list, delete', async () => {
    const task = proto(await sdk.sendMessage(send('echo push')));
    const created = json(
      SdkPushConfig.toJSON(
        await sdk.createTaskPushNotificationConfig(
          SdkPushConfig.fromJSON({ taskId: task.id, id: 'cfg-1', url: HOOK, token: 'tok' }),
        ),
      ),
    );
    assert.equal(created.url, HOOK);
    assert.deepEqual(
      json(
        SdkPushConfig.toJSON(
          await sdk.getTaskPushNotificationConfig(
            SdkGetPush.fromJSON({ taskId: task.id, id: 'cfg-1' }),
          ),
        ),
      ),
      created,
    );
    assert.equal(
      json(await sdk.listTaskPushNotificationConfig(SdkListPush.fromJSON({ taskId: task.id })))
        .configs.length,
      1,
    );
    await sdk.deleteTaskPushNotificationConfig(
      SdkDeletePush.fromJSON({ taskId: task.id, id: 'cfg-1' }),
    );
    assert.equal(
      json(await sdk.listTaskPushNotificationConfig(SdkListPush.fromJSON({ taskId: task.id })))
        .configs?.length ?? 0,
      0,
    );
  });

  test('GetExtendedAgentCard with credentials as metadata', async () => {
    const card = json(SdkAgentCard.toJSON(await sdk.getAgentCard(auth)));
    assert.equal(card.name, 'extended for alice');
  });

  test('errors: the SDK reads the kind from our ErrorInfo', async () => {
    const kind = (e: unknown) => (e as { name?: string }).name;
    await assert.rejects(
      sdk.getTask(SdkGetTask.fromJSON({ id: UNKNOWN })),
      (e) => kind(e) === 'TaskNotFoundError',
    );
    const done = proto(await sdk.sendMessage(send('echo done')));
    await assert.rejects(
      sdk.cancelTask(SdkCancel.fromJSON({ id: done.id })),
      (e) => kind(e) === 'TaskNotCancelableError',
    );
    await assert.rejects(
      (async () => {
        for await (const _ of sdk.resubscribeTask(SdkSubscribe.fromJSON({ id: done.id }))) void _;
      })(),
      (e) => kind(e) === 'UnsupportedOperationError',
    );
  });
});

/** The SDK's own echo agent; `slow` works until canceled (bounded). */
function sdkExecutor(): AgentExecutor {
  const waiting = new Map<string, () => void>();
  return {
    async execute(ctx, bus) {
      const text = ctx.userMessage.parts
        .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
        .join('');
      const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
      bus.publish(
        AgentEvent.task(
          SdkTask.fromJSON({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: 'TASK_STATE_SUBMITTED' },
            history: [json(ctx.userMessage)],
          }),
        ),
      );
      bus.publish(
        AgentEvent.statusUpdate(
          SdkStatus.fromJSON({ ...ids, status: { state: 'TASK_STATE_WORKING' } }),
        ),
      );
      if (text === 'slow') {
        await new Promise<void>((r) => {
          waiting.set(ctx.taskId, r);
          setTimeout(r, BOUND_MS).unref();
        });
        return;
      }
      bus.publish(
        AgentEvent.artifactUpdate(
          SdkArtifact.fromJSON({
            ...ids,
            artifact: { artifactId: 'a1', name: 'echo', parts: [{ text }] },
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
      bus.publish(
        AgentEvent.statusUpdate(
          SdkStatus.fromJSON({ taskId, contextId: '', status: { state: 'TASK_STATE_CANCELED' } }),
        ),
      );
      bus.finished();
      waiting.get(taskId)?.();
    },
  };
}

describe('our gRPC client against the SDK gRPC server', () => {
  let server: Server;
  let client: A2AClient;
  let card: AgentCard;

  before(async () => {
    server = new Server();
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    card = {
      name: 'sdk-echo',
      description: 'reference SDK echo agent over gRPC',
      version: '1.0.0',
      // The SDK's own samples write the GRPC url as host:port; our client reads either form.
      supportedInterfaces: [
        { url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
    };
    const handler = new DefaultRequestHandler(
      SdkAgentCard.fromJSON(card),
      new InMemoryTaskStore(),
      sdkExecutor(),
      undefined,
      new InMemoryPushNotificationStore(),
      undefined,
      SdkAgentCard.fromJSON({ ...card, name: 'sdk-echo (extended)' }),
    );
    const userBuilder = async (call: ServerUnaryCall<unknown, unknown>) =>
      call.metadata.get('authorization')[0] === 'Bearer good'
        ? { isAuthenticated: true, userName: 'alice' }
        : { isAuthenticated: false, userName: '' };
    server.addService(A2AService, grpcService({ requestHandler: handler, userBuilder }));
    client = new A2AClient(card, {
      transports: { GRPC: grpcTransport() },
      headers: { authorization: 'Bearer good' },
      retry: false,
    });
    assert.equal(client.interface.binding, 'GRPC');
  });
  after(() => server.forceShutdown());

  const send = (text: string, extra = {}) => ({ message: message(text), ...extra }) as never;

  test('SendMessage, GetTask, ListTasks', async () => {
    const sent = await client.sendMessage(send('hello sdk'));
    assert.ok('task' in sent, JSON.stringify(sent));
    assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');
    const part = sent.task.artifacts?.[0]?.parts[0];
    assert.ok(part && 'text' in part && part.text === 'hello sdk');
    const got = await client.getTask({ id: sent.task.id, historyLength: 0 });
    assert.equal(got.id, sent.task.id);
    assert.equal(got.history, undefined);
    const listed = await client.listTasks({ contextId: sent.task.contextId });
    assert.deepEqual(
      listed.tasks.map((t) => t.id),
      [sent.task.id],
    );
  });

  test('SendStreamingMessage', async () => {
    const events: StreamResponse[] = [];
    for await (const ev of client.sendStreamingMessage(send('stream me'))) events.push(ev);
    assert.ok('task' in events[0]!);
    assert.ok(events.some((e) => 'artifactUpdate' in e));
    const last = events.at(-1)!;
    assert.ok(
      'statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_COMPLETED',
      JSON.stringify(last),
    );
  });

  test('CancelTask and SubscribeToTask', async () => {
    const started = await client.sendMessage(
      send('slow', { configuration: { returnImmediately: true } }),
    );
    assert.ok('task' in started, JSON.stringify(started));
    const events: StreamResponse[] = [];
    for await (const ev of client.subscribeToTask(started.task.id)) {
      events.push(ev);
      if (events.length === 1)
        assert.equal(
          (await client.cancelTask(started.task.id)).status.state,
          'TASK_STATE_CANCELED',
        );
    }
    assert.ok('task' in events[0]!);
    const last = events.at(-1)!;
    assert.ok(
      'statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_CANCELED',
      JSON.stringify(events),
    );
  });

  test('push notification configs: create, get, list, delete', async () => {
    const sent = await client.sendMessage(send('push'));
    assert.ok('task' in sent);
    const taskId = sent.task.id;
    const created = await client.createPushNotificationConfig({
      taskId,
      id: 'cfg-1',
      url: 'https://hooks.example.com/a2a',
      token: 'tok',
    });
    assert.equal(created.url, 'https://hooks.example.com/a2a');
    assert.equal((await client.getPushNotificationConfig({ taskId, id: 'cfg-1' })).token, 'tok');
    assert.equal((await client.listPushNotificationConfigs({ taskId })).configs.length, 1);
    await client.deletePushNotificationConfig({ taskId, id: 'cfg-1' });
    assert.equal((await client.listPushNotificationConfigs({ taskId })).configs.length, 0);
  });

  test('GetExtendedAgentCard', async () => {
    assert.equal((await client.getExtendedAgentCard()).name, 'sdk-echo (extended)');
  });

  test("errors: A2AError kinds from the SDK's status details", async () => {
    const c = new A2AClient(card, { transports: { GRPC: grpcTransport() }, retry: false });
    await assert.rejects(
      c.getTask(UNKNOWN),
      (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
    );
    const sent = await c.sendMessage(send('done'));
    assert.ok('task' in sent);
    await assert.rejects(
      c.cancelTask(sent.task.id),
      (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
    );
    await assert.rejects(
      (async () => {
        for await (const _ of c.subscribeToTask(sent.task.id)) void _;
      })(),
      (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
    );
  });
});
