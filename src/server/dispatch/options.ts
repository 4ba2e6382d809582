/**
 * What an operation dispatcher (and so `createAgentServer`) is built from: the card, the executor, the
 * stores and every optional part, each with its default.
 */
import type { AgentCard } from '../../protocol/index.js';
import type { AgentExecutor } from '../agent/executor.js';
import type { TaskEventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { PushSenderOptions } from '../push/options.js';
import type { PushSender } from '../push/sender.js';
import type { WebhookPolicy } from '../push/ssrf.js';
import type { PushWireFormat } from '../push/wire-format.js';
import type { CallerQuotaOptions } from '../quota/caller-quota.js';
import type { PushConfigStore, TaskStore } from '../store/task-store.js';
import type { TaskLimits } from '../tasks/limits.js';
import type { StoreErrorHook } from '../tasks/manager.js';
import type { Caller } from './call-context.js';
import type { OperationHooks } from './hooks.js';
import type { ServerTelemetry } from './telemetry.js';

/** Push-notification delivery settings (used when the card declares `pushNotifications`). */
export interface PushOptions {
  /** Which webhook addresses are allowed (SSRF guard, §13.2). Default: public addresses only. */
  policy?: WebhookPolicy;
  /** Retry, timeout, queue and signing settings of the sender, or a sender of your own. */
  sender?: Omit<PushSenderOptions, 'policy'> | PushSender;
}

/** The extended card: one for everyone, or one per authenticated caller. */
export type ExtendedCardSource =
  AgentCard | ((caller: Caller) => AgentCard | undefined | Promise<AgentCard | undefined>);

/** What an `OperationDispatcher` (and so `createAgentServer`) is built from. */
export interface DispatcherOptions {
  card: AgentCard;
  executor: AgentExecutor;
  /** Where tasks live. Default: an `InMemoryTaskStore`. */
  store?: TaskStore;
  /** Where push configs live. Default: `store` when it keeps them too (the built-in stores do), else in memory. */
  pushConfigStore?: PushConfigStore;
  /**
   * Where the server writes what went wrong (an executor that threw, a store write that failed, a push
   * notification given up, a task left unfinished) and, at lower levels, what it did. A pino logger or
   * any {@link Logger}. Default: warnings and errors on stderr, one line each (`stderrLogger`);
   * `silentLogger` for nothing.
   */
  logger?: Logger;
  /**
   * Warn once when a task is still SUBMITTED or WORKING this long (ms) after its executor returned: a
   * forgotten `complete()` leaves callers waiting until their own timeout. `0` turns the warning off
   * (for agents that finish tasks later from a queue or a timer). Default 30 000.
   */
  unfinishedTaskWarningMs?: number;
  extendedCard?: ExtendedCardSource;
  push?: PushOptions;
  /** Fail a task after this long (ms) without an event once its agent returned without finishing it. Default: no limit. */
  idleTimeoutMs?: number;
  /**
   * End a stream (SendStreamingMessage, SubscribeToTask; SSE and gRPC alike) that has carried no task
   * event for this long (ms), cleanly and saying why; keep-alive comments do not count. For clients
   * whose read timeout the keep-alives would defeat while a task stays WORKING. Default 0: no bound.
   */
  streamIdleTimeoutMs?: number;
  /** Tasks a previous process left SUBMITTED or WORKING: `'fail'` them at start (default) or `'resume'` them. */
  recovery?: 'fail' | 'resume';
  /** Bounds on each task: messages in its history, size of its content (see {@link TaskLimits}). */
  limits?: TaskLimits;
  /**
   * What one caller may hold: unfinished tasks and the bytes its messages add per hour (see
   * {@link CallerQuotaOptions}); `false` turns both off. Default 1,000 tasks and 256 Mi per hour.
   */
  quota?: CallerQuotaOptions | false;
  /** Told of every failed store write, besides the log (a failed save also fails the call). */
  onStoreError?: StoreErrorHook;
  /** Operation hooks (logging, tracing, metrics, rate limits): see {@link OperationHooks}. */
  hooks?: OperationHooks | OperationHooks[];
  /** Traces and metrics, e.g. `otelServer()` from `a2a-kit/server/otel`: see {@link ServerTelemetry}. */
  telemetry?: ServerTelemetry;
  /**
   * The bus to other instances of this agent, e.g. `redisEvents(url)` from `a2a-kit/server/redis`,
   * with a store they share. Without it (the default) events stay in this process.
   */
  events?: TaskEventBus;
  /** Set by the 0.3 compatibility layer: webhooks registered over 0.3 get 0.3 bodies. */
  pushWireFormat?: PushWireFormat;
}
