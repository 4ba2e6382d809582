/**
 * OpenTelemetry for an agent server: `createAgentServer({ …, telemetry: otelServer() })`. Needs the
 * optional peer dependency `@opentelemetry/api`; spans and metrics go wherever the application's
 * OpenTelemetry SDK sends them. Without an SDK (and without providers given) it installs nothing, so
 * the server runs exactly as without it — register the SDK before creating the server.
 *
 * What it records:
 * - a SERVER span per admitted call (`lf.a2a.v1.A2AService/<operation>`), child of the request's
 *   `traceparent` (HTTP header or gRPC metadata), with `rpc.system`, `rpc.service`, `rpc.method`,
 *   `a2a.binding`, `a2a.task.id`, `a2a.context.id`, `a2a.tenant`, `error.type` / `a2a.error.kind` on
 *   failure and `a2a.stream.events` for streams;
 * - the agent's work as a child span `a2a.agent.execute`;
 * - each push delivery attempt as a CLIENT span `a2a.push POST` with `a2a.push.attempt`, its
 *   `traceparent` sent to the webhook so the trace continues there;
 * - metrics: `a2a.server.requests`, `a2a.server.request.duration`, `a2a.server.streams.open`,
 *   `a2a.server.task.transitions`, `a2a.server.push.deliveries`, `a2a.server.push.attempts`,
 *   `a2a.server.store.duration`.
 *
 * Calls refused before the operation hooks run (a wrong version, invalid params) get no span.
 *
 * @example
 * ```ts
 * import { createAgentServer, type AgentCard, type AgentExecutor } from 'a2a-kit/server';
 * import { otelServer } from 'a2a-kit/server/otel';
 * declare const card: AgentCard, executor: AgentExecutor;
 *
 * // after your OpenTelemetry SDK is started (NodeSDK, or a provider's register()):
 * const server = createAgentServer({ card, executor, telemetry: otelServer() });
 * ```
 */
import type { ServerTelemetry } from '../dispatch/telemetry.js';
import { operationHooks } from './operation-hooks.js';
import { pushTracer, taskStateCounter, tracedExecutor, timedStore } from './observers.js';
import { metricsEnabled, telemetryOf, tracingEnabled, type OtelServerOptions } from './setup.js';

export type { OtelServerOptions, ServerInstruments } from './setup.js';
export { RPC_SERVICE } from './operation-hooks.js';

/** The `telemetry` option of `createAgentServer` that reports to OpenTelemetry; see the module comment. */
export function otelServer(options: OtelServerOptions = {}): ServerTelemetry {
  if (!tracingEnabled(options.tracerProvider) && !metricsEnabled(options.meterProvider)) return {};
  const t = telemetryOf(options);
  return {
    hooks: operationHooks(t),
    executor: (executor) => tracedExecutor(t, executor),
    store: (store) => timedStore(t, store),
    push: pushTracer(t),
    taskEvent: taskStateCounter(t),
  };
}
