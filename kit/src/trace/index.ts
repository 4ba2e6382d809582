/**
 * `npm start -- --trace`: an in-memory OpenTelemetry SDK for one demo run (no collector), the library's
 * server telemetry on each agent and its client interceptor on the planner, and a compact tree of the
 * trace printed at the end. The SDK packages are loaded only when tracing is asked for.
 */
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import type { ClientInterceptor } from 'a2a-kit/client';
import type { ServerTelemetry } from 'a2a-kit/server';
import { otelServer } from 'a2a-kit/server/otel';
import { otelInterceptor } from 'a2a-kit/client/otel';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { traceTree } from './tree.js';

export { traceTree } from './tree.js';

/** One traced run. */
export interface KitTrace {
  /** The server telemetry of agent `name` (its spans say which agent they are). */
  telemetry(name: string): ServerTelemetry;
  /** The planner's client interceptors. */
  readonly interceptors: readonly ClientInterceptor[];
  /** Runs `work` inside the root span `name`, so every call it makes joins one trace. */
  run<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Every span finished so far. */
  spans(): ReadableSpan[];
  /** The compact tree of what was recorded, one block per trace. */
  tree(): string;
  shutdown(): Promise<void>;
}

/** Registers an in-memory SDK globally (tracer provider, W3C propagator, async context) and returns the run's handles. */
export async function startKitTrace(): Promise<KitTrace> {
  const [
    { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  const tracer = tracerProvider.getTracer('a2a-kit-demo');
  return {
    telemetry: (name) => otelServer({ tracerProvider, attributes: { 'a2a.agent.name': name } }),
    interceptors: [otelInterceptor({ tracerProvider })],
    run: (name, work) =>
      tracer.startActiveSpan(name, async (span: Span) => {
        try {
          return await work();
        } finally {
          span.end();
        }
      }),
    spans: () => exporter.getFinishedSpans(),
    tree: () => traceTree(exporter.getFinishedSpans()),
    shutdown: async () => {
      await tracerProvider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
