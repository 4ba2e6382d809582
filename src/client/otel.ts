/**
 * OpenTelemetry for an A2A client: a CLIENT span per attempt on the wire, its `traceparent` (and
 * `tracestate`) sent with the request — as HTTP headers, or as gRPC metadata, which is made from the
 * same headers — so the agent's spans join the caller's trace. A stream's span ends when the stream
 * does, with the number of events received. Needs the optional peer dependency `@opentelemetry/api`.
 *
 * @example
 * ```ts
 * import { A2AClient } from 'a2a-kit/client';
 * import { otelInterceptor } from 'a2a-kit/client/otel';
 *
 * const client = await A2AClient.connect('http://localhost:41241', { interceptors: [otelInterceptor()] });
 * ```
 */
import type { Span, TextMapPropagator, TracerProvider } from '@opentelemetry/api';
import { isA2AError } from '../protocol/index.js';
import { isA2AClientError } from './errors.js';
import type { ClientCall, ClientInterceptor } from './interceptors.js';
import { importPeer } from '../protocol/peer.js';

// An optional peer: without it, importing this entry point says which package to install.
const { SpanKind, SpanStatusCode, context, propagation, trace } = await importPeer(
  () => import('@opentelemetry/api'),
  '@opentelemetry/api',
  'a2a-kit/client/otel',
);

/** Options of {@link otelInterceptor}; without them the global tracer provider and propagator are used. */
export interface OtelClientOptions {
  /** Where spans go. Default: the global one. */
  tracerProvider?: TracerProvider;
  /** Writes `traceparent` into requests. Default: the global propagator (W3C trace context in the usual SDK setup). */
  propagator?: TextMapPropagator;
}

/** The gRPC service name of A2A, used as `rpc.service` whatever the binding. */
const RPC_SERVICE = 'lf.a2a.v1.A2AService';

/** What a failed attempt is called in `error.type`: the agent's error kind, the client's error code, or the error's name. */
function errorType(error: unknown): string {
  if (isA2AError(error)) return error.kind;
  if (isA2AClientError(error)) return error.code;
  return error instanceof Error ? error.name : 'Error';
}

/** A client interceptor that traces every request; add it to the client's `interceptors`. */
export function otelInterceptor(options: OtelClientOptions = {}): ClientInterceptor {
  // The global provider is a proxy: a tracer taken from it now records once an SDK registers later.
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('a2a-kit/client');
  const propagator = options.propagator ?? propagation;
  const spans = new WeakMap<ClientCall, Span>();
  return {
    before(call) {
      const parent = context.active();
      const span = tracer.startSpan(
        `${RPC_SERVICE}/${call.operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'rpc.system': 'a2a',
            'rpc.service': RPC_SERVICE,
            'rpc.method': call.operation,
            'a2a.binding': call.binding,
            'url.full': call.url,
          },
        },
        parent,
      );
      if (span.isRecording()) {
        const p = call.params as {
          id?: unknown;
          taskId?: unknown;
          message?: { taskId?: unknown; contextId?: unknown };
        };
        const task = p.message?.taskId ?? p.taskId ?? p.id;
        if (typeof task === 'string') span.setAttribute('a2a.task.id', task);
        if (typeof p.message?.contextId === 'string')
          span.setAttribute('a2a.context.id', p.message.contextId);
        if (call.lastEventId !== undefined)
          span.setAttribute('a2a.stream.last_event_id', call.lastEventId);
      }
      propagator.inject(trace.setSpan(parent, span), call.headers, {
        set: (h, k, v) => (h[k] = v),
      });
      spans.set(call, span);
    },
    after(call, outcome) {
      const span = spans.get(call);
      if (!span) return;
      spans.delete(call);
      if (span.isRecording()) {
        if (outcome.status !== undefined)
          span.setAttribute('http.response.status_code', outcome.status);
        if (outcome.events !== undefined) span.setAttribute('a2a.stream.events', outcome.events);
        if (outcome.end !== undefined) span.setAttribute('a2a.stream.end', outcome.end);
        if (outcome.ok) {
          const r = outcome.result as { task?: { id?: unknown; contextId?: unknown } } | undefined;
          if (typeof r?.task?.id === 'string') span.setAttribute('a2a.task.id', r.task.id);
          if (typeof r?.task?.contextId === 'string')
            span.setAttribute('a2a.context.id', r.task.contextId);
        } else {
          const type = errorType(outcome.error);
          span.setAttribute('error.type', type);
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: outcome.error instanceof Error ? outcome.error.message : type,
          });
        }
      }
      span.end();
    },
  };
}
