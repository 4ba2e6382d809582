/** Finished runs kept for Last-Event-ID resumes are bounded: the oldest go first (memory under heavy streaming). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskManager } from '../src/server/tasks/manager.js';
import { InMemoryTaskStore } from '../src/server/store/memory.js';
import { silentLogger } from '../src/server/index.js';
import { callContext } from '../src/server/dispatch/call-context.js';

test('streamed runs are retained for resumes, at most maxRetainedRuns of them, oldest dropped first', async () => {
  const tasks = new TaskManager({
    store: new InMemoryTaskStore(),
    executor: (_ctx, task) => task.complete('done'),
    logger: silentLogger,
    maxRetainedRuns: 2,
  });
  const scope = { tenant: '', owner: '' };
  const ids: string[] = [];
  const firstSeq: number[] = [];
  for (let i = 0; i < 3; i++) {
    const exec = await tasks.send(
      { message: { messageId: `m${i}`, role: 'ROLE_USER', parts: [{ text: 'go' }] } },
      scope,
      callContext(),
      (_event, seq) => void (firstSeq[i] ??= seq), // a stream listens: the run is kept for resumes once finished
    );
    await exec.done;
    await exec.run.calls.settled;
    ids.push(exec.run.taskId);
  }
  assert.equal(tasks.liveRun(scope, ids[0]!), undefined, 'the oldest finished run was dropped');
  assert.ok(tasks.liveRun(scope, ids[1]!));
  assert.ok(tasks.liveRun(scope, ids[2]!));
  const missed = tasks.liveRun(scope, ids[2]!)!.eventsAfter(firstSeq[2]!);
  assert.ok(
    missed && missed.length > 0,
    'a retained run still replays what came after the first event',
  );
});
