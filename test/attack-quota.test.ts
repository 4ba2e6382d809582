/**
 * Issue 28, byte limits that counted only some bytes, and callers without a quota. A task's size is
 * its serialized size: follow-ups of 1 MiB carried in `message.metadata`, `part.metadata`,
 * `part.filename`, `message.extensions` or `referenceTaskIds` once grew a task limited to 16 MiB to
 * 24 MB. A caller (the anonymous one included) may hold at most so many unfinished tasks and add so
 * many bytes per hour; past either it gets `Unavailable` (§3.3.2 files rate limits under system
 * errors) naming the quota, and other callers are not affected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentExecutor } from '../src/server/index.js';
import { call, failed, ok, say, start, type Transport } from './auth-fixture.js';

const MiB = 1024 * 1024;
const ask: AgentExecutor = (_ctx, task) => task.inputRequired('more?');
const who = (name: string) => ({ 'x-caller': name });
const authenticate = (req: { headers: Record<string, unknown> }) => {
  const id = req.headers['x-caller'];
  return typeof id === 'string' ? { id } : undefined;
};

/** A follow-up to `taskId` carrying about `size` characters in the member `where`. */
function followUp(taskId: string, where: string, size: number, n: number) {
  const blob = String(n % 10).repeat(size);
  const part: Record<string, unknown> = { text: 'more' };
  const message: Record<string, unknown> = {
    messageId: `m-${where}-${n}`,
    role: 'ROLE_USER',
    taskId,
    parts: [part],
  };
  if (where === 'message.metadata') message.metadata = { blob };
  if (where === 'part.metadata') part.metadata = { blob };
  if (where === 'part.filename') part.filename = blob;
  if (where === 'message.extensions') message.extensions = [blob];
  if (where === 'referenceTaskIds') message.referenceTaskIds = [blob];
  return { message };
}

test('a task limit counts every member: 24 follow-ups of 1 MiB in message.metadata stop at 16 MiB', async () => {
  const s = await start({}, { executor: ask, quota: false });
  try {
    const id = ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('start'))).task.id as string;
    let accepted = 0;
    let refusal = '';
    for (let n = 0; n < 24 && !refusal; n++) {
      const a = await call(
        s.origin,
        'jsonrpc',
        'SendMessage',
        followUp(id, 'message.metadata', MiB, n),
      );
      if (a.body.error) refusal = failed(a, 'UnsupportedOperation');
      else accepted++;
    }
    assert.match(refusal, /would exceed 16384 KiB of content/);
    assert.ok(accepted >= 14 && accepted < 16, `${accepted} follow-ups of 1 MiB accepted`);
    const got = await call(s.origin, 'jsonrpc', 'GetTask', { id });
    assert.ok(
      JSON.stringify(got.body).length < 16.5 * MiB,
      'the stored task stays within its limit',
    );
  } finally {
    await s.close();
  }
});

test('every member a client fills counts toward the task limit (part.metadata, filename, extensions, references)', async () => {
  const limit = 256 * 1024;
  const s = await start({}, { executor: ask, quota: false, limits: { taskBytes: limit } });
  try {
    for (const where of [
      'part.metadata',
      'part.filename',
      'message.extensions',
      'referenceTaskIds',
    ]) {
      for (const transport of ['jsonrpc', 'rest'] as Transport[]) {
        const id = ok(await call(s.origin, transport, 'SendMessage', say('start'))).task
          .id as string;
        let accepted = 0;
        let refused = false;
        for (let n = 0; n < 24 && !refused; n++) {
          const a = await call(
            s.origin,
            transport,
            'SendMessage',
            followUp(id, where, 16 * 1024, n),
          );
          if (a.status !== 200 || a.body?.error) {
            failed(a, 'UnsupportedOperation');
            refused = true;
          } else accepted++;
        }
        assert.ok(refused && accepted < 16, `${where} over ${transport}: ${accepted} accepted`);
      }
    }
    // Per request: one message larger than a whole task may be is refused before a task exists.
    const big = { message: { ...say('x').message, metadata: { blob: 'x'.repeat(limit) } } };
    assert.match(
      failed(await call(s.origin, 'jsonrpc', 'SendMessage', big), 'UnsupportedOperation'),
      /more than the 256 KiB of content this agent keeps per task/,
    );
  } finally {
    await s.close();
  }
});

test('§3.3.2 a caller past its live-task quota gets Unavailable naming it; others are unaffected; a finished task frees a slot', async () => {
  const s = await start({}, { executor: ask, authenticate, quota: { liveTasks: 3 } });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('go'), who('mallory'))).task.id,
      );
    for (const transport of ['jsonrpc', 'rest'] as Transport[]) {
      const a = await call(s.origin, transport, 'SendMessage', say('go'), who('mallory'));
      assert.match(failed(a, 'Unavailable'), /already has 3 unfinished tasks/);
      if (transport === 'rest') assert.equal(a.status, 503);
      const info = (a.body.error.data ?? a.body.error.details).find(
        (d: { reason?: string }) => d.reason,
      );
      assert.deepEqual(
        { reason: info.reason, quota: info.metadata.quota, limit: info.metadata.limit },
        { reason: 'QUOTA_EXCEEDED', quota: 'liveTasks', limit: '3' },
      );
    }
    // Another caller, and the anonymous one, have quotas of their own.
    ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('go'), who('alice')));
    ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('go')));
    // A follow-up to a task it holds is not a new task.
    ok(
      await call(
        s.origin,
        'jsonrpc',
        'SendMessage',
        { message: { ...say('more').message, taskId: ids[0] } },
        who('mallory'),
      ),
    );
    ok(await call(s.origin, 'jsonrpc', 'CancelTask', { id: ids[0] }, who('mallory')));
    ok(await call(s.origin, 'jsonrpc', 'SendMessage', say('go'), who('mallory')));
  } finally {
    await s.close();
  }
});

test('§3.3.2 a caller past its bytes per hour gets Unavailable with when to retry; the anonymous caller is one caller', async () => {
  const s = await start(
    {},
    { executor: (_c, t) => t.complete('ok'), authenticate, quota: { bytesPerHour: 64 * 1024 } },
  );
  try {
    const chunk = () => ({
      message: { ...say('x').message, metadata: { blob: 'b'.repeat(16 * 1024) } },
    });
    let sent = 0;
    let refusal = '';
    for (let i = 0; i < 10 && !refusal; i++) {
      const a = await call(s.origin, 'jsonrpc', 'SendMessage', chunk());
      if (a.body.error) refusal = failed(a, 'Unavailable');
      else sent++;
    }
    assert.equal(sent, 3, 'three 16 KiB messages fit in 64 KiB per hour');
    assert.match(
      refusal,
      /sent more than 64 KiB of messages in the last hour, .*; retry in \d+ s$/,
    );
    // Everyone without credentials is the anonymous caller: the budget is shared.
    failed(await call(s.origin, 'rest', 'SendMessage', chunk()), 'Unavailable');
    ok(await call(s.origin, 'jsonrpc', 'SendMessage', chunk(), who('alice')));
  } finally {
    await s.close();
  }
});
