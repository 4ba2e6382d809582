/**
 * The client against the reference JavaScript SDK's server (@a2a-js/sdk 1.x, a dev dependency used
 * only here), over JSON-RPC and HTTP+JSON: proof that we speak the spec's wire format, not just
 * our own server's dialect.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  AgentCard as SdkAgentCard,
  Task as SdkTask,
  TaskStatusUpdateEvent as SdkStatus,
  TaskArtifactUpdateEvent as SdkArtifact,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from '@a2a-js/sdk/server/express';
import { A2AClient, isA2AError } from '../src/client/index.js';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';

const executor: AgentExecutor = {
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
          history: [],
        }),
      ),
    );
    bus.publish(
      AgentEvent.statusUpdate(
        SdkStatus.fromJSON({ ...ids, status: { state: 'TASK_STATE_WORKING' } }),
      ),
    );
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
  async cancelTask() {},
};

async function startSdkAgent(
  caps: AgentCard['capabilities'],
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  const server: Server = createServer(app);
  const http = server;
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'sdk-echo',
    description: 'reference SDK echo agent',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: caps,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
  };
  const handler = new DefaultRequestHandler(
    SdkAgentCard.fromJSON(card),
    new InMemoryTaskStore(),
    executor,
  );
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use(
    '/a2a/rest',
    restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return {
    url: origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const msg = (text: string) => ({
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
  },
});

for (const binding of ['JSONRPC', 'HTTP+JSON']) {
  test(`interop with @a2a-js/sdk server over ${binding}: discovery, send, stream, get, list, errors`, async () => {
    const agent = await startSdkAgent({ streaming: true });
    try {
      const client = await A2AClient.connect(agent.url, { bindings: [binding], cache: false });
      assert.equal(client.interface.binding, binding);

      const sent = await client.sendMessage(msg('hello sdk'));
      assert.ok('task' in sent, JSON.stringify(sent));
      assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');

      const events: StreamResponse[] = [];
      for await (const ev of client.sendStreamingMessage(msg('stream me'))) events.push(ev);
      assert.ok('task' in events[0]!);
      assert.ok(events.some((e) => 'artifactUpdate' in e));
      const last = events.at(-1)!;
      assert.ok(
        'statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_COMPLETED',
        JSON.stringify(last),
      );

      const got = await client.getTask(sent.task.id);
      assert.equal(got.id, sent.task.id);
      const list = await client.listTasks({ pageSize: 10 });
      assert.ok(list.tasks.length >= 2);

      await assert.rejects(
        client.getTask('00000000-0000-4000-8000-000000000000'),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
      );
      await assert.rejects(
        client.cancelTask(sent.task.id),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
      );
      // The subscribe route is found (POST, or GET after a 405) and a terminal task is refused.
      await assert.rejects(
        (async () => {
          for await (const _ of client.subscribeToTask(sent.task.id)) void _;
        })(),
        (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
      );
      // Our local capability check and the SDK's server check agree.
      await assert.rejects(
        client.listPushNotificationConfigs({ taskId: sent.task.id }),
        (e: unknown) => isA2AError(e) && e.kind === 'PushNotificationNotSupported',
      );
      const liar = new A2AClient(
        { ...client.card, capabilities: { streaming: true, pushNotifications: true } },
        { bindings: [binding] },
      );
      await assert.rejects(
        liar.listPushNotificationConfigs({ taskId: sent.task.id }),
        (e: unknown) => isA2AError(e) && e.kind === 'PushNotificationNotSupported',
      );
    } finally {
      await agent.close();
    }
  });
}
