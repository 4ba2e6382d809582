/**
 * A push config given with a message (SendMessage or SendStreamingMessage `configuration`) is a stored
 * config from the moment its task exists: Get and List show it while the task runs, Delete removes it,
 * and the delete sticks once the task stops (§3.1.8–§3.1.10). Over JSON-RPC, HTTP+JSON and gRPC.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OperationName } from '../src/protocol/index.js';
import { closeRawClients, grpcCall, grpcOpen, startGrpcAgent } from './grpc-fixture.js';
import {
  BINDINGS as HTTP_BINDINGS,
  HOOK,
  call as httpCall,
  message,
  outcomeOf,
  request,
  type Binding as HttpBinding,
  type Outcome,
} from './rest-fixture.js';

type Binding = HttpBinding | 'grpc';
const BINDINGS: Binding[] = [...HTTP_BINDINGS, 'grpc'];

let agent: Awaited<ReturnType<typeof startGrpcAgent>>;
before(async () => (agent = await startGrpcAgent('full')));
after(async () => {
  closeRawClients();
  await agent.close();
});

function call(b: Binding, op: OperationName, params: Record<string, any>): Promise<Outcome> {
  return b === 'grpc'
    ? grpcCall(agent.grpc.target, op, params)
    : httpCall(agent.origin, b, op, params);
}

/** Start a stream; resolves once the server has begun answering (the task exists), with its outcome to read later. */
async function open(
  b: Binding,
  op: OperationName,
  params: Record<string, any>,
): Promise<{ done: Promise<Outcome> }> {
  if (b === 'grpc') return grpcOpen(agent.grpc.target, op, params);
  const res = await request(agent.origin, b, op, params);
  assert.equal(res.status, 200, `[${b}] ${op} answered`);
  return { done: outcomeOf(b, res) };
}

/** The one task of a context (the test gives each message a context of its own). */
async function taskIn(b: Binding, contextId: string): Promise<string> {
  const listed = await call(b, 'ListTasks', { contextId });
  assert.equal(listed.result?.tasks?.length, 1, `[${b}] ${JSON.stringify(listed)}`);
  return listed.result.tasks[0].id as string;
}

/** Get, List, Delete while the task runs; then the delete sticks after the task stops. */
async function checkLifecycle(b: Binding, taskId: string, stopped: () => Promise<unknown>) {
  const got = await call(b, 'GetTaskPushNotificationConfig', { taskId, id: 'inline-1' });
  assert.equal(got.result?.url, HOOK, `[${b}] Get shows the inline config: ${JSON.stringify(got)}`);
  assert.equal(got.result.taskId, taskId);
  const listed = await call(b, 'ListTaskPushNotificationConfigs', { taskId });
  assert.deepEqual(
    listed.result?.configs?.map((c: { id: string }) => c.id),
    ['inline-1'],
    `[${b}] List shows it`,
  );
  const deleted = await call(b, 'DeleteTaskPushNotificationConfig', { taskId, id: 'inline-1' });
  assert.equal(deleted.error, undefined, `[${b}] ${JSON.stringify(deleted)}`);
  const gone = await call(b, 'GetTaskPushNotificationConfig', { taskId, id: 'inline-1' });
  assert.equal(gone.error?.kind, 'TaskNotFound', `[${b}] deleted`);
  assert.equal(
    (await call(b, 'CancelTask', { id: taskId })).result?.status.state,
    'TASK_STATE_CANCELED',
  );
  await stopped();
  const later = await call(b, 'ListTaskPushNotificationConfigs', { taskId });
  assert.deepEqual(
    later.result?.configs ?? [],
    [],
    `[${b}] the delete sticks after the task stopped`,
  );
  assert.equal(
    (await call(b, 'GetTaskPushNotificationConfig', { taskId, id: 'inline-1' })).error?.kind,
    'TaskNotFound',
  );
}

describe('§3.1.8–3.1.10 a push config given with a message is a stored config while the task runs', () => {
  for (const b of BINDINGS) {
    test(`[${b}] SendStreamingMessage: Get, List and Delete see it; the delete sticks`, async () => {
      const contextId = `ctx-stream-${b}-${Date.now()}`;
      const stream = await open(b, 'SendStreamingMessage', {
        message: message('slow', { contextId }),
        configuration: { taskPushNotificationConfig: { url: HOOK, id: 'inline-1' } },
      });
      // The stream has started, so the task exists; listing finds it by its context.
      const taskId = await taskIn(b, contextId);
      await checkLifecycle(b, taskId, async () => {
        const ended = await stream.done;
        assert.equal(ended.error, undefined, `[${b}] ${JSON.stringify(ended)}`);
      });
    });

    test(`[${b}] blocking SendMessage: Get, List and Delete see it while the call waits`, async () => {
      const contextId = `ctx-send-${b}-${Date.now()}`;
      const answer = call(b, 'SendMessage', {
        message: message('slow', { contextId }),
        configuration: { taskPushNotificationConfig: { url: HOOK, id: 'inline-1' } },
      });
      // The call waits for the task to stop; meanwhile the task shows up in the list (bounded wait).
      let taskId: string | undefined;
      for (let i = 0; i < 500 && !taskId; i++) {
        const listed = await call(b, 'ListTasks', { contextId });
        taskId = listed.result?.tasks?.[0]?.id;
        if (!taskId) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(taskId, `[${b}] the task was never listed`);
      await checkLifecycle(b, taskId, async () => {
        const ended = await answer;
        assert.equal(
          ended.result?.task?.status.state,
          'TASK_STATE_CANCELED',
          JSON.stringify(ended),
        );
      });
    });
  }
});
