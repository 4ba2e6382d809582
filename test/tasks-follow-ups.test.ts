/**
 * Follow-ups to a task that is not interrupted (§3.3.3, SPEC-NOTES 19): the message reaches the agent in
 * a new executor call, never overlapping one still running; an executor may refuse them, and every
 * refusal says what is true. Real servers on 127.0.0.1:0 (and the task manager alone for the bound).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import {
  createAgentServer,
  silentLogger,
  type AgentExecutor,
  type AgentServerOptions,
  type TaskUpdater,
} from '../src/server/index.js';
import { TaskManager } from '../src/server/tasks/manager.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { callContext } from '../src/server/dispatch/call-context.js';
import {
  BOUND_MS,
  Gate,
  card,
  msg,
  openStream,
  rpc,
  stateOf,
  waitForTask,
} from './core-fixture.js';

async function serve(executor: AgentExecutor, extra: Partial<AgentServerOptions> = {}) {
  const server = createAgentServer({ executor, card: (o) => card(o), ...extra });
  const url = `${await server.listen(0)}/rpc`;
  return { url, close: () => server.close(500) };
}

const bounded = (p: Promise<unknown>) =>
  Promise.race([p, new Promise((r) => setTimeout(r, BOUND_MS).unref())]);

/** An agent whose first call works and returns, keeping its updater; later calls finish the task. */
function keeper(kept: TaskUpdater[], seen: string[]): AgentExecutor {
  return (ctx, task) => {
    seen.push(ctx.text);
    if (!ctx.task) {
      task.working('queued');
      kept.push(task);
      return;
    }
    task.addArtifact({ name: 'answer', parts: [{ text: `saw ${ctx.task.history?.length}` }] });
    task.complete(`handled ${ctx.text}`);
  };
}

test('§3.3.3 a streamed follow-up to a WORKING task: the task first (message last in its history), then the new call, then the end', async () => {
  const kept: TaskUpdater[] = [];
  const seen: string[] = [];
  const s = await serve(keeper(kept, seen));
  try {
    const waiting = rpc(s.url, 'SendMessage', { message: msg('start') });
    const t = await waitForTask(s.url, await idOf(s.url, kept), () => true);
    const stream = await openStream(s.url, 'SendStreamingMessage', {
      message: msg('and also this', { taskId: t.id }),
    });
    const head = (await stream.next())!.data.result.task as Task;
    assert.equal(head.status.state, 'TASK_STATE_WORKING');
    assert.equal(head.history!.at(-1)!.parts[0]!.text, 'and also this');
    const rest = await stream.rest();
    assert.equal(rest.map(stateOf).filter(Boolean).at(-1), 'TASK_STATE_COMPLETED');
    assert.ok(stream.cleanEnd);
    assert.deepEqual(seen, ['start', 'and also this'], 'the agent was called once per message');
    const first = await waiting;
    assert.equal(
      first.body.result.task.status.state,
      'TASK_STATE_COMPLETED',
      'both calls answered',
    );
  } finally {
    await s.close();
  }
});

