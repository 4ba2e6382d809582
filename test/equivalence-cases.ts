/**
 * The scenarios of the §5.1 functional-equivalence suite. Each runs unchanged over JSON-RPC,
 * HTTP+JSON and gRPC, with and without a tenant, and names the outcome it expects: success or an error kind.
 */
import assert from 'node:assert/strict';
import type { A2AErrorKind, OperationName } from '../src/protocol/index.js';
import {
  HOOK,
  OPTIONAL_EXT,
  REQUIRED_EXT,
  UNKNOWN,
  message,
  type CallOptions,
  type Kind,
  type Outcome,
} from './rest-fixture.js';

/** A started call, whatever the binding keeps of it. */
export type Opened = unknown;

export interface Ctx {
  call(op: OperationName, params?: Record<string, any>, o?: CallOptions): Promise<Outcome>;
  /** Start an operation; resolves once the agent has begun answering (a stream is open). Read it later. */
  open(op: OperationName, params?: Record<string, any>, o?: CallOptions): Promise<Opened>;
  read(opened: Opened): Promise<Outcome>;
}

export interface Case {
  name: string;
  agent: Kind;
  expect: 'ok' | A2AErrorKind;
  run(c: Ctx): Promise<Outcome>;
  check?(o: Outcome): void;
}

const REQ = { headers: { 'a2a-extensions': REQUIRED_EXT } };

async function task(c: Ctx, text = 'echo hi', o?: CallOptions): Promise<any> {
  const out = await c.call('SendMessage', { message: message(text) }, o);
  assert.ok(out.result?.task, `expected a task, got ${JSON.stringify(out)}`);
  return out.result.task;
}

/** Several steps folded into one outcome, so both bindings can be compared on all of them. */
const steps = (result: Record<string, unknown>): Outcome => ({
  status: 200,
  headers: new Headers(),
  result,
});

