/** The executor API as agent authors use it, including the ways it gets passed around. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { type AgentExecutor } from '../src/server/index.js';
import { OPERATIONS_BY_METHOD } from '../src/protocol/index.js';
import { OperationDispatcher } from '../src/server/dispatch/dispatcher.js';
import { callContext } from '../src/server/dispatch/call-context.js';

const card = {
  name: 'detached',
  description: 'd',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

async function send(executor: AgentExecutor): Promise<{ task: Task; extensions: Set<string> }> {
  const service = new OperationDispatcher({ card, executor });
  const cc = callContext({ version: '1.0' });
  const op = OPERATIONS_BY_METHOD.get('SendMessage')!;
  const r = (await service.call(
    op,
    { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    cc,
  )) as { task: Task };
  return { task: r.task, extensions: cc.activatedExtensions };
}

test('updater methods work detached from the updater (callbacks, wrappers, destructuring)', async () => {
  const { task } = await send(async (ctx, updater) => {
    const { working, addArtifact } = updater;
    working('starting');
    addArtifact({ name: 'out', parts: [{ text: ctx.text }] });
    await Promise.resolve('done').then(updater.complete);
  });
  assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
  assert.equal(task.status.message?.parts[0]?.text, 'done');
  assert.deepEqual(
    task.artifacts?.map((a) => a.name),
    ['out'],
  );
});

test('ctx.activateExtension works detached too', async () => {
  const { extensions } = await send((ctx, updater) => {
    const activate = ctx.activateExtension;
    activate('https://example.com/ext/v1');
    updater.complete();
  });
  assert.deepEqual([...extensions], ['https://example.com/ext/v1']);
});

test('a synchronous agent: its finished task is the answer, with the first message in its history', async () => {
  const { task } = await send((ctx, updater) => {
    updater.working();
    updater.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
    updater.complete();
  });
  assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
  assert.equal(task.history?.length, 1);
});
