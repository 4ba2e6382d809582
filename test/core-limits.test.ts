/** Bounds on what one task and one store may hold: each with a default, configurable, and a clear error. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { card, msg, rpc } from './core-fixture.js';

/** Asks for more input every time, so a client can keep sending follow-ups to one task. */
const chatty: AgentExecutor = (ctx, task) => {
  if (ctx.text.startsWith('artifact ')) {
    task.addArtifact({ name: 'big', parts: [{ text: 'x'.repeat(Number(ctx.text.slice(9))) }] });
    task.complete();
    return;
  }
  task.inputRequired('more?');
};

async function serve(extra: Record<string, unknown>) {
  const server = createAgentServer({
    executor: chatty,
    card: (o) => card(o, { streaming: true }),
    ...extra,
  });
  const origin = await server.listen(0);
  return { server, url: `${origin}/rpc` };
}

describe('per-task limits', () => {
  it('a follow-up past limits.historyMessages is refused with a message that names the limit', async () => {
    const s = await serve({ limits: { historyMessages: 4 } });
    try {
      const first = (await rpc(s.url, 'SendMessage', { message: msg('hi') })).body.result
        .task as Task;
      const again = await rpc(s.url, 'SendMessage', { message: msg('and', { taskId: first.id }) });
      assert.equal((again.body.result.task as Task).history!.length, 4);
      const refused = await rpc(s.url, 'SendMessage', {
        message: msg('more', { taskId: first.id }),
      });
      assert.equal(refused.body.error?.code, -32004, JSON.stringify(refused.body));
      assert.match(
        refused.body.error.message,
        /holds 4 messages, the most this agent keeps per task/,
      );
      const stored = await rpc(s.url, 'GetTask', { id: first.id });
      assert.equal(stored.body.result.history.length, 4, 'the refused message was not stored');
    } finally {
      await s.server.close(500);
    }
  });

  it('follow-ups that would grow a task past limits.taskBytes are refused', async () => {
    const s = await serve({ limits: { taskBytes: 10_000 } });
    try {
      const first = (await rpc(s.url, 'SendMessage', { message: msg('hi') })).body.result
        .task as Task;
      const ok = await rpc(s.url, 'SendMessage', {
        message: msg('y'.repeat(6_000), { taskId: first.id }),
      });
      assert.ok(ok.body.result, JSON.stringify(ok.body));
      const refused = await rpc(s.url, 'SendMessage', {
        message: msg('z'.repeat(6_000), { taskId: first.id }),
      });
      assert.equal(refused.body.error?.code, -32004);
      assert.match(refused.body.error.message, /would exceed 10 KiB of content/);
    } finally {
      await s.server.close(500);
    }
  });

  it('an agent artifact past limits.taskBytes fails the task with that reason, and the process lives on', async () => {
    const s = await serve({ limits: { taskBytes: 10_000 } });
    try {
      const r = await rpc(s.url, 'SendMessage', { message: msg('artifact 20000') });
      const t = r.body.result.task as Task;
      assert.equal(t.status.state, 'TASK_STATE_FAILED');
      assert.match(t.status.message!.parts[0]!.text!, /would exceed 10 KiB/);
      assert.equal(t.artifacts, undefined, 'the oversize artifact was not kept');
      const next = await rpc(s.url, 'SendMessage', { message: msg('artifact 100') });
      assert.equal(next.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    } finally {
      await s.server.close(500);
    }
  });
});

describe('memory store bytes', () => {
  it('maxBytes evicts the oldest finished tasks, never a live one', async () => {
    const store = new InMemoryTaskStore({ maxBytes: 50_000 });
    const scope = { tenant: '', owner: '' };
    const live: Task = {
      id: 'live',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      history: [msg('w'.repeat(30_000))],
    };
    await store.saveTask(scope, live);
    for (let i = 0; i < 10; i++) {
      await store.saveTask(scope, {
        id: `done-${i}`,
        contextId: 'c',
        status: {
          state: 'TASK_STATE_COMPLETED',
          timestamp: new Date(1_700_000_000_000 + i).toISOString(),
        },
        artifacts: [{ artifactId: 'a', parts: [{ text: 'd'.repeat(10_000) }] }],
      });
    }
    assert.ok(await store.getTask(scope, 'live'), 'the live task stays');
    assert.equal(await store.getTask(scope, 'done-0'), undefined, 'the oldest finished task went');
    assert.ok(await store.getTask(scope, 'done-9'), 'the newest finished task stays');
    assert.ok(store.size < 11);
  });
});
