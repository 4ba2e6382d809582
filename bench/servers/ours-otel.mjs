/**
 * The bench's echo agent (as ours.mjs) with OpenTelemetry in one of four set-ups, from BENCH_OTEL:
 * `none` (no telemetry option), `api` (otelServer() with no SDK registered: what an application without
 * an SDK runs), `hooks` (otelServer() forced on with the API's no-op providers: every hook and wrapper
 * runs, nothing records), `sdk` (an SDK registered: spans to a batch processor whose exporter drops
 * them, metrics into a reader nobody collects).
 */
import { pathToFileURL } from 'node:url';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { echo, echoCard, report } from './harness.mjs';

const dist = process.env.BENCH_OURS_DIST
  ? pathToFileURL(`${process.env.BENCH_OURS_DIST}/`).href
  : new URL('../../dist/', import.meta.url).href;
const { createAgentServer } = await import(`${dist}server/index.js`);
const { otelServer } = await import(`${dist}server/otel/index.js`);
const variant = process.env.BENCH_OTEL ?? 'none';

if (variant === 'sdk') {
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const drop = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
  class Idle extends MetricReader {
    onForceFlush() {
      return Promise.resolve();
    }
    onShutdown() {
      return Promise.resolve();
    }
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(drop)] }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Idle()] }));
}

const telemetry =
  variant === 'none'
    ? {}
    : variant === 'hooks'
      ? {
          telemetry: otelServer({
            tracerProvider: trace.getTracerProvider(),
            meterProvider: metrics.getMeterProvider(),
          }),
        }
      : { telemetry: otelServer() };

const server = createAgentServer({
  executor: echo,
  ...telemetry,
  card: (origin) => echoCard(origin),
});

report(await server.listen(0), {
  rest: false,
  otel: variant,
  hooksInstalled: Object.keys(telemetry.telemetry ?? {}).length > 0,
});
