/**
 * What every part of the server telemetry shares: the tracer, the propagator and the instruments, and
 * the check that an OpenTelemetry SDK is there at all.
 */
import { ProxyTracerProvider, createNoopMeter, metrics, propagation, trace } from './api.js';
import type {
  Attributes,
  Counter,
  Histogram,
  MeterProvider,
  TextMapPropagator,
  Tracer,
  TracerProvider,
  UpDownCounter,
} from '@opentelemetry/api';

/** Options of {@link otelServer}; without them the global providers and propagator are used. */
export interface OtelServerOptions {
  /** Where spans go. Default: the global one (`trace.setGlobalTracerProvider`, or an SDK's `register()`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global one (`metrics.setGlobalMeterProvider`). */
  meterProvider?: MeterProvider;
  /** Reads `traceparent` from requests and writes it into webhook requests. Default: the global propagator. */
  propagator?: TextMapPropagator;
  /**
   * Added to every span and request metric of this server, e.g. `{ 'a2a.agent.name': 'deployer' }` when
   * several agents share a process (and so one OpenTelemetry resource).
   */
  attributes?: Attributes;
}

/** The instrumentation scope name spans and metrics are reported under. */
export const SCOPE = 'a2a-kit/server';

const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** False when nothing would record: no provider given, and no SDK registered globally. */
export function tracingEnabled(provider: TracerProvider | undefined): boolean {
  if (provider) return true;
  const global = trace.getTracerProvider();
  return !(global instanceof ProxyTracerProvider) || global.getDelegate() !== NOOP_TRACER_PROVIDER;
}

/** False when no meter provider is given and none is registered globally. */
export function metricsEnabled(provider: MeterProvider | undefined): boolean {
  return provider !== undefined || metrics.getMeterProvider().getMeter(SCOPE) !== createNoopMeter();
}

/** The instruments of the server, with the names and units dashboards see. */
export interface ServerInstruments {
  /** Admitted calls, by `rpc.method`, `a2a.binding` and `a2a.outcome` (`ok` or `error`, with `error.type`). */
  readonly requests: Counter;
  /** Seconds per call (a stream: until it ends), same attributes. */
  readonly duration: Histogram;
  /** Streams open now, by `rpc.method`. */
  readonly openStreams: UpDownCounter;
  /** Task state transitions, by `a2a.task.state`. */
  readonly taskStates: Counter;
  /** Push notifications by final `a2a.push.result`: `delivered`, `failed`, `dropped`. */
  readonly pushDeliveries: Counter;
  /** Push attempts by `a2a.outcome`; failed attempts carry `error.type`. */
  readonly pushAttempts: Counter;
  /** Seconds per store call, by `a2a.store.operation`. */
  readonly storeDuration: Histogram;
}

/** Everything the parts need. */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly propagator: TextMapPropagator;
  readonly instruments: ServerInstruments;
  /** The `attributes` option (empty when none). */
  readonly attributes: Attributes;
}

/** The tracer, propagator and instruments of one server. */
export function telemetryOf(options: OtelServerOptions): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const seconds = {
    unit: 's',
    advice: {
      explicitBucketBoundaries: [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
      ],
    },
  };
  return {
    tracer,
    propagator: options.propagator ?? propagation,
    attributes: { ...options.attributes },
    instruments: {
      requests: meter.createCounter('a2a.server.requests', {
        description: 'A2A calls handled, by operation and outcome',
        unit: '{request}',
      }),
      duration: meter.createHistogram('a2a.server.request.duration', {
        description: 'Duration of A2A calls (streams: until they end)',
        ...seconds,
      }),
      openStreams: meter.createUpDownCounter('a2a.server.streams.open', {
        description: 'A2A streams open now',
        unit: '{stream}',
      }),
      taskStates: meter.createCounter('a2a.server.task.transitions', {
        description: 'Task state transitions, by the state entered',
        unit: '{transition}',
      }),
      pushDeliveries: meter.createCounter('a2a.server.push.deliveries', {
        description: 'Push notifications by final result',
        unit: '{notification}',
      }),
      pushAttempts: meter.createCounter('a2a.server.push.attempts', {
        description: 'Push delivery attempts by outcome',
        unit: '{attempt}',
      }),
      storeDuration: meter.createHistogram('a2a.server.store.duration', {
        description: 'Duration of task store calls',
        ...seconds,
      }),
    },
  };
}
