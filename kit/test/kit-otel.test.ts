/**
 * The kit traced (what `npm start -- --trace` does, in-process): the three agents on 127.0.0.1:0 with
 * the library's server telemetry, the planner with its client interceptor, an in-memory SDK. One run
 * of the pipeline is ONE connected trace: the planner's root span, its calls, each agent's server and
 * work spans, the deployer's push deliveries and the planner's webhook receiving them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import { runPlanner } from '../src/planner/index.js';
import { startKitTrace, type KitTrace } from '../src/trace/index.js';
import { TOKEN, startKit, type KitFixture } from './kit-agents-fixture.js';
import { plannerConfig, transcriptSink } from './kit-planner-fixture.js';

const NAMES = ['test-runner', 'code-reviewer', 'deployer'] as const;
let tracing: KitTrace;
let f: KitFixture;

before(async () => {
  tracing = await startKitTrace();
  f = await startKit({ telemetry: tracing.telemetry });
});
after(async () => {
  await f.close();
  await tracing.shutdown();
});

test('a kit run is one connected trace across the planner, the three agents, push deliveries and the webhook', async () => {
  const sink = transcriptSink();
  const result = await tracing.run('planner change-ok', () =>
    runPlanner(
      plannerConfig(
        NAMES.map((n) => f.kit.agents[n].baseUrl),
        { deployerToken: TOKEN },
      ),
      {
        out: sink.out,
        workspaceRoot: f.workspace,
        interceptors: tracing.interceptors,
      },
    ),
  );
  assert.ok(result.ok, sink.text());
  // Deliveries end their spans after the answer that caused them: wait (bounded) for the webhook's side.
  for (let i = 0; i < 200 && !tracing.spans().some((s) => s.name === 'planner webhook'); i++)
    await new Promise((r) => setTimeout(r, 25));

  const spans = tracing.spans();
  const traces = new Set(spans.map((s) => s.spanContext().traceId));
  assert.equal(traces.size, 1, `one trace, got ${traces.size}:\n${tracing.tree()}`);
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const roots = spans.filter((s) => !s.parentSpanContext);
  assert.deepEqual(
    roots.map((s) => s.name),
    ['planner change-ok'],
  );
  const orphans = spans.filter((s) => s.parentSpanContext && !ids.has(s.parentSpanContext.spanId));
  assert.deepEqual(
    orphans.map((s) => s.name),
    [],
    'every span hangs below a recorded one',
  );

  const servers = spans.filter((s) => s.kind === SpanKind.SERVER && s.attributes['rpc.method']);
  for (const name of NAMES) {
    assert.ok(
      servers.some((s) => s.attributes['a2a.agent.name'] === name),
      `${name} served a traced call`,
    );
    assert.ok(
      spans.some((s) => s.name === 'a2a.agent.execute' && s.attributes['a2a.agent.name'] === name),
      `${name} worked in a span`,
    );
  }
  // Each server span is the child of a planner CLIENT span (the traceparent crossed the wire).
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  for (const s of servers)
    assert.equal(
      byId.get(s.parentSpanContext!.spanId)?.kind,
      SpanKind.CLIENT,
      `${s.name} below a client span`,
    );
  const pushes = spans.filter((s) => s.name === 'a2a.push POST');
  assert.ok(
    pushes.length > 0 && pushes.every((s) => s.attributes['a2a.agent.name'] === 'deployer'),
  );
  const hooks = spans.filter((s) => s.name === 'planner webhook');
  assert.ok(
    hooks.length > 0 &&
      hooks.every((h) => byId.get(h.parentSpanContext!.spanId)?.name === 'a2a.push POST'),
  );

  const tree = tracing.tree();
  assert.match(tree, /^trace [0-9a-f]{32} · \d+ spans\nplanner change-ok /);
  for (const name of NAMES)
    assert.match(tree, new RegExp(`${name} ← Send(Streaming)?Message \\(JSONRPC\\)`));
  assert.match(tree, /deployer push #1 · HTTP 204/);
});
