/**
 * The server follows the task, not the executor function (§3.2.2, §3.1.2): an agent may return and
 * finish later. Plus what happens when nobody finishes, when saves fail, and after a crash.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Task } from '../src/protocol/index.js';
import {
  createAgentServer,
  silentLogger,
  type AgentExecutor,
  type TaskUpdater,
} from '../src/server/index.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import { card, msg, openStream, rpc, stateOf, waitForTask } from './core-fixture.js';

/** Returns after `working()`; the test finishes the task through the kept updater. */
function deferredAgent(kept: TaskUpdater[]): AgentExecutor {
  return (ctx, task) => {
    if (ctx.text === 'forget') {
      task.working('on it');
      return; // and never finishes
    }
    task.working('queued');
    kept.push(task);
  };
}

async function serve(executor: AgentExecutor, extra: Record<string, unknown> = {}) {
  const server = createAgentServer({
    executor,
    card: (o) => card(o, { streaming: true }),
    // These agents fail saves and leave tasks unfinished on purpose: the stderr lines would be noise.
    logger: silentLogger,
    ...extra,
  });
  const origin = await server.listen(0);
  return { server, url: `${origin}/rpc` };
}

describe('an agent that returns before it finishes', () => {
  const kept: TaskUpdater[] = [];
  let s: Awaited<ReturnType<typeof serve>>;
  before(async () => (s = await serve(deferredAgent(kept))));
  after(() => s.server.close(500));

  it('§3.2.2 a blocking SendMessage answers with the task once it completes, not when the executor returns', async () => {
    const pending = rpc(s.url, 'SendMessage', { message: msg('later') });
    await until(() => kept.length === 1);
    setTimeout(() => {
      kept[0]!.addArtifact({ name: 'result', parts: [{ text: 'done later' }] });
      kept[0]!.complete();
    }, 50);
    const r = await pending;
    const t = r.body.result.task as Task;
    assert.equal(t.status.state, 'TASK_STATE_COMPLETED');
    assert.deepEqual(
      t.artifacts!.map((a) => a.name),
      ['result'],
    );
  });

  it('§3.1.2 the stream carries the events sent after the executor returned, up to COMPLETED', async () => {
    const stream = await openStream(s.url, 'SendStreamingMessage', { message: msg('later') });
    const first = await stream.next();
    assert.ok(first);
    await until(() => kept.length === 2);
    kept[1]!.working('half way');
    kept[1]!.complete('finished');
    const states = [first, ...(await stream.rest())].map(stateOf);
    assert.equal(states.at(-1), 'TASK_STATE_COMPLETED');
    assert.ok(states.includes('TASK_STATE_WORKING'));
    assert.equal(stream.cleanEnd, true);
  });

  it('§3.3.3 a message to a task still WORKING after its agent returned is handed to the agent in a new call', async () => {
    const started = await rpc(s.url, 'SendMessage', {
      message: msg('later'),
      configuration: { returnImmediately: true },
    });
    const t = started.body.result.task as Task;
    await until(() => kept.length === 3);
    const first = rpc(s.url, 'SendMessage', { message: msg('wait for it', { taskId: t.id }) });
    await until(() => kept.length === 4); // the agent was called again, with the follow-up
    kept[3]!.complete('both answered');
    const r = await first;
    assert.equal(r.body.result?.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(r.body));
    assert.ok(r.body.result.task.history.some((m: any) => m.parts[0]?.text === 'wait for it'));
    kept[2]!.complete('too late: the task is already completed');
    const done = await waitForTask(s.url, t.id, (x) => x.status.state === 'TASK_STATE_COMPLETED');
    assert.equal(done.status.message?.parts[0]?.text, 'both answered');
  });
});