test('§3.3.3 a follow-up while the agent is still in its call waits for that call, then runs: calls never overlap', async () => {
  const gate = new Gate();
  let inCall = 0;
  let most = 0;
  const agent: AgentExecutor = async (ctx, task) => {
    most = Math.max(most, ++inCall);
    try {
      if (!ctx.task) {
        task.working('thinking');
        await bounded(gate.opened); // still in the call when the follow-up arrives
        return; // returns with the task WORKING
      }
      task.complete(`then ${ctx.text}`);
    } finally {
      inCall--;
    }
  };
  const arrived = new Gate();
  const s = await serve(agent, {
    hooks: {
      before: (call) => {
        if (call.operation === 'SendMessage' && call.params.message.taskId) arrived.open();
      },
    },
  });
  try {
    const t = (
      await rpc(s.url, 'SendMessage', {
        message: msg('first'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    const follow = rpc(s.url, 'SendMessage', { message: msg('second', { taskId: t.id }) });
    await arrived.opened;
    await new Promise((r) => setImmediate(r)); // the follow-up now waits for the first call
    gate.open();
    const r = await follow;
    assert.equal(r.body.result?.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(r.body));
    assert.equal(r.body.result.task.status.message.parts[0].text, 'then second');
    assert.equal(most, 1, 'the agent never ran two calls on the task at once');
  } finally {
    gate.open();
    await s.close();
  }
});

test("executor.workingFollowUps = 'refuse': a WORKING task refuses a message saying so; an input-required one takes it", async () => {
  const kept: TaskUpdater[] = [];
  const agent: AgentExecutor = (ctx, task) => {
    if (ctx.text === 'ask') return task.inputRequired('which one?');
    if (ctx.task) return task.complete(`took ${ctx.text}`);
    task.working('queued');
    kept.push(task);
  };
  agent.workingFollowUps = 'refuse';
  // Through a telemetry wrapper too: the flag is read from the agent, not from the wrapper.
  const s = await serve(agent, { telemetry: { executor: (e) => (ctx, t) => e(ctx, t) } });
  try {
    const t = (
      await rpc(s.url, 'SendMessage', {
        message: msg('work'),
        configuration: { returnImmediately: true },
      })
    ).body.result.task as Task;
    const refused = await rpc(s.url, 'SendMessage', { message: msg('more', { taskId: t.id }) });
    assert.equal(refused.body.error?.code, -32004, JSON.stringify(refused.body));
    assert.match(
      refused.body.error.message,
      /is TASK_STATE_WORKING; this agent takes a message for a task only when it asks for input/,
    );
    assert.doesNotMatch(refused.body.error.message, /processing/);
    const got = (await rpc(s.url, 'GetTask', { id: t.id })).body.result as Task;
    assert.ok(!got.history!.some((m) => m.parts[0]!.text === 'more'), 'nothing of it was kept');
    kept[0]!.complete();

    const asked = (await rpc(s.url, 'SendMessage', { message: msg('ask') })).body.result.task;
    const answered = await rpc(s.url, 'SendMessage', {
      message: msg('blue', { taskId: asked.id }),
    });
    assert.equal(answered.body.result?.task.status.message.parts[0].text, 'took blue');
  } finally {
    await s.close();
  }
});

test('a follow-up refused after waiting for a call that does not return says so (followUpWaitMs)', async () => {
  const gate = new Gate();
  const tasks = new TaskManager({
    store: new InMemoryTaskStore(),
    logger: silentLogger,
    followUpWaitMs: 20,
    executor: async (_ctx, task) => {
      task.working();
      await bounded(gate.opened);
      task.complete();
    },
  });
  const scope = { tenant: '', owner: '' };
  const message = (text: string, taskId?: string) => ({
    messageId: `m-${text}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
    ...(taskId ? { taskId } : {}),
  });
  // No server here keeps the process alive while the manager's (unref'd) wait runs.
  const alive = setInterval(() => undefined, 1000);
  try {
    const exec = await tasks.send({ message: message('first') }, scope, callContext());
    await exec.first;
    await assert.rejects(
      Promise.resolve(
        tasks.send({ message: message('second', exec.run.taskId) }, scope, callContext()),
      ),
      (err: Error) => {
        assert.match(err.message, /still handling an earlier message .* within 0\.02 s/);
        return true;
      },
    );
    assert.ok(!exec.run.task!.history!.some((m) => m.messageId === 'm-second'));
  } finally {
    clearInterval(alive);
    gate.open();
  }
});

/** The id of the task whose updater the agent kept last (waits, bounded, for the agent to keep one). */
async function idOf(url: string, kept: TaskUpdater[]): Promise<string> {
  const deadline = Date.now() + BOUND_MS;
  while (kept.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.ok(kept.length > 0, `no task started at ${url}`);
  return kept.at(-1)!.taskId;
}
