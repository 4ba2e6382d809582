/**
 * Client interceptors against this project's own server, over both bindings: every attempt on the
 * wire passes `before` and `after` once, headers set in `before` reach the agent, `after` sees the
 * result or the error with its kind and HTTP status, and a stream reports its event count when it ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  A2AClient,
  isA2AClientError,
  isA2AError,
  type ClientCall,
  type ClientCallOutcome,
  type ClientInterceptor,
  type FetchLike,
} from '../src/client/index.js';
import {
  createAgentServer,
  silentLogger,
  staticBearerTokens,
  type AgentExecutor,
  type AgentServerOptions,
} from '../src/server/index.js';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';

const BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;

/** Echoes; "wait" parks the task until `release()` (or until the server closes). */
let release: () => void = () => undefined;
const executor: AgentExecutor = async (ctx, task) => {
  task.working('on it');
  if (ctx.text === 'wait') {
    await new Promise<void>((resolve) => {
      release = resolve;
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (ctx.signal.aborted) return;
  }
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

function cardFor(origin: string, extra: Partial<AgentCard> = {}): AgentCard {
  return {
    name: 'intercepted',
    description: 'echo for client interceptors',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['t'] }],
    ...extra,
  };
}

async function withServer(
  opts: Partial<AgentServerOptions>,
  fn: (origin: string) => Promise<void>,
  extra: Partial<AgentCard> = {},
): Promise<void> {
  // Streams left open at close are cut on purpose: the drain's warning would be noise here.
  const server = createAgentServer({
    executor,
    card: (o) => cardFor(o, extra),
    logger: silentLogger,
    ...opts,
  });
  const origin = await server.listen(0);
  try {
    await fn(origin);
  } finally {
    await server.close(100);
  }
}

const msg = (text: string) => ({
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER' as const,
    parts: [{ text }],
  },
});

