/**
 * proto3 on the wire as other stacks write it (SPEC-NOTES 17): every request of the eleven operations
 * encoded by protobufjs with every default left out — no tenant, no context id, no page size, no
 * flags — and sent with grpc-js, then read back through another binding (JSON-RPC or HTTP+JSON). A
 * field the encoder left out must mean its default everywhere, never a different task or a stored
 * `undefined`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK, call, message } from './rest-fixture.js';
import { startGrpcAgent } from './grpc-fixture.js';
import { closeForeignChannels, foreignCall } from './grpc-foreign-fixture.js';

let agent: Awaited<ReturnType<typeof startGrpcAgent>>;
let target: string;

before(async () => {
  // Anonymous callers are allowed (the card requires nothing); `Bearer good` is alice, on both listeners.
  agent = await startGrpcAgent('full');
  target = agent.grpc.target;
});
after(async () => {
  closeForeignChannels();
  await agent.close();
});

/** A task made over JSON-RPC, finished (`echo`) or left working (`slow`). */
async function jsonTask(text: string): Promise<any> {
  const configuration = text.startsWith('slow') ? { returnImmediately: true } : undefined;
  const sent = await call(agent.origin, 'jsonrpc', 'SendMessage', {
    message: message(text),
    ...(configuration ? { configuration } : {}),
  });
  assert.ok(sent.result?.task, JSON.stringify(sent));
  return sent.result.task;
}

/** A push config made over JSON-RPC for `taskId`. */
async function jsonConfig(taskId: string, id: string): Promise<void> {
  const made = await call(agent.origin, 'jsonrpc', 'CreateTaskPushNotificationConfig', {
    taskId,
    id,
    url: HOOK,
  });
  assert.equal(made.result?.id, id, JSON.stringify(made));
}

const ids = (list: Array<{ id: string }> | undefined): string[] => (list ?? []).map((t) => t.id);

