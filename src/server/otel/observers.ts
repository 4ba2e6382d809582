/**
 * The agent's work as a child span of the call, timed store calls, push deliveries as CLIENT spans
 * that carry `traceparent` to the webhook, and task state transitions as a counter.
 */
import { SpanKind, SpanStatusCode, context, trace } from './api.js';
import type { Context, Span } from '@opentelemetry/api';
import type { StreamResponse, Task } from '../../protocol/index.js';
import type { AgentExecutor } from '../agent/executor.js';
import type { PushTracer } from '../push/options.js';
import type { Scope, TaskStore } from '../store/task-store.js';
import type { Telemetry } from './setup.js';

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: err instanceof Error ? err.message : String(err),
  });
}

/** Runs the agent inside an INTERNAL span, child of the call's span, named after what it handles. */
export function tracedExecutor(t: Telemetry, executor: AgentExecutor): AgentExecutor {
  return (ctx, task) => {
    const parent = context.active();
    // The call's span learns the ids here, also for streams, whose answer it never sees.
    const server = trace.getSpan(parent);
    if (server?.isRecording()) {
      server.setAttribute('a2a.task.id', ctx.taskId);
      server.setAttribute('a2a.context.id', ctx.contextId);
    }
    const span = t.tracer.startSpan(
      'a2a.agent.execute',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          ...t.attributes,
          'a2a.task.id': ctx.taskId,
          'a2a.context.id': ctx.contextId,
          ...(ctx.tenant ? { 'a2a.tenant': ctx.tenant } : {}),
        },
      },
      parent,
    );
    let result: void | Promise<void>;
    try {
      result = context.with(trace.setSpan(parent, span), () => executor(ctx, task));
    } catch (err) {
      failed(span, err);
      span.end();
      throw err;
    }
    if (result && typeof result.then === 'function') {
      return result.then(
        () => span.end(),
        (err: unknown) => {
          failed(span, err);
          span.end();
          throw err;
        },
      );
    }
    span.end();
    return result;
  };
}

const TIMED = new Set([
  'getTask',
  'saveTask',
  'listTasks',
  'savePushConfig',
  'getPushConfig',
  'listPushConfigs',
  'deletePushConfig',
]);

/** The same store, its calls timed into `a2a.server.store.duration`. Other members pass through untouched. */
export function timedStore(t: Telemetry, store: TaskStore): TaskStore {
  const histogram = t.instruments.storeDuration;
  const wrappers = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      let w = wrappers.get(prop);
      if (!w) {
        const fn = value as (...args: unknown[]) => unknown;
        if (!TIMED.has(prop)) {
          // Bound, so the store's private fields are reached through the real object.
          w = fn.bind(target);
        } else {
          const attrs = { 'a2a.store.operation': prop };
          w = (...args: unknown[]) => {
            const start = performance.now();
            const done = () => histogram.record((performance.now() - start) / 1000, attrs);
            const p = fn.apply(target, args) as Promise<unknown>;
            p.then(done, done);
            return p;
          };
        }
        wrappers.set(prop, w);
      }
      return w;
    },
  });
}

/** Push deliveries as CLIENT spans below the code that produced the event, each attempt its own span. */
export function pushTracer(t: Telemetry): PushTracer {
  const { tracer, propagator, instruments } = t;
  return {
    queued: () => context.active(),
    attempt(a) {
      const parent = (a.origin as Context | undefined) ?? context.active();
      const span = tracer.startSpan(
        'a2a.push POST',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            ...t.attributes,
            'http.request.method': 'POST',
            'url.full': a.url,
            'a2a.task.id': a.taskId,
            'a2a.push.attempt': a.attempt,
            'a2a.push.notification_id': a.notificationId,
          },
        },
        parent,
      );
      propagator.inject(trace.setSpan(parent, span), a.headers, { set: (h, k, v) => (h[k] = v) });
      return (r) => {
        if (r.status !== undefined) span.setAttribute('http.response.status_code', r.status);
        if (!r.ok) {
          const type =
            r.status !== undefined ? String(r.status) : (r.error?.split(':')[0] ?? 'error');
          span.setAttribute('error.type', type);
          span.setStatus({ code: SpanStatusCode.ERROR, ...(r.error ? { message: r.error } : {}) });
          instruments.pushAttempts.add(1, { 'a2a.outcome': 'error', 'error.type': type });
        } else {
          instruments.pushAttempts.add(1, { 'a2a.outcome': 'ok' });
        }
        span.end();
      };
    },
    finished(o) {
      instruments.pushDeliveries.add(1, { 'a2a.push.result': o.result });
    },
  };
}

/** Counts each state a task enters: the state it is created in, then every status update. */
export function taskStateCounter(
  t: Telemetry,
): (scope: Scope, task: Task | undefined, event: StreamResponse) => void {
  const counter = t.instruments.taskStates;
  return (_scope, _task, event) => {
    const state =
      'statusUpdate' in event
        ? event.statusUpdate.status.state
        : 'task' in event
          ? event.task.status.state
          : undefined;
    if (state) counter.add(1, { 'a2a.task.state': state });
  };
}
