import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A2AClient, isA2AClientError, type A2AClientOptions } from '../src/client/index.js';
import type { StreamResponse } from '../src/protocol/index.js';
import {
  makeCard,
  restCard,
  rpcResult,
  sseEvent,
  startServer,
  startSse,
  statusUpdate,
  task,
  userMessage,
} from './client-fixture.js';

const fastResume: A2AClientOptions = { resume: { baseDelayMs: 1, maxDelayMs: 2 } };

async function collect(it: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

test('§3.5.2 a stream dropped mid-way is resumed with SubscribeToTask and Last-Event-ID (JSON-RPC)', async () => {
  let connection = 0;
  const s = await startServer((req, res) => {
    const id = req.json.id;
    startSse(res);
    if (connection++ === 0) {
      sseEvent(res, rpcResult(id, { task: task('t1', 'TASK_STATE_SUBMITTED') }), '1');
      sseEvent(res, rpcResult(id, statusUpdate('t1', 'TASK_STATE_WORKING')), '2');
      // The connection breaks before the terminal event.
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    // The agent replays from after Last-Event-ID; a repeated event (id 2) must be dropped by the client.
    sseEvent(res, rpcResult(id, statusUpdate('t1', 'TASK_STATE_WORKING')), '2');
    sseEvent(res, rpcResult(id, statusUpdate('t1', 'TASK_STATE_COMPLETED')), '3');
    res.end();
  });
  try {
    const client = new A2AClient(makeCard(s.url), fastResume);
    const events = await collect(client.sendStreamingMessage(userMessage('long job')));
    assert.deepEqual(
      events.map((e) =>
        'task' in e ? e.task.status.state : 'statusUpdate' in e ? e.statusUpdate.status.state : '?',
      ),
      ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'],
    );
    assert.equal(s.requests.length, 2);
    assert.equal(s.requests[0]?.json.method, 'SendStreamingMessage');
    assert.equal(s.requests[1]?.json.method, 'SubscribeToTask');
    assert.deepEqual(s.requests[1]?.json.params, { id: 't1' });
    assert.equal(s.requests[1]?.headers['last-event-id'], '2');
  } finally {
    await s.close();
  }
});

test('§3.5.2 REST subscribe resumes after a drop, sending Last-Event-ID', async () => {
  let connection = 0;
  const s = await startServer((_req, res) => {
    startSse(res);
    if (connection++ === 0) {
      sseEvent(res, { task: task('t7') }, 'a');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    sseEvent(res, statusUpdate('t7', 'TASK_STATE_INPUT_REQUIRED'), 'b');
    res.end();
  });
  try {
    const client = new A2AClient(restCard(s.url), fastResume);
    const events = await collect(client.subscribeToTask('t7'));
    assert.equal(events.length, 2);
    assert.deepEqual(
      s.requests.map((r) => `${r.method} ${r.path} ${r.headers['last-event-id'] ?? '-'}`),
      ['POST /a2a/rest/tasks/t7:subscribe -', 'POST /a2a/rest/tasks/t7:subscribe a'],
    );
  } finally {
    await s.close();
  }
});

test('resumption is bounded: an agent that keeps dropping yields a NETWORK error after maxRetries', async () => {
  const s = await startServer((req, res) => {
    startSse(res);
    sseEvent(res, rpcResult(req.json.id, { task: task('t1') }), '1');
    setTimeout(() => res.socket?.destroy(), 10);
  });
  try {
    const client = new A2AClient(makeCard(s.url), {
      resume: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    await assert.rejects(
      collect(client.subscribeToTask('t1')),
      (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK',
    );
    assert.equal(s.requests.length, 3);
  } finally {
    await s.close();
  }
});

test('no resumption after a final event, or with resume: false', async () => {
  let mode = 'final';
  const s = await startServer((req, res) => {
    startSse(res);
    if (mode === 'final') {
      sseEvent(res, rpcResult(req.json.id, { task: task('t1', 'TASK_STATE_COMPLETED') }), '1');
      setTimeout(() => res.socket?.destroy(), 10);
    } else if (mode === 'off') {
      sseEvent(res, rpcResult(req.json.id, { task: task('t1') }), '1');
      setTimeout(() => res.socket?.destroy(), 10);
    }
  });
  try {
    const client = new A2AClient(makeCard(s.url), fastResume);
    assert.equal((await collect(client.subscribeToTask('t1'))).length, 1);
    assert.equal(s.requests.length, 1);

    mode = 'off';
    const noResume = new A2AClient(makeCard(s.url), { resume: false });
    await assert.rejects(
      collect(noResume.subscribeToTask('t1')),
      (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK',
    );
    assert.equal(s.requests.length, 2);
  } finally {
    await s.close();
  }
});

test('a caller-supplied lastEventId is sent on the first connection', async () => {
  const s = await startServer((req, res) => {
    startSse(res);
    sseEvent(res, rpcResult(req.json.id, statusUpdate('t1', 'TASK_STATE_COMPLETED')), '9');
    res.end();
  });
  try {
    const client = new A2AClient(makeCard(s.url));
    await collect(client.subscribeToTask('t1', { lastEventId: '8' }));
    assert.equal(s.requests[0]?.headers['last-event-id'], '8');
  } finally {
    await s.close();
  }
});

test('breaking out of a stream closes the connection', async () => {
  let closed = false;
  const s = await startServer((req, res) => {
    startSse(res);
    sseEvent(res, rpcResult(req.json.id, { task: task('t1') }), '1');
    res.on('close', () => (closed = true));
  });
  try {
    const client = new A2AClient(makeCard(s.url));
    for await (const _ of client.subscribeToTask('t1')) break;
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(closed, true);
  } finally {
    await s.close();
  }
});

test('an agent that ends a stream before a final state (e.g. a slow reader) is resubscribed from the last id', async () => {
  let connection = 0;
  const s = await startServer((req, res) => {
    startSse(res);
    if (connection++ === 0) {
      sseEvent(res, rpcResult(req.json.id, { task: task('t1') }), '4');
      sseEvent(
        res,
        rpcResult(req.json.id, {
          artifactUpdate: {
            taskId: 't1',
            contextId: 'ctx-1',
            artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
          },
        }),
        '5',
      );
      return res.end();
    }
    sseEvent(res, rpcResult(req.json.id, statusUpdate('t1', 'TASK_STATE_COMPLETED')), '6');
    res.end();
  });
  try {
    const client = new A2AClient(makeCard(s.url), fastResume);
    assert.equal((await collect(client.subscribeToTask('t1'))).length, 3);
    assert.equal(s.requests[1]?.headers['last-event-id'], '5');
    // Bounded: an agent that always ends early is resubscribed maxRetries times, then the stream just ends.
    const bounded = await startServer((req, res) => {
      startSse(res);
      sseEvent(res, rpcResult(req.json.id, { task: task('t2') }));
      res.end();
    });
    try {
      const c2 = new A2AClient(makeCard(bounded.url), {
        resume: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      });
      assert.equal((await collect(c2.subscribeToTask('t2'))).length, 3);
      assert.equal(bounded.requests.length, 3);
    } finally {
      await bounded.close();
    }
  } finally {
    await s.close();
  }
});

test('a silent (half-open) stream is treated as dropped after streamIdleTimeoutMs and resumed', async () => {
  let connection = 0;
  const s = await startServer((req, res) => {
    startSse(res);
    if (connection++ === 0) {
      sseEvent(res, rpcResult(req.json.id, { task: task('t1') }), '1');
      return; // then silence, connection left open
    }
    sseEvent(res, rpcResult(req.json.id, statusUpdate('t1', 'TASK_STATE_COMPLETED')), '2');
    res.end();
  });
  try {
    const client = new A2AClient(makeCard(s.url), { ...fastResume, streamIdleTimeoutMs: 100 });
    assert.equal((await collect(client.subscribeToTask('t1'))).length, 2);
    assert.equal(s.requests[1]?.headers['last-event-id'], '1');
  } finally {
    await s.close();
  }
});