describe('idle limit', () => {
  it('a task whose agent returned without finishing fails after idleTimeoutMs, saying why', async () => {
    const s = await serve(deferredAgent([]), { idleTimeoutMs: 100 });
    try {
      const r = await rpc(s.url, 'SendMessage', { message: msg('forget') });
      const t = r.body.result.task as Task;
      assert.equal(t.status.state, 'TASK_STATE_FAILED');
      assert.match(t.status.message!.parts[0]!.text!, /no event for .* returned without finishing/);
    } finally {
      await s.server.close(500);
    }
  });
});

describe('honest persistence', () => {
  class BrokenStore extends InMemoryTaskStore {
    broken = false;
    override async saveTask(...args: Parameters<InMemoryTaskStore['saveTask']>): Promise<void> {
      if (this.broken) throw new Error('disk I/O error');
      await super.saveTask(...args);
    }
  }
  const echo: AgentExecutor = (ctx, task) => {
    task.addArtifact({ parts: [{ text: ctx.text }] });
    task.complete();
  };

  it('a failed save fails SendMessage instead of answering COMPLETED, and the operator hook hears of it', async () => {
    const store = new BrokenStore();
    const seen: string[] = [];
    const s = await serve(echo, {
      store,
      onStoreError: (_e: unknown, i: { taskId: string }) => seen.push(i.taskId),
    });
    try {
      store.broken = true;
      const r = await rpc(s.url, 'SendMessage', { message: msg('x') });
      assert.equal(r.body.result, undefined);
      assert.equal(r.body.error.code, -32603);
      assert.match(r.body.error.message, /could not be saved/);
      assert.equal(seen.length, 1);
    } finally {
      await s.server.close(500);
    }
  });

  it('a failed save ends the stream with an error event, not a clean COMPLETED', async () => {
    const store = new BrokenStore();
    const s = await serve(echo, { store });
    try {
      store.broken = true;
      const stream = await openStream(s.url, 'SendStreamingMessage', { message: msg('x') });
      const events = await stream.rest();
      const last = events.at(-1)!;
      assert.equal(last.data.error?.code, -32603, JSON.stringify(events.map((e) => e.data)));
    } finally {
      await s.server.close(500);
    }
  });
});

describe('recovery after a crash', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'a2a-recover-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('tasks left WORKING by a previous process are FAILED at start, with a message that says why', async () => {
    const file = path.join(dir, 'crash.db');
    const first = new SqliteTaskStore({ path: file });
    const task: Task = {
      id: 't-crashed',
      contextId: 'c-1',
      status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
      history: [msg('long job')],
    };
    await first.saveTask({ tenant: '', owner: '' }, task);
    await first.close(); // the process "died" with the task WORKING

    const s = await serve(() => undefined, { store: new SqliteTaskStore({ path: file }) });
    try {
      const got = await rpc(s.url, 'GetTask', { id: 't-crashed' });
      const t = got.body.result as Task;
      assert.equal(t.status.state, 'TASK_STATE_FAILED');
      assert.match(t.status.message!.parts[0]!.text!, /stopped .* before finishing/);
    } finally {
      await s.server.close(500);
    }
  });

  it("with recovery: 'resume' the executor gets the task's last user message again", async () => {
    const file = path.join(dir, 'resume.db');
    const first = new SqliteTaskStore({ path: file });
    await first.saveTask(
      { tenant: '', owner: '' },
      {
        id: 't-resume',
        contextId: 'c-2',
        status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
        history: [msg('resume me')],
      },
    );
    await first.close();
    const texts: string[] = [];
    const s = await serve(
      (ctx, task) => {
        texts.push(ctx.text);
        task.complete('resumed');
      },
      { store: new SqliteTaskStore({ path: file }), recovery: 'resume' },
    );
    try {
      const t = await waitForTask(
        s.url,
        't-resume',
        (x) => x.status.state === 'TASK_STATE_COMPLETED',
      );
      assert.equal(t.status.message!.parts[0]!.text, 'resumed');
      assert.deepEqual(texts, ['resume me']);
    } finally {
      await s.server.close(500);
    }
  });
});

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), 'condition reached within 3 s');
}
