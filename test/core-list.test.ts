/** ListTasks over JSON-RPC on real HTTP (§3.1.4, SPEC-NOTES 8). Each test uses its own server. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../src/protocol/index.js';
import { badRequestFields, rpc, sendTask, start } from './core-fixture.js';

const tick = () => new Promise((r) => setTimeout(r, 3)); // distinct status timestamps (ms resolution)

async function withServer(fn: (url: string) => Promise<void>): Promise<void> {
  const s = await start();
  try {
    await fn(s.url);
  } finally {
    await s.close();
  }
}

test('§3.1.4 ListTasks: newest status timestamp first, pageSize default 50, totalSize, nextPageToken ""', () =>
  withServer(async (url) => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await sendTask(url, `echo ${i}`)).id);
      await tick();
    }
    const r = (await rpc(url, 'ListTasks', {})).body.result;
    assert.deepEqual(
      r.tasks.map((t: Task) => t.id),
      [...ids].reverse(),
    );
    assert.equal(r.pageSize, 50);
    assert.equal(r.totalSize, 4);
    assert.equal(r.nextPageToken, '');
  }));

test('§3.1.4 ListTasks orders by the last status change, not by creation', () =>
  withServer(async (url) => {
    const asked = await sendTask(url, 'ask');
    await tick();
    const later = await sendTask(url, 'echo');
    await tick();
    await sendTask(url, 'blue', {}, { taskId: asked.id }); // asked changes last
    const r = (await rpc(url, 'ListTasks', {})).body.result;
    assert.deepEqual(
      r.tasks.map((t: Task) => t.id),
      [asked.id, later.id],
    );
  }));

test('§3.1.4 ListTasks pageSize out of 1–100 → -32602; 1 and 100 accepted', () =>
  withServer(async (url) => {
    for (const pageSize of [0, 101, -1, 2.5]) {
      const r = await rpc(url, 'ListTasks', { pageSize });
      assert.equal(r.body.error?.code, -32602, `pageSize ${pageSize}`);
      assert.deepEqual(badRequestFields(r.body), ['pageSize']);
    }
    for (const pageSize of [1, 100])
      assert.equal((await rpc(url, 'ListTasks', { pageSize })).body.result.pageSize, pageSize);
  }));

test('§3.1.4 ListTasks cursor pagination: every task once, last page has nextPageToken ""', () =>
  withServer(async (url) => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await sendTask(url, 'echo')).id);
    const seen: string[] = [];
    let token = '';
    for (let page = 0; page < 10; page++) {
      const r = (
        await rpc(url, 'ListTasks', { pageSize: 2, ...(token ? { pageToken: token } : {}) })
      ).body.result;
      assert.equal(r.totalSize, 5);
      assert.equal(r.pageSize, 2);
      assert.equal(typeof r.nextPageToken, 'string');
      seen.push(...r.tasks.map((t: Task) => t.id));
      token = r.nextPageToken;
      if (token === '') break;
    }
    assert.equal(token, '');
    assert.equal(seen.length, 5);
    assert.deepEqual(new Set(seen), ids);
  }));

test('§3.1.4 ListTasks filters by contextId and by status', () =>
  withServer(async (url) => {
    const a = await sendTask(url, 'echo', {}, { contextId: 'ctx-a' });
    await sendTask(url, 'echo', {}, { contextId: 'ctx-b' });
    const asked = await sendTask(url, 'ask', {}, { contextId: 'ctx-a' });
    const byCtx = (await rpc(url, 'ListTasks', { contextId: 'ctx-a' })).body.result;
    assert.deepEqual(new Set(byCtx.tasks.map((t: Task) => t.id)), new Set([a.id, asked.id]));
    assert.equal(byCtx.totalSize, 2);
    const byStatus = (await rpc(url, 'ListTasks', { status: 'TASK_STATE_INPUT_REQUIRED' })).body
      .result;
    assert.deepEqual(
      byStatus.tasks.map((t: Task) => t.id),
      [asked.id],
    );
    const both = (
      await rpc(url, 'ListTasks', { contextId: 'ctx-b', status: 'TASK_STATE_INPUT_REQUIRED' })
    ).body.result;
    assert.deepEqual(both.tasks, []);
    assert.equal(both.totalSize, 0);
    assert.equal(both.nextPageToken, '');
    const bad = await rpc(url, 'ListTasks', { status: 'working' });
    assert.equal(bad.body.error.code, -32602);
  }));

test('§3.1.4 ListTasks statusTimestampAfter is inclusive (≥)', () =>
  withServer(async (url) => {
    const first = await sendTask(url, 'echo');
    await tick();
    const second = await sendTask(url, 'echo');
    const at = second.status.timestamp!;
    const r = (await rpc(url, 'ListTasks', { statusTimestampAfter: at })).body.result;
    assert.deepEqual(
      r.tasks.map((t: Task) => t.id),
      [second.id],
      'a task whose timestamp equals the bound is listed',
    );
    const all = (await rpc(url, 'ListTasks', { statusTimestampAfter: first.status.timestamp })).body
      .result;
    assert.equal(all.totalSize, 2);
    const bad = await rpc(url, 'ListTasks', { statusTimestampAfter: 'yesterday' });
    assert.deepEqual(badRequestFields(bad.body), ['statusTimestampAfter']);
  }));

test('§3.1.4 ListTasks without includeArtifacts has no artifacts member; with it, artifacts are there', () =>
  withServer(async (url) => {
    await sendTask(url, 'echo');
    await sendTask(url, 'ask');
    const plain = (await rpc(url, 'ListTasks', {})).body.result;
    for (const t of plain.tasks) assert.equal('artifacts' in t, false);
    const withA = (await rpc(url, 'ListTasks', { includeArtifacts: true })).body.result;
    const echoed = withA.tasks.find((t: Task) => t.history?.[0]?.parts[0]?.text === 'echo');
    assert.equal(echoed.artifacts.length, 1);
    const noA = (await rpc(url, 'ListTasks', { includeArtifacts: false })).body.result;
    for (const t of noA.tasks) assert.equal('artifacts' in t, false);
  }));

test('§3.2.4 ListTasks historyLength 0 → no history member; N → N most recent', () =>
  withServer(async (url) => {
    await sendTask(url, 'echo');
    const zero = (await rpc(url, 'ListTasks', { historyLength: 0 })).body.result;
    assert.equal('history' in zero.tasks[0], false);
    const one = (await rpc(url, 'ListTasks', { historyLength: 1 })).body.result;
    assert.equal(one.tasks[0].history.length, 1);
  }));

test("§13.1 ListTasks shows only the caller's tasks", async () => {
  const s = await start(
    { streaming: true },
    {
      authenticate: (req) => {
        const who = req.headers['x-user'];
        return typeof who === 'string' ? { id: who } : undefined;
      },
    },
  );
  try {
    const h = (u: string) => ({ 'A2A-Version': '1.0', 'x-user': u });
    const send = (u: string) =>
      rpc(
        s.url,
        'SendMessage',
        { message: { messageId: `m-${u}`, role: 'ROLE_USER', parts: [{ text: 'echo' }] } },
        h(u),
      );
    const alice = (await send('alice')).body.result.task as Task;
    await send('bob');
    const list = (await rpc(s.url, 'ListTasks', {}, h('alice'))).body.result;
    assert.deepEqual(
      list.tasks.map((t: Task) => t.id),
      [alice.id],
    );
    assert.equal(list.totalSize, 1);
    assert.equal((await rpc(s.url, 'GetTask', { id: alice.id }, h('bob'))).body.error.code, -32001);
  } finally {
    await s.close();
  }
});
