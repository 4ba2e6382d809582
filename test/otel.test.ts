/**
 * OpenTelemetry (a2a-kit/server/otel, a2a-kit/client/otel) against the SDK's in-memory exporter: real
 * servers on 127.0.0.1:0 over the three bindings, our client with the otel interceptor, a real local
 * webhook. One trace runs from the test's own span through the client span, the server span and the
 * agent's span to the push delivery and the webhook's `traceparent`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  createTraceState,
  trace,
} from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { A2AClient, type A2AClientOptions } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { otelInterceptor } from '../src/client/otel.js';
import {
  createAgentServer,
  silentLogger,
  type AgentCard,
  type AgentExecutor,
  type AgentServer,
  type OperationHooks,
} from '../src/server/index.js';
import { callContext } from '../src/server/dispatch/call-context.js';
import { OPERATIONS_BY_NAME } from '../src/protocol/index.js';
import { otelServer } from '../src/server/otel/index.js';
import { memorySdk, sumOf } from './otel-fixture.js';
import { closeAll, startWebhook } from './push-fixture.js';

const sdk = memorySdk();
const tracer = sdk.tracerProvider.getTracer('test');
const K = 5;

/** `stream`: K working updates then done; `boom`: throws once working; anything else: echo. */
const executor: AgentExecutor = async (ctx, task) => {
  task.working('on it');
  if (ctx.text === 'boom') throw new Error('agent failed');
  if (ctx.text === 'stream') for (let i = 0; i < K; i++) task.working(`step ${i}`);
  await new Promise((r) => setImmediate(r));
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};

const card = (origin: string, grpcUrl: string): AgentCard => ({
  name: 'otel-test',
  description: 'an agent with OpenTelemetry',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${origin}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'] }],
});