export const CASES: Case[] = [
  {
    name: '§3.1.1 SendMessage waits for the completed task and its artifacts',
    agent: 'full',
    expect: 'ok',
    run: (c) => c.call('SendMessage', { message: message('echo hello') }),
    check: (o) => {
      assert.equal(o.result.task.status.state, 'TASK_STATE_COMPLETED');
      assert.equal(o.result.task.artifacts[0].parts[0].text, 'echo hello');
    },
  },
  {
    name: 'SendMessage answered with a single Message',
    agent: 'full',
    expect: 'ok',
    run: (c) => c.call('SendMessage', { message: message('reply hi') }),
    check: (o) => assert.equal(o.result.message.role, 'ROLE_AGENT'),
  },
  {
    name: '§3.4 multi-turn: input-required, then the follow-up completes the task',
    agent: 'full',
    expect: 'ok',
    run: async (c) => {
      const first = await task(c, 'ask');
      assert.equal(first.status.state, 'TASK_STATE_INPUT_REQUIRED');
      return c.call('SendMessage', {
        message: message('blue', { taskId: first.id, contextId: first.contextId }),
      });
    },
    check: (o) => assert.equal(o.result.task.artifacts[0].parts[0].text, 'chose blue'),
  },
  {
    name: '§3.2.4 GetTask with historyLength 0 has no history',
    agent: 'full',
    expect: 'ok',
    run: async (c) => c.call('GetTask', { id: (await task(c)).id, historyLength: 0 }),
    check: (o) => {
      assert.equal(o.result.status.state, 'TASK_STATE_COMPLETED');
      assert.equal(o.result.history, undefined);
    },
  },
  {
    name: '§3.1.4 ListTasks by context, with artifacts, last page',
    agent: 'full',
    expect: 'ok',
    run: async (c) =>
      c.call('ListTasks', {
        contextId: (await task(c)).contextId,
        includeArtifacts: true,
        pageSize: 10,
      }),
    check: (o) => {
      assert.equal(o.result.tasks.length, 1);
      assert.equal(o.result.tasks[0].artifacts.length, 1);
      assert.equal(o.result.nextPageToken, '');
    },
  },
  {
    name: '§3.1.5 CancelTask of a working task → TASK_STATE_CANCELED',
    agent: 'full',
    expect: 'ok',
    run: async (c) => {
      const started = await c.call('SendMessage', {
        message: message('slow'),
        configuration: { returnImmediately: true },
      });
      return c.call('CancelTask', { id: started.result.task.id });
    },
    check: (o) => assert.equal(o.result.status.state, 'TASK_STATE_CANCELED'),
  },
  {
    name: '§3.1.2 SendStreamingMessage: the Task first, then updates, closed at completion',
    agent: 'full',
    expect: 'ok',
    run: (c) => c.call('SendStreamingMessage', { message: message('echo streamed') }),
    check: (o) => {
      assert.ok(o.events![0].task);
      assert.equal(o.events!.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
      assert.ok(
        o.events!.some((e) => e.artifactUpdate?.artifact.parts[0].text === 'echo streamed'),
      );
    },
  },
  {
    name: '§3.1.6 SubscribeToTask: the current Task, then events until the task stops',
    agent: 'full',
    expect: 'ok',
    run: async (c) => {
      const started = await c.call('SendMessage', {
        message: message('slow'),
        configuration: { returnImmediately: true },
      });
      const id = started.result.task.id;
      const subscription = await c.open('SubscribeToTask', { id });
      await c.call('CancelTask', { id });
      return c.read(subscription);
    },
    check: (o) => {
      assert.equal(o.events![0].task.status.state, 'TASK_STATE_WORKING');
      assert.equal(o.events!.at(-1).statusUpdate.status.state, 'TASK_STATE_CANCELED');
    },
  },
  {
    name: '§3.1.7–3.1.10 push config create, get, list, delete, then get → TaskNotFound',
    agent: 'full',
    expect: 'ok',
    run: async (c) => {
      const taskId = (await task(c)).id;
      const created = await c.call('CreateTaskPushNotificationConfig', {
        taskId,
        id: 'cfg-1',
        url: HOOK,
        token: 'tok',
      });
      const got = await c.call('GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' });
      const listed = await c.call('ListTaskPushNotificationConfigs', { taskId });
      const deleted = await c.call('DeleteTaskPushNotificationConfig', { taskId, id: 'cfg-1' });
      const gone = await c.call('GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' });
      return steps({
        created: created.result,
        got: got.result,
        listed: listed.result,
        deleted: deleted.result,
        gone: gone.error?.kind,
      });
    },
    check: (o) => {
      assert.equal(o.result.created.url, HOOK);
      assert.deepEqual(o.result.got, o.result.created);
      assert.equal(o.result.listed.configs.length, 1);
      assert.deepEqual(o.result.deleted, {});
      assert.equal(o.result.gone, 'TaskNotFound');
    },
  },
  {
    name: '§3.1.11 GetExtendedAgentCard for an authenticated caller',
    agent: 'full',
    expect: 'ok',
    run: (c) => c.call('GetExtendedAgentCard', {}, { headers: { authorization: 'Bearer good' } }),
    check: (o) => assert.equal(o.result.name, 'extended for alice'),
  },
  {
    name: '§3.6 A2A-Version 1.0.1 is 1.0',
    agent: 'full',
    expect: 'ok',
    run: (c) => c.call('ListTasks', {}, { headers: { 'a2a-version': '1.0.1' } }),
  },
  {
    name: '§4.6 an activated optional extension is echoed in A2A-Extensions',
    agent: 'full',
    expect: 'ok',
    run: (c) =>
      c.call(
        'SendMessage',
        { message: message('echo ext') },
        { headers: { 'a2a-extensions': `${OPTIONAL_EXT}, https://x.test/unknown` } },
      ),
    check: (o) => assert.equal(o.headers.get('a2a-extensions'), OPTIONAL_EXT),
  },
  {
    name: '§4.6 a required extension, when requested, is served and echoed (stream too)',
    agent: 'ext',
    expect: 'ok',
    run: (c) => c.call('SendStreamingMessage', { message: message('echo ext') }, REQ),
    check: (o) => {
      assert.equal(o.headers.get('a2a-extensions'), REQUIRED_EXT);
      assert.equal(o.events!.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    },
  },
  // Errors, one per kind the service produces (and several ways to reach the common ones).
  {
    name: 'GetTask of an unknown task',
    agent: 'full',
    expect: 'TaskNotFound',
    run: (c) => c.call('GetTask', { id: UNKNOWN }),
  },
  {
    name: 'CancelTask of an unknown task',
    agent: 'full',
    expect: 'TaskNotFound',
    run: (c) => c.call('CancelTask', { id: UNKNOWN }),
  },
  {
    name: 'SubscribeToTask of an unknown task',
    agent: 'full',
    expect: 'TaskNotFound',
    run: (c) => c.call('SubscribeToTask', { id: UNKNOWN }),
  },
  {
    name: 'SendMessage to an unknown taskId',
    agent: 'full',
    expect: 'TaskNotFound',
    run: (c) => c.call('SendMessage', { message: message('echo', { taskId: UNKNOWN }) }),
  },
  {
    name: 'push config for an unknown task',
    agent: 'full',
    expect: 'TaskNotFound',
    run: (c) => c.call('CreateTaskPushNotificationConfig', { taskId: UNKNOWN, url: HOOK }),
  },
  {
    name: '§3.1.5 CancelTask of a completed task',
    agent: 'full',
    expect: 'TaskNotCancelable',
    run: async (c) => c.call('CancelTask', { id: (await task(c)).id }),
  },
  {
    name: 'SendMessage to a terminal task',
    agent: 'full',
    expect: 'UnsupportedOperation',
    run: async (c) =>
      c.call('SendMessage', { message: message('more', { taskId: (await task(c)).id }) }),
  },
  {
    name: '§3.1.6 SubscribeToTask of a terminal task',
    agent: 'full',
    expect: 'UnsupportedOperation',
    run: async (c) => c.call('SubscribeToTask', { id: (await task(c)).id }),
  },
  {
    name: '§3.3.4 streaming without the capability',
    agent: 'bare',
    expect: 'UnsupportedOperation',
    run: (c) => c.call('SendStreamingMessage', { message: message('echo') }),
  },
  {
    name: '§3.3.4 subscribe without the capability',
    agent: 'bare',
    expect: 'UnsupportedOperation',
    run: (c) => c.call('SubscribeToTask', { id: UNKNOWN }),
  },
  ...(
    [
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ] as const
  ).map((op): Case => ({
    name: `§3.3.4 ${op} without the capability, even for an unknown task → -32003`,
    agent: 'bare',
    expect: 'PushNotificationNotSupported',
    run: (c) => c.call(op, { taskId: UNKNOWN, id: 'cfg', url: HOOK }),
  })),
  {
    name: '§3.3.4 extended card without the capability',
    agent: 'bare',
    expect: 'UnsupportedOperation',
    run: (c) => c.call('GetExtendedAgentCard'),
  },
  {
    name: 'extended card declared but not configured',
    agent: 'ext',
    expect: 'ExtendedAgentCardNotConfigured',
    run: (c) =>
      c.call(
        'GetExtendedAgentCard',
        {},
        { headers: { ...REQ.headers, authorization: 'Bearer good' } },
      ),
  },
  {
    name: 'extended card without credentials',
    agent: 'full',
    expect: 'Unauthenticated',
    run: (c) => c.call('GetExtendedAgentCard'),
  },
  {
    name: '§4.6.3 a required extension not requested',
    agent: 'ext',
    expect: 'ExtensionSupportRequired',
    run: (c) =>
      c.call(
        'SendMessage',
        { message: message('echo') },
        { headers: { 'a2a-extensions': OPTIONAL_EXT } },
      ),
  },
  {
    name: '§3.6.2 missing A2A-Version means 0.3',
    agent: 'full',
    expect: 'VersionNotSupported',
    run: (c) => c.call('ListTasks', {}, { headers: { 'a2a-version': '' } }),
  },
  {
    name: '§3.6.2 A2A-Version 0.3',
    agent: 'full',
    expect: 'VersionNotSupported',
    run: (c) => c.call('GetTask', { id: UNKNOWN }, { headers: { 'a2a-version': '0.3' } }),
  },
  {
    name: 'a part with no content',
    agent: 'full',
    expect: 'InvalidParams',
    run: (c) =>
      c.call('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{}] } }),
  },
  {
    name: 'negative historyLength',
    agent: 'full',
    expect: 'InvalidParams',
    run: (c) => c.call('GetTask', { id: UNKNOWN, historyLength: -1 }),
  },
  {
    name: 'pageSize above 100',
    agent: 'full',
    expect: 'InvalidParams',
    run: (c) => c.call('ListTasks', { pageSize: 101 }),
  },
  {
    name: 'unknown status filter',
    agent: 'full',
    expect: 'InvalidParams',
    run: (c) => c.call('ListTasks', { status: 'TASK_STATE_NAPPING' }),
  },
  {
    name: 'push config with a non-http url',
    agent: 'full',
    expect: 'InvalidParams',
    run: async (c) =>
      c.call('CreateTaskPushNotificationConfig', {
        taskId: (await task(c)).id,
        url: 'file:///etc/passwd',
      }),
  },
  {
    name: 'an agent that neither replies nor creates a task',
    agent: 'full',
    expect: 'InvalidAgentResponse',
    run: (c) => c.call('SendMessage', { message: message('empty') }),
  },
  {
    name: 'an agent that throws: Internal, nothing leaked',
    agent: 'full',
    expect: 'Internal',
    run: (c) => c.call('SendMessage', { message: message('boom') }),
    check: (o) => assert.doesNotMatch(JSON.stringify(o.error), /passwd|secret|at .*\.ts/),
  },
  {
    name: 'an agent refusing a media type',
    agent: 'full',
    expect: 'ContentTypeNotSupported',
    run: (c) => c.call('SendMessage', { message: message('media') }),
  },
];
