/**
 * One SERVER span per admitted call, child of the caller's `traceparent`, active while the operation
 * runs (so the agent's span, store calls and push deliveries hang below it), plus the request metrics.
 * Attribute names follow OpenTelemetry's RPC conventions where they fit; the rest are `a2a.*`.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from './api.js';
import type { Attributes, Context, Span, TextMapGetter } from '@opentelemetry/api';
import type { A2AError } from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { CompletedCall, OperationCall, OperationHooks } from '../dispatch/hooks.js';
import type { Telemetry } from './setup.js';

/** The gRPC service name of A2A, used as `rpc.service` whatever the binding. */
export const RPC_SERVICE = 'lf.a2a.v1.A2AService';

const STREAMING = new Set(['SendStreamingMessage', 'SubscribeToTask']);

const headerGetter: TextMapGetter<CallContext> = {
  get: (cc, key) => cc.header?.(key),
  keys: () => [],
};

interface Live {
  readonly span: Span;
  readonly ctx: Context;
  readonly start: number;
  readonly binding: string;
}

/** The task and context a request names, before the operation runs. */
function requestIds(call: OperationCall): { task?: string; context?: string } {
  switch (call.operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return { task: call.params.message.taskId, context: call.params.message.contextId };
    case 'GetTask':
    case 'CancelTask':
    case 'SubscribeToTask':
      return { task: call.params.id };
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
    case 'ListTaskPushNotificationConfigs':
    case 'DeleteTaskPushNotificationConfig':
      return { task: call.params.taskId };
    case 'ListTasks':
      return { context: call.params.contextId };
    default:
      return {};
  }
}

/** The task and context of an answer (SendMessage, GetTask, CancelTask). */
function resultIds(call: CompletedCall): { task?: string; context?: string } {
  const r = call.result as {
    task?: { id: string; contextId: string };
    message?: { taskId?: string; contextId?: string };
    id?: string;
    contextId?: string;
  };
  if (call.operation === 'SendMessage')
    return r.task
      ? { task: r.task.id, context: r.task.contextId }
      : { task: r.message?.taskId, context: r.message?.contextId };
  if (call.operation === 'GetTask' || call.operation === 'CancelTask')
    return { task: r.id, context: r.contextId };
  return {};
}

function setIds(
  span: Span,
  ids: { task?: string | undefined; context?: string | undefined },
): void {
  if (ids.task) span.setAttribute('a2a.task.id', ids.task);
  if (ids.context) span.setAttribute('a2a.context.id', ids.context);
}

/** The operation hooks of {@link otelServer}. */
export function operationHooks(t: Telemetry): OperationHooks {
  const live = new WeakMap<OperationCall, Live>();
  const { tracer, propagator, instruments } = t;
  // Metric attributes per (operation, binding, outcome): made once, so recording allocates nothing.
  const metricAttrs = new Map<string, Attributes>();
  const streamAttrs: Record<string, Attributes> = {
    SendStreamingMessage: { ...t.attributes, 'rpc.method': 'SendStreamingMessage' },
    SubscribeToTask: { ...t.attributes, 'rpc.method': 'SubscribeToTask' },
  };
  const attrsFor = (operation: string, binding: string, kind: string | undefined): Attributes => {
    const key = `${operation}\u0000${binding}\u0000${kind ?? ''}`;
    let a = metricAttrs.get(key);
    if (!a) {
      a = {
        ...t.attributes,
        'rpc.method': operation,
        'a2a.binding': binding,
        'a2a.outcome': kind ? 'error' : 'ok',
        ...(kind ? { 'error.type': kind } : {}),
      };
      metricAttrs.set(key, a);
    }
    return a;
  };

  const finish = (
    call: OperationCall,
    error: A2AError | undefined,
    events: number | undefined,
  ): void => {
    const l = live.get(call);
    if (!l) return;
    live.delete(call);
    const attrs = attrsFor(call.operation, l.binding, error?.kind);
    if (error) {
      l.span.setAttribute('error.type', error.kind);
      l.span.setAttribute('a2a.error.kind', error.kind);
      l.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    if (events !== undefined) l.span.setAttribute('a2a.stream.events', events);
    l.span.end();
    instruments.requests.add(1, attrs);
    instruments.duration.record((performance.now() - l.start) / 1000, attrs);
    if (STREAMING.has(call.operation)) instruments.openStreams.add(-1, streamAttrs[call.operation]);
  };

  return {
    before(call) {
      const binding = call.context.binding ?? 'unknown';
      const attributes: Attributes = {
        ...t.attributes,
        'rpc.system': 'a2a',
        'rpc.service': RPC_SERVICE,
        'rpc.method': call.operation,
        'a2a.binding': binding,
      };
      const parent = propagator.extract(ROOT_CONTEXT, call.context, headerGetter);
      // A call without `traceparent` continues whatever trace is active here (an in-process caller).
      const base = trace.getSpanContext(parent) ? parent : context.active();
      const span = tracer.startSpan(
        `${RPC_SERVICE}/${call.operation}`,
        { kind: SpanKind.SERVER, attributes },
        base,
      );
      if (span.isRecording()) {
        if (call.tenant) span.setAttribute('a2a.tenant', call.tenant);
        if (call.context.version) span.setAttribute('a2a.protocol.version', call.context.version);
        setIds(span, requestIds(call));
      }
      live.set(call, { span, ctx: trace.setSpan(base, span), start: performance.now(), binding });
      if (STREAMING.has(call.operation))
        instruments.openStreams.add(1, streamAttrs[call.operation]);
    },
    around(call, run) {
      const l = live.get(call);
      return l ? context.with(l.ctx, run) : run();
    },
    after(call) {
      const l = live.get(call);
      if (l?.span.isRecording()) {
        setIds(l.span, resultIds(call));
      }
      const events = STREAMING.has(call.operation)
        ? (call.result as { events: number }).events
        : undefined;
      finish(call, undefined, events);
    },
    error(call, error) {
      finish(call, error, undefined);
    },
  };
}
