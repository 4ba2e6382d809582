/**
 * Streams on the Web path, with no node:http in the loop: SSE comes back as a ReadableStream,
 * bursts leave as one chunk, a client that stops reading is cut off at the buffer cap and resumes
 * with Last-Event-ID, and a client that goes away (body cancelled, or request.signal aborted)
 * releases its subscription and aborts the agent's signal.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createAgentServer, type AgentExecutor, type AgentServer } from '../src/server/index.js';
import { toFetchHandler, type FetchHandler } from '../src/server/adapters/fetch.js';
import { eventOf, readFrames, webRequest } from './fetch-fixture.js';
import { BINDINGS, BOUND_MS, cardFor, message, type Binding } from './rest-fixture.js';

const gates = new Map<string, () => void>();
const aborted = new Set<string>();
/** How many `burst` runs have finished all their updates. */
let burstsOver = 0;

/** `wait NAME`: work, then wait for gate NAME (or the signal); `burst N`: N large updates at once. */
const executor: AgentExecutor = async (ctx, task) => {
  const [cmd, arg = ''] = ctx.text.split(' ');
  if (cmd === 'burst') {
    task.working();
    for (let i = 0; i < Number(arg); i++) task.working(`update ${i} ${'x'.repeat(1000)}`);
    task.addArtifact({ name: 'done', parts: [{ text: 'burst over' }] });
    task.complete();
    burstsOver++;
    return;
  }
  task.working('waiting');
  await new Promise<void>((resolve) => {
    gates.set(arg, resolve);
    ctx.signal.addEventListener('abort', () => {
      aborted.add(ctx.taskId);
      resolve();
    });
    setTimeout(resolve, BOUND_MS).unref();
  });
  if (ctx.signal.aborted) return;
  task.addArtifact({ name: 'done', parts: [{ text: `opened ${arg}` }] });
  task.complete();
};

const servers: AgentServer[] = [];
after(async () => {
  for (const s of servers) await s.close(100);
});

function agent(
  sse: { keepAliveMs?: number } = {},
  maxStreamBufferBytes?: number,
): {
  server: AgentServer;
  handle: FetchHandler;
} {
  const server = createAgentServer({
    executor,
    card: (o) => cardFor(o, 'full'),
    sse: { keepAliveMs: 0, ...sse },
    ...(maxStreamBufferBytes ? { maxStreamBufferBytes } : {}),
  });
  servers.push(server);
  return { server, handle: toFetchHandler(server, { origin: 'https://agent.example' }) };
}

/** The StreamResponse of an event frame, whichever binding sent it. */
const payload = (b: Binding, frame: string) =>
  b === 'jsonrpc' ? eventOf(frame).data.result : eventOf(frame).data;
