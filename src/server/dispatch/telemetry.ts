/**
 * The seam a telemetry package (such as `a2a-kit/server/otel`) plugs into: operation hooks, a wrapper
 * around the agent, a wrapper around the store, a push-delivery tracer and task events. Everything is
 * optional and applied once, when the server is built; none of it is reached when the option is unset.
 */
import type { AgentExecutor } from '../agent/executor.js';
import type { PushTracer } from '../push/options.js';
import type { TaskStore } from '../store/task-store.js';
import type { TaskEventObserver } from '../tasks/manager.js';
import type { OperationHooks } from './hooks.js';

/**
 * What the `telemetry` option of `createAgentServer` takes. Its hooks run before (and end after) the
 * `hooks` option's, so a span covers them.
 */
export interface ServerTelemetry {
  /** Operation hooks (see {@link OperationHooks}). */
  readonly hooks?: OperationHooks;
  /** Returns the agent to run in place of `executor` (the same agent, observed). */
  executor?(executor: AgentExecutor): AgentExecutor;
  /** Returns the store to use in place of `store` (the same store, observed). */
  store?(store: TaskStore): TaskStore;
  /** Observes push deliveries (ignored when `push.sender` is a sender of your own). */
  readonly push?: PushTracer;
  /** Told of every event of every task, after it is applied. */
  readonly taskEvent?: TaskEventObserver;
}

/**
 * The agent as telemetry observes it. The wrapper is a new function, so the executor's flags
 * (`resumable`, `workingFollowUps`) are read through to the agent: an author may set them after the
 * server was built.
 */
export function observedExecutor(
  telemetry: ServerTelemetry | undefined,
  executor: AgentExecutor,
): AgentExecutor {
  const wrapped = telemetry?.executor?.(executor);
  if (!wrapped || wrapped === executor) return executor;
  return Object.defineProperties(wrapped, {
    resumable: { get: () => executor.resumable, configurable: true },
    workingFollowUps: { get: () => executor.workingFollowUps, configurable: true },
  });
}