let server: AgentServer;
let origin: string;
before(async () => {
  server = createAgentServer({
    card: (o, g) => card(o, g!.url),
    executor,
    grpc: { port: 0 },
    sse: { keepAliveMs: 0 },
    // "boom" throws on purpose: the executor's stderr line would be noise here.
    logger: silentLogger,
    push: { policy: { allowLoopback: true }, sender: { baseDelayMs: 1, maxDelayMs: 5 } },
    telemetry: otelServer({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
  });
  origin = await server.listen(0);
});
after(async () => {
  await server.close(1000);
  await closeAll();
  await sdk.shutdown();
});

const BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;
type Binding = (typeof BINDINGS)[number];

function client(binding: Binding): Promise<A2AClient> {
  const options: A2AClientOptions = {
    interceptors: [otelInterceptor({ tracerProvider: sdk.tracerProvider })],
    bindings: [binding],
    ...(binding === 'GRPC' ? { transports: { GRPC: grpcTransport() } } : {}),
  };
  return A2AClient.connect(origin, options);
}

/** Runs `work` inside a fresh root span of the test; returns its trace id. */
async function inRoot(name: string, work: () => Promise<void>): Promise<string> {
  return tracer.startActiveSpan(name, async (root) => {
    try {
      await work();
    } finally {
      root.end();
    }
    return root.spanContext().traceId;
  });
}

const inTrace = (traceId: string) => (spans: ReadableSpan[]) =>
  spans.filter((s) => s.spanContext().traceId === traceId);
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const byKind = (spans: ReadableSpan[], kind: SpanKind, name: string) =>
  spans.find((s) => s.kind === kind && s.name.endsWith(name));

describe('server and client spans, per binding', () => {
  for (const binding of BINDINGS) {
    test(`${binding}: SendMessage → client span → server span (traceparent) → agent span, one trace`, async () => {
      const c = await client(binding);
      let taskId = '';
      const traceId = await inRoot(`send ${binding}`, async () => {
        const r = await c.sendMessage({
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            parts: [{ text: 'hello' }],
          },
        });
        assert.ok('task' in r);
        taskId = r.task.id;
      });
      const spans = await sdk.waitFor((all) => {
        const mine = inTrace(traceId)(all);
        return mine.some((s) => s.name === 'a2a.agent.execute') &&
          mine.some((s) => s.kind === SpanKind.SERVER)
          ? mine
          : undefined;
      }, `the ${binding} spans`);
      const root = spans.find((s) => s.name === `send ${binding}`)!;
      const cs = byKind(spans, SpanKind.CLIENT, '/SendMessage')!;
      const ss = byKind(spans, SpanKind.SERVER, '/SendMessage')!;
      const agent = spans.find((s) => s.name === 'a2a.agent.execute')!;
      assert.ok(root && cs && ss && agent, spans.map((s) => s.name).join(', '));
      assert.equal(parentOf(cs), root.spanContext().spanId);
      assert.equal(
        parentOf(ss),
        cs.spanContext().spanId,
        'the server span continues the traceparent the client sent',
      );
      assert.equal(
        parentOf(agent),
        ss.spanContext().spanId,
        'the agent works inside the server span',
      );
      assert.equal(ss.name, 'lf.a2a.v1.A2AService/SendMessage');
      assert.equal(ss.attributes['rpc.system'], 'a2a');
      assert.equal(ss.attributes['rpc.method'], 'SendMessage');
      assert.equal(ss.attributes['a2a.binding'], binding);
      assert.equal(ss.attributes['a2a.task.id'], taskId);
      assert.equal(typeof ss.attributes['a2a.context.id'], 'string');
      assert.equal(ss.status.code, SpanStatusCode.UNSET);
      assert.equal(cs.attributes['a2a.binding'], binding);
      assert.equal(cs.attributes['a2a.task.id'], taskId);
      assert.equal(agent.attributes['a2a.task.id'], taskId);
    });

    test(`${binding}: a failed call → error kind on the server and the client span`, async () => {
      const c = await client(binding);
      const traceId = await inRoot(`fail ${binding}`, async () => {
        await assert.rejects(c.getTask('00000000-0000-4000-8000-000000000000'), {
          kind: 'TaskNotFound',
        });
      });
      const spans = await sdk.waitFor((all) => {
        const mine = inTrace(traceId)(all);
        return mine.some((s) => s.kind === SpanKind.SERVER) &&
          mine.some((s) => s.kind === SpanKind.CLIENT)
          ? mine
          : undefined;
      }, 'the failed spans');
      const ss = byKind(spans, SpanKind.SERVER, '/GetTask')!;
      assert.equal(ss.status.code, SpanStatusCode.ERROR);
      assert.equal(ss.attributes['error.type'], 'TaskNotFound');
      assert.equal(ss.attributes['a2a.error.kind'], 'TaskNotFound');
      assert.equal(ss.attributes['a2a.task.id'], '00000000-0000-4000-8000-000000000000');
      const cs = byKind(spans, SpanKind.CLIENT, '/GetTask')!;
      assert.equal(cs.attributes['error.type'], 'TaskNotFound');
      assert.equal(cs.status.code, SpanStatusCode.ERROR);
    });
  }

  for (const binding of ['JSONRPC', 'GRPC'] as const) {
    test(`${binding}: a stream's spans end with it and count its events`, async () => {
      const c = await client(binding);
      let received = 0;
      const traceId = await inRoot(`stream ${binding}`, async () => {
        for await (const _ of c.sendStreamingMessage({
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            parts: [{ text: 'stream' }],
          },
        }))
          received++;
      });
      const spans = await sdk.waitFor((all) => {
        const mine = inTrace(traceId)(all);
        return mine.some((s) => s.kind === SpanKind.SERVER) &&
          mine.some((s) => s.kind === SpanKind.CLIENT)
          ? mine
          : undefined;
      }, 'the stream spans');
      const ss = byKind(spans, SpanKind.SERVER, '/SendStreamingMessage')!;
      const cs = byKind(spans, SpanKind.CLIENT, '/SendStreamingMessage')!;
      assert.ok(received >= K + 3, `got ${received} events`);
      assert.equal(ss.attributes['a2a.stream.events'], received);
      assert.equal(cs.attributes['a2a.stream.events'], received);
      assert.equal(cs.attributes['a2a.stream.end'], 'ended');
      assert.equal(
        typeof ss.attributes['a2a.task.id'],
        'string',
        'the agent told the stream span its task',
      );
      assert.equal(parentOf(ss), cs.spanContext().spanId);
    });
  }
});

test("tracestate travels with traceparent: the server span carries the caller's trace state", async () => {
  const c = await client('GRPC');
  const traceId = 'a'.repeat(32);
  const caller = trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: 'b'.repeat(16),
    traceFlags: TraceFlags.SAMPLED,
    traceState: createTraceState('vendor=1'),
  });
  await context.with(caller, () =>
    c.getTask('00000000-0000-4000-8000-000000000001').catch(() => undefined),
  );
  const ss = await sdk.waitFor(
    (all) => inTrace(traceId)(all).find((s) => s.kind === SpanKind.SERVER),
    'the server span',
  );
  assert.equal(ss.spanContext().traceState?.serialize(), 'vendor=1');
  assert.equal(ss.attributes['a2a.binding'], 'GRPC');
});

test('an agent that throws → its span records the exception', async () => {
  const c = await client('JSONRPC');
  const traceId = await inRoot('boom', async () => {
    const r = await c.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'boom' }] },
    });
    assert.ok('task' in r && r.task.status.state === 'TASK_STATE_FAILED');
  });
  const agent = await sdk.waitFor(
    (all) => inTrace(traceId)(all).find((s) => s.name === 'a2a.agent.execute'),
    'the agent span',
  );
  assert.equal(agent.status.code, SpanStatusCode.ERROR);
  assert.ok(agent.events.some((e) => e.name === 'exception'));
});

