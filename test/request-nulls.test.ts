/**
 * ProtoJSON reads `null` as an unset field (§5.5) at every depth of a request, not only at its top:
 * SDKs built on generated classes write `null` for everything the caller left unset. Inside a part's
 * `data` (a Value) a null is content, and survives.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK, call, startAgent } from './rest-fixture.js';

let agent: Awaited<ReturnType<typeof startAgent>>;
before(async () => {
  agent = await startAgent('full');
});
after(() => agent.close());

test('§5.5 SendMessage with nulls in the message, its parts and its configuration', async () => {
  const sent = await call(agent.origin, 'jsonrpc', 'SendMessage', {
    tenant: null,
    message: {
      messageId: 'nulls-1',
      role: 'ROLE_USER',
      contextId: null,
      taskId: null,
      metadata: null,
      extensions: null,
      referenceTaskIds: null,
      parts: [
        { text: 'echo nulls', metadata: null, filename: null, mediaType: null },
        { data: null, metadata: { kept: null } },
      ],
    },
    configuration: {
      acceptedOutputModes: null,
      historyLength: null,
      returnImmediately: null,
      taskPushNotificationConfig: null,
    },
    metadata: null,
  });
  assert.equal(sent.result?.task?.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(sent));
  const got = await call(agent.origin, 'rest', 'GetTask', { id: sent.result.task.id });
  const parts = got.result.history[0].parts;
  assert.deepEqual(parts[1], { data: null, metadata: { kept: null } });
  assert.equal('metadata' in parts[0], false);
});

test('§5.5 ListTasks and a push config with every optional member null', async () => {
  const listed = await call(agent.origin, 'jsonrpc', 'ListTasks', {
    contextId: null,
    status: null,
    pageSize: null,
    pageToken: null,
    historyLength: null,
    statusTimestampAfter: null,
    includeArtifacts: null,
  });
  assert.ok(Array.isArray(listed.result?.tasks), JSON.stringify(listed));
  const task = listed.result.tasks[0];
  const made = await call(agent.origin, 'jsonrpc', 'CreateTaskPushNotificationConfig', {
    taskId: task.id,
    id: null,
    url: HOOK,
    token: null,
    authentication: null,
  });
  assert.equal(made.result?.url, HOOK, JSON.stringify(made));
});

test('a null where the request needs a value is still named', async () => {
  const bad = await call(agent.origin, 'jsonrpc', 'GetTask', { id: null });
  assert.equal(bad.error?.kind, 'InvalidParams');
  assert.match(JSON.stringify(bad.error?.details), /"field":"id"/);
});
