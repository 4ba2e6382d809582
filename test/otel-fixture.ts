/**
 * An in-memory OpenTelemetry SDK for tests: spans in an InMemorySpanExporter, metrics read on demand,
 * W3C trace context and an AsyncLocalStorage context manager registered globally (as an application's
 * SDK setup does). The tracer and meter providers are handed to the code under test explicitly.
 */
import { context, propagation, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';

let registered = false;
/** Registers the context manager and the propagator once per process. */
export function registerGlobals(): void {
  if (registered) return;
  registered = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** Reads metrics when asked. */
class OnDemandReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A metric's data points by name. */
export type MetricPoints = Map<string, DataPoint<number | Histogram>[]>;

/** A fresh SDK: providers, the exporter, and helpers to wait for spans and read metrics. */
export function memorySdk() {
  registerGlobals();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** Waits (bounded) until `pick` finds what it looks for among the finished spans. */
    async waitFor<T>(
      pick: (spans: ReadableSpan[]) => T | undefined,
      what: string,
      ms = 5000,
    ): Promise<T> {
      const until = Date.now() + ms;
      for (let i = 0; i < 1000; i++) {
        const got = pick(exporter.getFinishedSpans());
        if (got !== undefined) return got;
        if (Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(
        `timed out waiting for ${what}; spans: ${exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    },
    async metrics(): Promise<MetricPoints> {
      const { resourceMetrics } = await reader.collect();
      const out: MetricPoints = new Map();
      for (const scope of resourceMetrics.scopeMetrics)
        for (const m of scope.metrics)
          out.set(m.descriptor.name, m.dataPoints as DataPoint<number | Histogram>[]);
      return out;
    },
    async shutdown(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The sum of a counter's points whose attributes include `match`. */
export function sumOf(points: MetricPoints, name: string, match: Attributes = {}): number {
  let sum = 0;
  for (const p of points.get(name) ?? []) {
    if (Object.entries(match).every(([k, v]) => p.attributes[k] === v))
      sum += typeof p.value === 'number' ? p.value : p.value.count;
  }
  return sum;
}