const SCOPE = { tenant: '', owner: '' };

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('SSE as a ReadableStream', () => {
  for (const b of BINDINGS) {
    test(`[${b}] §3.1.2 a stream is a text/event-stream Response; one burst of events is one chunk`, async () => {
      const { handle } = agent();
      const res = await webRequest(handle, b, 'SendStreamingMessage', {
        message: message('burst 3'),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/event-stream');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('connection'), null, 'connection management is the host’s');
      const { frames, chunks, ended } = await readFrames(res.body!);
      assert.ok(ended);
      assert.equal(chunks.length, 1, 'a synchronous agent’s whole stream leaves in one chunk');
      assert.equal(frames.length, 7);
      assert.ok(
        frames.every((f) => eventOf(f).id !== undefined),
        'every event has an id',
      );
      assert.ok(payload(b, frames[0]!).task);
      assert.equal(payload(b, frames.at(-1)!).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    });

    test(`[${b}] SSE resume: the body cancelled mid-stream releases the subscription; Last-Event-ID replays what was missed`, async () => {
      const { server, handle } = agent();
      const gate = `resume-${b}`;
      const started = await webRequest(handle, 'rest', 'SendMessage', {
        message: message(`wait ${gate}`),
        configuration: { returnImmediately: true },
      });
      const id = (await started.json()).task.id as string;
      const sub = await webRequest(handle, b, 'SubscribeToTask', { id });
      assert.equal(sub.status, 200);
      const first = await readFrames(sub.body!, (f) => f.length >= 1);
      const firstId = eventOf(first.frames[0]!).id!;
      assert.equal(server.service.tasks.liveRun(SCOPE, id)?.listening, true);
      await sub.body!.cancel(); // the client goes away
      assert.equal(
        server.service.tasks.liveRun(SCOPE, id)?.listening ?? false,
        false,
        'the subscription is released',
      );

      gates.get(gate)!();
      await until(
        'the task to complete',
        () =>
          server.service.tasks.liveRun(SCOPE, id)?.task?.status.state === 'TASK_STATE_COMPLETED',
      );
      const again = await webRequest(
        handle,
        b,
        'SubscribeToTask',
        { id },
        { headers: { 'last-event-id': firstId } },
      );
      assert.equal(again.status, 200);
      const rest = await readFrames(again.body!);
      assert.ok(rest.ended);
      const kinds = rest.frames.map((f) => Object.keys(payload(b, f))[0]);
      assert.deepEqual(
        kinds,
        ['artifactUpdate', 'statusUpdate'],
        'the continuation of the earlier stream, in order',
      );
      assert.ok(
        rest.frames.every((f) => Number(eventOf(f).id) > Number(firstId)),
        'only what was missed',
      );
    });

    test(`[${b}] request.signal aborted mid-stream: the subscription is released, the agent runs on undisturbed`, async () => {
      const { server, handle } = agent();
      const gate = `abort-${b}`;
      const started = await webRequest(handle, 'rest', 'SendMessage', {
        message: message(`wait ${gate}`),
        configuration: { returnImmediately: true },
      });
      const id = (await started.json()).task.id as string;
      const client = new AbortController();
      const res = await webRequest(handle, b, 'SubscribeToTask', { id }, { signal: client.signal });
      await readFrames(res.body!, (f) => f.length >= 1);
      assert.equal(server.service.tasks.liveRun(SCOPE, id)?.listening, true);
      client.abort();
      assert.equal(
        server.service.tasks.liveRun(SCOPE, id)?.listening,
        false,
        'released as the signal aborts',
      );
      await assert.rejects(
        res.body!.getReader().read(),
        'the client sees the stream fail, not a clean end',
      );
      gates.get(gate)!();
      await until(
        'the task to complete',
        () =>
          server.service.tasks.liveRun(SCOPE, id)?.task?.status.state === 'TASK_STATE_COMPLETED',
      );
      assert.ok(!aborted.has(id), 'a stream client leaving is not a cancellation');
    });

    test(`[${b}] SendStreamingMessage whose client leaves: the stream ends at once, the task completes`, async () => {
      const { server, handle } = agent();
      const client = new AbortController();
      const gate = `leave-${b}`;
      const res = await webRequest(
        handle,
        b,
        'SendStreamingMessage',
        { message: message(`wait ${gate}`) },
        { signal: client.signal },
      );
      const first = await readFrames(res.body!, (f) => f.length >= 1);
      const id = payload(b, first.frames[0]!).task.id as string;
      client.abort();
      await assert.rejects(res.body!.getReader().read());
      gates.get(gate)!();
      await until(
        'the task to complete',
        () =>
          server.service.tasks.liveRun(SCOPE, id)?.task?.status.state === 'TASK_STATE_COMPLETED',
      );
      assert.ok(!aborted.has(id));
    });

    test(`[${b}] back-pressure: a client that does not read is dropped at the buffer cap with a SLOW_READER error, then resumes`, async () => {
      const { handle } = agent({}, 8 * 1024);
      const before = burstsOver;
      const res = await webRequest(handle, b, 'SendStreamingMessage', {
        message: message('burst 200'),
      });
      // Nothing is read until the agent has finished its 200 updates of ~1 kB.
      await until('the burst is over', () => burstsOver > before);
      const got = await readFrames(res.body!);
      assert.ok(got.ended, 'the stream was ended, not left to grow');
      // Its last event says why: Unavailable (-32012 / HTTP 503) with reason SLOW_READER.
      const why = eventOf(got.frames.pop()!);
      assert.equal(why.id, undefined);
      const error = why.data.error;
      assert.equal(error.code, b === 'jsonrpc' ? -32012 : 503);
      assert.equal(error.data?.[0]?.reason ?? error.details?.[0]?.reason, 'SLOW_READER');
      assert.match(error.message, /read too slowly/);
      assert.ok(
        got.frames.length > 1 && got.frames.length < 30,
        `cut near the cap, got ${got.frames.length} events`,
      );
      const lastId = eventOf(got.frames.at(-1)!).id!;
      const id = payload(b, got.frames[0]!).task.id as string;
      const again = await webRequest(
        handle,
        b,
        'SubscribeToTask',
        { id },
        { headers: { 'last-event-id': lastId } },
      );
      let frames: string[] = [];
      // The resumed stream is capped too: keep resuming (bounded) until the task's last event arrives.
      for (let i = 0, r = again; i < 100; i++) {
        const part = await readFrames(r.body!);
        // A resumed stream that falls behind is dropped the same way: its error event is no task event.
        if (eventOf(part.frames.at(-1)!).data?.error) part.frames.pop();
        frames = frames.concat(part.frames);
        const last = payload(b, part.frames.at(-1)!);
        if (last.statusUpdate?.status.state === 'TASK_STATE_COMPLETED') break;
        r = await webRequest(
          handle,
          b,
          'SubscribeToTask',
          { id },
          { headers: { 'last-event-id': eventOf(part.frames.at(-1)!).id! } },
        );
      }
      assert.equal(
        got.frames.length + frames.length,
        204,
        'the task, 201 working updates, the artifact and the completion: none lost, none twice',
      );
    });
  }

  test('an idle stream carries keep-alive comments', async () => {
    const { handle } = agent({ keepAliveMs: 30 });
    const client = new AbortController();
    const res = await webRequest(
      handle,
      'rest',
      'SendStreamingMessage',
      { message: message('wait keepalive') },
      { signal: client.signal },
    );
    const got = await readFrames(res.body!, (f) => f.some((x) => x.startsWith(': keep-alive')));
    assert.ok(got.frames.some((f) => f === ': keep-alive'));
    client.abort();
    gates.get('keepalive')!();
  });
});