describe('§10 requests with every default omitted (protobufjs) mean their defaults', () => {
  test('SendMessage without tenant, context or configuration: the task is there over JSON-RPC', async () => {
    const sent = await foreignCall(target, 'SendMessage', {
      message: { messageId: 'pb-send', role: 'ROLE_USER', parts: [{ text: 'echo from pb' }] },
    });
    assert.equal(sent.task.status.state, 'TASK_STATE_COMPLETED');
    const got = await call(agent.origin, 'jsonrpc', 'GetTask', { id: sent.task.id });
    assert.equal(got.result?.id, sent.task.id, JSON.stringify(got));
    assert.equal(got.result.contextId, sent.task.contextId);
    assert.equal(got.result.history[0].messageId, 'pb-send');
    const listed = await call(agent.origin, 'rest', 'ListTasks', {
      contextId: sent.task.contextId,
    });
    assert.deepEqual(ids(listed.result.tasks), [sent.task.id]);
  });

  test('SendStreamingMessage without tenant: the streamed task is the one HTTP+JSON reads', async () => {
    const events = await foreignCall(target, 'SendStreamingMessage', {
      message: { messageId: 'pb-stream', role: 'ROLE_USER', parts: [{ text: 'echo streamed' }] },
    });
    const id = events[0].task.id;
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    const got = await call(agent.origin, 'rest', 'GetTask', { id });
    assert.equal(got.result?.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(got));
    assert.equal(got.result.artifacts[0].parts[0].text, 'echo streamed');
  });

  test('GetTask with only an id finds a task made over JSON-RPC, history included', async () => {
    const made = await jsonTask('echo get');
    const got = await foreignCall(target, 'GetTask', { id: made.id });
    assert.equal(got.id, made.id);
    assert.equal(got.status.state, 'TASK_STATE_COMPLETED');
    assert.ok(got.history.length > 0, 'no historyLength means the server default, not 0');
  });

  test('ListTasks with an empty request lists the tasks made over JSON-RPC', async () => {
    const made = await jsonTask('echo list');
    const listed = await foreignCall(target, 'ListTasks', {});
    assert.ok(ids(listed.tasks).includes(made.id), JSON.stringify(listed));
    assert.ok(listed.pageSize > 0, 'no pageSize means the default page, not 0');
    assert.equal(listed.tasks[0].artifacts, undefined, 'no includeArtifacts means false');
  });

  test('CancelTask with only an id cancels the task JSON-RPC sees', async () => {
    const made = await jsonTask('slow cancel');
    const canceled = await foreignCall(target, 'CancelTask', { id: made.id });
    assert.equal(canceled.status.state, 'TASK_STATE_CANCELED');
    const got = await call(agent.origin, 'jsonrpc', 'GetTask', { id: made.id });
    assert.equal(got.result?.status.state, 'TASK_STATE_CANCELED');
  });

  test('SubscribeToTask with only an id follows a task made over JSON-RPC', async () => {
    const made = await jsonTask('slow subscribe');
    const events = foreignCall(
      target,
      'SubscribeToTask',
      { id: made.id },
      // Cancelled once the subscription has answered with the task, so the stream sees it end.
      {
        onEvent: (e) =>
          void (e.task && call(agent.origin, 'jsonrpc', 'CancelTask', { id: made.id })),
      },
    );
    const got = await events;
    assert.equal(got[0].task.id, made.id);
    assert.equal(
      got.at(-1).statusUpdate?.status.state ?? got.at(-1).task?.status.state,
      'TASK_STATE_CANCELED',
    );
  });

  test('CreateTaskPushNotificationConfig without tenant, id or token: JSON-RPC gets it by its id', async () => {
    const made = await jsonTask('echo push');
    const created = await foreignCall(target, 'CreateTaskPushNotificationConfig', {
      taskId: made.id,
      url: HOOK,
    });
    assert.ok(created.id, 'the server names a config the client did not');
    assert.equal(created.tenant, undefined);
    const got = await call(agent.origin, 'jsonrpc', 'GetTaskPushNotificationConfig', {
      taskId: made.id,
      id: created.id,
    });
    assert.equal(got.result?.url, HOOK, JSON.stringify(got));
    assert.equal(got.result.token, undefined, 'an omitted token is no token, not ""');
  });

  test('GetTaskPushNotificationConfig without tenant reads a config made over JSON-RPC', async () => {
    const made = await jsonTask('echo push get');
    await jsonConfig(made.id, 'cfg-get');
    const got = await foreignCall(target, 'GetTaskPushNotificationConfig', {
      taskId: made.id,
      id: 'cfg-get',
    });
    assert.equal(got.url, HOOK);
    assert.equal(got.taskId, made.id);
  });

  test('ListTaskPushNotificationConfigs without tenant, page size or token lists them all', async () => {
    const made = await jsonTask('echo push list');
    await jsonConfig(made.id, 'cfg-a');
    await jsonConfig(made.id, 'cfg-b');
    const listed = await foreignCall(target, 'ListTaskPushNotificationConfigs', {
      taskId: made.id,
    });
    assert.deepEqual(ids(listed.configs).sort(), ['cfg-a', 'cfg-b']);
  });

  test('DeleteTaskPushNotificationConfig without tenant removes what JSON-RPC lists', async () => {
    const made = await jsonTask('echo push delete');
    await jsonConfig(made.id, 'cfg-del');
    await foreignCall(target, 'DeleteTaskPushNotificationConfig', {
      taskId: made.id,
      id: 'cfg-del',
    });
    const listed = await call(agent.origin, 'jsonrpc', 'ListTaskPushNotificationConfigs', {
      taskId: made.id,
    });
    assert.deepEqual(listed.result?.configs ?? [], []);
  });

  test('GetExtendedAgentCard with an empty request is the card JSON-RPC answers', async () => {
    const alice = { authorization: 'Bearer good' };
    const over = await call(
      agent.origin,
      'jsonrpc',
      'GetExtendedAgentCard',
      {},
      { headers: alice },
    );
    const card = await foreignCall(target, 'GetExtendedAgentCard', {}, { headers: alice });
    assert.equal(card.name, 'extended for alice');
    assert.equal(card.name, over.result?.name, JSON.stringify(over));
  });
});
