/**
 * proto3 in the other direction: a foreign gRPC server (grpc-js, answers encoded by protobufjs) that
 * leaves every default out of its answers — an empty context id, an artifact id, event ids, a whole
 * empty list page. Our client decodes each answer to an object that satisfies its type (`''`, `0`,
 * `[]` where the type promises a value) rather than one with members missing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';
import { A2AClient } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { foreignServer } from './grpc-foreign-fixture.js';

const done = { state: 'TASK_STATE_COMPLETED' };
let server: Awaited<ReturnType<typeof foreignServer>>;
let client: A2AClient;

before(async () => {
  server = await foreignServer({
    SendMessage: { task: { id: 't-1', status: done } },
    GetTask: { id: 't-1', status: done, artifacts: [{ parts: [{ text: 'x' }] }] },
    CancelTask: { id: 't-1', status: { state: 'TASK_STATE_CANCELED' } },
    ListTasks: {},
    SendStreamingMessage: [
      { task: { id: 't-2', status: { state: 'TASK_STATE_SUBMITTED' } } },
      { artifactUpdate: { artifact: { parts: [{ text: 'y' }] } } },
      { statusUpdate: { status: done } },
    ],
    SubscribeToTask: [{ task: { id: 't-2', status: done, history: [{ parts: [{ text: 'q' }] }] } }],
    CreateTaskPushNotificationConfig: { url: 'https://hooks.example.com/a' },
    // A config without its REQUIRED url: refused, not handed on as `url: ''`.
    GetTaskPushNotificationConfig: { id: 'c' },
    ListTaskPushNotificationConfigs: {},
    DeleteTaskPushNotificationConfig: {},
    GetExtendedAgentCard: {
      name: 'sparse',
      version: '1',
      supportedInterfaces: [
        { url: 'http://127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ],
      capabilities: {},
    },
  });
  const card: AgentCard = {
    name: 'foreign',
    description: 'a grpc-js server answering with protobufjs',
    version: '1',
    supportedInterfaces: [
      { url: `http://${server.target}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  client = new A2AClient(card, { transports: { GRPC: grpcTransport() }, retry: false });
});
after(() => server.close());

const hello = { message: { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] } };

test('§10 a Task without contextId (and artifacts without ids) decodes with the defaults filled', async () => {
  const sent = await client.sendMessage(hello);
  assert.ok('task' in sent);
  assert.equal(sent.task.contextId, '');
  const got = await client.getTask('t-1');
  assert.equal(got.contextId, '');
  assert.equal(got.artifacts?.[0]?.artifactId, '');
  assert.equal((await client.cancelTask('t-1')).status.state, 'TASK_STATE_CANCELED');
});

test('§10 an empty ListTasksResponse is an empty page with every member', async () => {
  assert.deepEqual(await client.listTasks(), {
    tasks: [],
    nextPageToken: '',
    pageSize: 0,
    totalSize: 0,
  });
});

test('§10 stream events without task or context ids carry them as empty strings', async () => {
  const events: StreamResponse[] = [];
  for await (const e of client.sendStreamingMessage(hello)) events.push(e);
  const artifact = events.find((e) => 'artifactUpdate' in e);
  assert.ok(artifact && 'artifactUpdate' in artifact);
  assert.equal(artifact.artifactUpdate.taskId, '');
  assert.equal(artifact.artifactUpdate.contextId, '');
  assert.equal(artifact.artifactUpdate.artifact.artifactId, '');
  const status = events.at(-1)!;
  assert.ok('statusUpdate' in status);
  assert.equal(status.statusUpdate.taskId, '');
  const resumed: StreamResponse[] = [];
  for await (const e of client.subscribeToTask('t-2')) resumed.push(e);
  assert.ok('task' in resumed[0]!);
  assert.equal(resumed[0].task.history?.[0]?.messageId, '');
});

test('§10 push config answers without ids or configs; one without its url is refused', async () => {
  const created = await client.createPushNotificationConfig({ taskId: 't-1', url: 'https://h/a' });
  assert.equal(created.url, 'https://hooks.example.com/a');
  await assert.rejects(client.getPushNotificationConfig({ taskId: 't-1', id: 'c' }), (e: unknown) =>
    /BAD_RESPONSE|not a push notification config with a url/.test(String(e)),
  );
  assert.deepEqual((await client.listPushNotificationConfigs({ taskId: 't-1' })).configs, []);
  await client.deletePushNotificationConfig({ taskId: 't-1', id: 'c' });
});

test('§10 an extended card without description, modes or skills is read with them empty', async () => {
  const card = await client.getExtendedAgentCard();
  assert.equal(card.name, 'sparse');
  assert.equal(card.description, '');
  assert.deepEqual(card.skills, []);
  assert.deepEqual(card.defaultInputModes, []);
});