test('push: each delivery attempt is a CLIENT span with its number, and the webhook gets its traceparent', async () => {
  const hook = await startWebhook((_hit, index) => ({ status: index === 0 ? 503 : 200 }));
  const c = await client('JSONRPC');
  const traceId = await inRoot('push', async () => {
    const config = { url: hook.url, token: 'tok' };
    const r = await c.sendMessage({
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'hello push' }],
      },
      configuration: { taskPushNotificationConfig: config, returnImmediately: false },
    } as never);
    assert.ok('task' in r);
  });
  const attempts = await sdk.waitFor((all) => {
    const push = inTrace(traceId)(all).filter((s) => s.name === 'a2a.push POST');
    return push.some((s) => s.attributes['a2a.push.attempt'] === 2) ? push : undefined;
  }, 'a second push attempt');
  await hook.waitFor(2);
  const first = attempts.find((s) => s.attributes['a2a.push.attempt'] === 1)!;
  const second = attempts.find((s) => s.attributes['a2a.push.attempt'] === 2)!;
  assert.equal(first.kind, SpanKind.CLIENT);
  assert.equal(first.attributes['http.response.status_code'], 503);
  assert.equal(first.status.code, SpanStatusCode.ERROR);
  assert.equal(second.attributes['http.response.status_code'], 200);
  const agent = inTrace(traceId)(sdk.spans()).find((s) => s.name === 'a2a.agent.execute')!;
  assert.equal(
    parentOf(first),
    agent.spanContext().spanId,
    'a delivery hangs below the agent that produced the event',
  );
  // The webhook continues the same trace: its traceparent names the attempt's span.
  const tp = (h: (typeof hook.hits)[number]) => String(h.headers.traceparent);
  assert.equal(tp(hook.hits[0]!), `00-${traceId}-${first.spanContext().spanId}-01`);
  assert.equal(tp(hook.hits[1]!), `00-${traceId}-${second.spanContext().spanId}-01`);
});

test('metrics: requests by operation and outcome, durations, open streams, task states, push, store latency', async () => {
  const m = await sdk.metrics();
  assert.ok(
    sumOf(m, 'a2a.server.requests', { 'rpc.method': 'SendMessage', 'a2a.outcome': 'ok' }) >= 3,
  );
  assert.ok(
    sumOf(m, 'a2a.server.requests', {
      'rpc.method': 'GetTask',
      'a2a.outcome': 'error',
      'error.type': 'TaskNotFound',
    }) >= 3,
  );
  assert.ok(
    sumOf(m, 'a2a.server.request.duration', {
      'rpc.method': 'SendMessage',
      'a2a.binding': 'GRPC',
    }) >= 1,
    'a duration per call',
  );
  assert.equal(sumOf(m, 'a2a.server.streams.open'), 0, 'every stream opened was closed');
  assert.ok(
    sumOf(m, 'a2a.server.task.transitions', { 'a2a.task.state': 'TASK_STATE_COMPLETED' }) >= 3,
  );
  assert.ok(
    sumOf(m, 'a2a.server.task.transitions', { 'a2a.task.state': 'TASK_STATE_FAILED' }) >= 1,
  );
  assert.ok(sumOf(m, 'a2a.server.push.deliveries', { 'a2a.push.result': 'delivered' }) >= 1);
  assert.ok(
    sumOf(m, 'a2a.server.push.attempts', { 'a2a.outcome': 'error', 'error.type': '503' }) >= 1,
  );
  assert.ok(sumOf(m, 'a2a.server.store.duration', { 'a2a.store.operation': 'saveTask' }) >= 1);
  assert.ok(sumOf(m, 'a2a.server.store.duration', { 'a2a.store.operation': 'getTask' }) >= 1);
});

test('without an SDK and without providers, otelServer installs nothing', () => {
  assert.equal(
    trace.getTracerProvider().getTracer('x').startSpan('probe').isRecording(),
    false,
    'no global SDK in this process',
  );
  assert.deepEqual(otelServer(), {});
});

test('the `around` hook: the operation runs inside it, the first listed outermost, after `before`', async () => {
  const seen: string[] = [];
  const hook = (name: string): OperationHooks => ({
    before: () => void seen.push(`${name} before`),
    around: (_call, run) => {
      seen.push(`${name} enter`);
      try {
        return run();
      } finally {
        seen.push(`${name} leave`);
      }
    },
  });
  const s = createAgentServer({
    card: (o) => card(o, 'http://127.0.0.1:1'),
    executor: (_ctx, task) => (seen.push('agent'), task.complete()),
    hooks: [hook('a'), hook('b')],
  });
  const service = s.service;
  service.card = card('http://127.0.0.1:1', 'http://127.0.0.1:1');
  await service.call(
    OPERATIONS_BY_NAME.SendMessage,
    { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
    callContext({ version: '1.0' }),
  );
  assert.deepEqual(seen, [
    'a before',
    'b before',
    'a enter',
    'b enter',
    'agent',
    'b leave',
    'a leave',
  ]);
  await s.close();
});
