/** Options, results and wire constants of the push sender. */
import { A2A_MEDIA_TYPE } from '../../protocol/index.js';
import type { RetryOptions } from './retry.js';
import type { WebhookPolicy } from './ssrf.js';
import type { FetchLike } from './transport.js';
import type { PushSigner } from './signing.js';
import type { Logger } from '../../protocol/logger.js';

/** Media type of the POST body (§4.3.3). */
export const PUSH_CONTENT_TYPE = A2A_MEDIA_TYPE;
export { PUSH_ID_HEADER, PUSH_TOKEN_HEADER } from '../../protocol/push.js';

/**
 * The logger of the push sender: the library's one {@link Logger}.
 * @deprecated Use `Logger` (from `a2a-kit` or `a2a-kit/server`); this name stays for compatibility.
 */
export type PushLogger = Logger;

/** Time source and backoff wait; injectable so tests can record waits instead of sleeping. */
export interface PushClock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** Delivery settings of push notifications: retries, timeouts, queues per destination, signing. */
export interface PushSenderOptions extends Partial<RetryOptions> {
  /** Where delivery problems are logged. Default: the server's logger (silent when it has none). */
  logger?: Logger;
  /** Pending events per lane; on overflow the oldest pending one is dropped. Default 1000. */
  maxQueuePerDestination?: number;
  /** Per attempt, connect to last response byte. Default 10 000 ms. */
  timeoutMs?: number;
  /** Response body bytes read at most before the connection is cut. Default 4096. */
  maxResponseBytes?: number;
  /** SSRF policy re-checked before every attempt. Default: public destinations only. */
  policy?: WebhookPolicy;
  /** How long a checked name resolution is reused (the connection still goes to the checked address). Default 10 000 ms; 0 disables. */
  dnsCacheMs?: number;
  /** Adds the (non-standard) signature header. */
  signer?: PushSigner;
  /** Extra trusted CA certificates (PEM) for https webhooks, replacing the default set as in `tls.connect`. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Deliver through this fetch instead of the pinned node:http transport (tests, special runtimes). */
  fetch?: FetchLike;
  clock?: PushClock;
  /** Uniform in [0, 1); drives the backoff jitter. */
  random?: () => number;
  userAgent?: string;
  /** Called once per event when it is delivered, given up on, or dropped. */
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /** Follows each event from enqueue through its attempts (tracing, metrics); see {@link PushTracer}. */
  tracer?: PushTracer;
}

/** One delivery attempt as a {@link PushTracer} sees it. */
export interface PushAttempt {
  /** The id of the notification (sent as the `PUSH_ID_HEADER` header), the same on every attempt. */
  readonly notificationId: string;
  /** The task the event belongs to. */
  readonly taskId: string;
  /** The webhook URL without its query string. */
  readonly url: string;
  /** 1 for the first try, then 2, 3… on retries. */
  readonly attempt: number;
  /** What {@link PushTracer.queued} returned when the event was enqueued. */
  readonly origin: unknown;
  /** The request's headers: a tracer may add some (e.g. `traceparent`), never change the others. */
  readonly headers: Record<string, string>;
}

/** How one attempt ended: the webhook's HTTP status, or the error that stopped it. */
export interface PushAttemptResult {
  /** The webhook answered 2xx. */
  readonly ok: boolean;
  /** The webhook's HTTP status, when it answered. */
  readonly status?: number;
  /** What went wrong, when it did. */
  readonly error?: string;
}

/**
 * Observes push deliveries. `queued` runs synchronously where the event was produced (so it can
 * capture that code's tracing context); `attempt` runs before each request and returns what to call
 * when it ends; `finished` receives the final outcome. What a tracer throws is ignored.
 */
export interface PushTracer {
  /** An event of `taskId` was enqueued; what it returns comes back as {@link PushAttempt.origin}. */
  queued?(taskId: string): unknown;
  /** An attempt is about to be sent; returns what to call with its result. */
  attempt?(attempt: PushAttempt): ((result: PushAttemptResult) => void) | undefined;
  /** The event was delivered, given up on, or dropped. */
  finished?(outcome: DeliveryOutcome): void;
}

/** Counters since construction; `queued` and `inFlight` are current values. */
export interface PushStats {
  delivered: number;
  retried: number;
  failed: number;
  dropped: number;
  queued: number;
  inFlight: number;
}

/** The final fate of one event at one webhook. `url` has its query string removed. */
export interface DeliveryOutcome {
  result: 'delivered' | 'failed' | 'dropped';
  notificationId: string;
  taskId: string;
  configId?: string;
  url: string;
  attempts: number;
  status?: number;
  error?: string;
}

export const realClock: PushClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      signal.addEventListener('abort', done, { once: true });
    }),
};