async function collect(it: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

interface Attempt {
  call: ClientCall;
  outcome: ClientCallOutcome;
}

/** Records every attempt's call and outcome, in the order the outcomes arrive. */
function recorder(): ClientInterceptor & { attempts: Attempt[]; started: ClientCall[] } {
  const attempts: Attempt[] = [];
  const started: ClientCall[] = [];
  return {
    attempts,
    started,
    before: (call) => void started.push(call),
    after: (call, outcome) => void attempts.push({ call, outcome }),
  };
}

/** How the outcome reads in a count: `ok`, the agent's error kind, or the client error's code. */
const kindOf = (o: ClientCallOutcome): string =>
  o.ok
    ? 'ok'
    : isA2AError(o.error)
      ? o.error.kind
      : isA2AClientError(o.error)
        ? o.error.code
        : String(o.error);

for (const binding of BINDINGS) {
  test(`[${binding}] interceptors count operations by kind, with the result or the error, its HTTP status and a duration`, async () => {
    await withServer({}, async (origin) => {
      const counts = new Map<string, number>();
      const count: ClientInterceptor = {
        after: (call, outcome) => {
          const key = `${call.operation} ${kindOf(outcome)}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        },
      };
      const rec = recorder();
      const client = await A2AClient.connect(origin, {
        bindings: [binding],
        cache: false,
        interceptors: [count, rec],
      });

      const sent = await client.sendMessage(msg('hello'));
      assert.ok('task' in sent);
      await client.getTask(sent.task.id);
      await client.listTasks({ pageSize: 5 });
      await collect(client.sendStreamingMessage(msg('streamed')));
      await assert.rejects(
        client.getTask('00000000-0000-4000-8000-000000000000'),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
      );
      await assert.rejects(
        client.cancelTask(sent.task.id),
        (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
      );

      assert.deepEqual(Object.fromEntries(counts), {
        'SendMessage ok': 1,
        'GetTask ok': 1,
        'ListTasks ok': 1,
        'SendStreamingMessage ok': 1,
        'GetTask TaskNotFound': 1,
        'CancelTask TaskNotCancelable': 1,
      });
      assert.equal(rec.started.length, 6);
      for (const { call, outcome } of rec.attempts) {
        assert.equal(call.binding, binding);
        assert.equal(call.url, client.interface.url);
        assert.ok(outcome.durationMs >= 0 && Number.isFinite(outcome.durationMs));
      }
      const [send, get, , , notFound, notCancelable] = rec.attempts;
      // `after` gets the checked result and the params as they went out.
      assert.ok(send?.outcome.ok);
      assert.deepEqual(send.outcome.result, sent);
      assert.equal(send.call.streaming, false);
      assert.equal(send.outcome.status, 200);
      assert.equal(get?.call.params['id'], sent.task.id);
      // JSON-RPC carries errors in a 200 answer; HTTP+JSON in the error's own status (§11.6).
      assert.equal(notFound?.outcome.status, binding === 'JSONRPC' ? 200 : 404);
      assert.equal(notCancelable?.outcome.status, binding === 'JSONRPC' ? 200 : 400);
    });
  });

  test(`[${binding}] a header set in before arrives at the agent, and can replace the client's own`, async () => {
    const seen: Array<string | string[] | undefined> = [];
    const tenantSeen: Array<string | string[] | undefined> = [];
    await withServer(
      {
        authenticate: (req) => {
          seen.push(req.headers['x-request-id']);
          tenantSeen.push(req.headers['x-team']);
          return undefined;
        },
      },
      async (origin) => {
        let n = 0;
        const tracing: ClientInterceptor = {
          before: (call) => {
            call.headers['x-request-id'] = `${call.operation}-${++n}`;
            call.headers['x-team'] = call.headers['x-team']?.toUpperCase() ?? 'none';
          },
        };
        const client = await A2AClient.connect(origin, {
          bindings: [binding],
          cache: false,
          headers: { 'x-team': 'blue' },
          interceptors: [tracing],
        });
        const sent = await client.sendMessage(msg('hello'));
        assert.ok('task' in sent);
        await client.getTask(sent.task.id, { headers: { 'x-team': 'red' } });
        await collect(client.sendStreamingMessage(msg('streamed')));
        assert.deepEqual(seen, ['SendMessage-1', 'GetTask-2', 'SendStreamingMessage-3']);
        assert.deepEqual(tenantSeen, ['BLUE', 'RED', 'BLUE']);
      },
    );
  });

  test(`[${binding}] a stream's after reports its event count and how it ended: ended, or stopped by the reader`, async () => {
    await withServer({}, async (origin) => {
      const rec = recorder();
      const client = await A2AClient.connect(origin, {
        bindings: [binding],
        cache: false,
        interceptors: [rec],
      });
      const events = await collect(client.sendStreamingMessage(msg('streamed')));
      assert.ok(events.length >= 2);
      const [whole] = rec.attempts;
      assert.equal(whole?.call.operation, 'SendStreamingMessage');
      assert.equal(whole.call.streaming, true);
      assert.deepEqual(
        {
          ok: whole.outcome.ok,
          events: whole.outcome.events,
          end: whole.outcome.end,
          status: whole.outcome.status,
        },
        { ok: true, events: events.length, end: 'ended', status: 200 },
      );

      for await (const _first of client.sendStreamingMessage(msg('streamed'))) break;
      const stopped = rec.attempts[1];
      assert.deepEqual(
        { events: stopped?.outcome.events, end: stopped?.outcome.end, ok: stopped?.outcome.ok },
        { events: 1, end: 'stopped', ok: true },
      );
      assert.equal(rec.started.length, 2);
    });
  });

  test(`[${binding}] a dropped stream and its resumption are two attempts: the first failed after one event, then SubscribeToTask`, async () => {
    await withServer({}, async (origin) => {
      const rec = recorder();
      const client = await A2AClient.connect(origin, {
        bindings: [binding],
        cache: false,
        interceptors: [rec],
        fetch: cutFirstStreamAfterOneEvent(),
        resume: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
      });
      const ids: string[] = [];
      const events: StreamResponse[] = [];
      for await (const ev of client.sendStreamingMessage(msg('wait'), {
        onEventId: (id) => ids.push(id),
      })) {
        events.push(ev);
        if (events.length === 1) release();
      }
      const last = events.at(-1);
      assert.ok(
        last && 'statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_COMPLETED',
      );

      assert.deepEqual(
        rec.attempts.map(({ call, outcome }) => [call.operation, outcome.end, kindOf(outcome)]),
        [
          ['SendStreamingMessage', 'failed', 'NETWORK'],
          ['SubscribeToTask', 'ended', 'ok'],
        ],
      );
      const [dropped, resumed] = rec.attempts;
      assert.equal(dropped?.outcome.events, 1);
      assert.equal(dropped.call.lastEventId, undefined);
      assert.equal(resumed?.call.lastEventId, ids[0]);
      assert.equal(
        resumed?.call.params['id'],
        'task' in events[0]! ? events[0].task.id : undefined,
      );
      assert.ok((resumed?.outcome.events ?? 0) >= events.length - 1);
    });
  });

  test(`[${binding}] a 401 and the retry after refreshing are two attempts; before supplies the token`, async () => {
    const bearerCard: Partial<AgentCard> = {
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
    await withServer(
      { auth: { verifiers: { bearer: staticBearerTokens({ fresh: 'alice' }) } } },
      async (origin) => {
        let token = 'stale';
        const refreshing: ClientInterceptor = {
          before: (call) => {
            call.headers['Authorization'] = `Bearer ${token}`;
          },
          after: (_call, outcome) => {
            if (
              !outcome.ok &&
              isA2AError(outcome.error) &&
              outcome.error.kind === 'Unauthenticated'
            )
              token = 'fresh';
          },
        };
        const rec = recorder();
        const client = await A2AClient.connect(origin, {
          bindings: [binding],
          cache: false,
          interceptors: [refreshing, rec],
          onUnauthorized: () => true,
        });
        const sent = await client.sendMessage(msg('hello'));
        assert.ok('task' in sent);
        assert.deepEqual(
          rec.attempts.map(({ call, outcome }) => [
            call.headers['Authorization'],
            kindOf(outcome),
            outcome.status,
          ]),
          [
            ['Bearer stale', 'Unauthenticated', 401],
            ['Bearer fresh', 'ok', 200],
          ],
        );
      },
      bearerCard,
    );
  });
}

test('retries pass through interceptors one by one; an unreachable agent is a NETWORK error in after', async () => {
  const server = createAgentServer({ executor, card: (o) => cardFor(o), logger: silentLogger });
  const origin = await server.listen(0);
  const rec = recorder();
  const client = await A2AClient.connect(origin, {
    cache: false,
    fallback: false,
    interceptors: [rec],
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  await server.close(100);
  await assert.rejects(
    client.getTask('t-1'),
    (e: unknown) => isA2AClientError(e) && e.code === 'NETWORK',
  );
  assert.deepEqual(
    rec.attempts.map(({ call, outcome }) => [call.operation, kindOf(outcome), outcome.status]),
    [
      ['GetTask', 'NETWORK', undefined],
      ['GetTask', 'NETWORK', undefined],
      ['GetTask', 'NETWORK', undefined],
    ],
  );
});

test('a before that throws stops the request: nothing is sent, earlier interceptors see the error in after', async () => {
  let requests = 0;
  await withServer(
    {
      authenticate: () => {
        requests++;
        return undefined;
      },
    },
    async (origin) => {
      const rec = recorder();
      const limited = new Error('rate limit: try again later');
      const limiter: ClientInterceptor = {
        before: () => {
          throw limited;
        },
        after: () => assert.fail('the after of an interceptor whose before threw must not run'),
      };
      const client = await A2AClient.connect(origin, {
        cache: false,
        interceptors: [rec, limiter],
      });
      await assert.rejects(client.sendMessage(msg('hello')), (e: unknown) => e === limited);
      assert.equal(requests, 0);
      assert.equal(rec.attempts.length, 1);
      assert.equal(rec.attempts[0]?.outcome.ok, false);
      assert.equal(!rec.attempts[0]?.outcome.ok && rec.attempts[0]?.outcome.error, limited);
    },
  );
});

test('a call refused by the card (no streaming capability) passes through no interceptor', async () => {
  await withServer(
    {},
    async (origin) => {
      const rec = recorder();
      const client = await A2AClient.connect(origin, { cache: false, interceptors: [rec] });
      assert.throws(
        () => client.sendStreamingMessage(msg('hi')),
        (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
      );
      assert.equal(rec.started.length + rec.attempts.length, 0);
    },
    { capabilities: {} },
  );
});

/**
 * A fetch that cuts the first event stream after its first event, the way a broken connection
 * does (undici reports it as a `TypeError: terminated`). Everything else passes untouched.
 */
function cutFirstStreamAfterOneEvent(): FetchLike {
  let cut = false;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (
      cut ||
      !res.body ||
      !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    )
      return res;
    cut = true;
    const reader = res.body.getReader();
    let buffered = Buffer.alloc(0);
    let delivered = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // Erroring in the pull that enqueued the event would discard it: break on the next read.
        if (delivered) {
          await reader.cancel().catch(() => undefined);
          return controller.error(new TypeError('terminated'));
        }
        const { done, value } = await reader.read();
        if (done) return controller.close();
        buffered = Buffer.concat([buffered, value]);
        const end = buffered.indexOf('\n\n');
        if (end < 0) return;
        controller.enqueue(new Uint8Array(buffered.subarray(0, end + 2)));
        delivered = true;
      },
    });
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
