/**
 * Push-notification delivery (spec §3.5.3, §4.3.3, §13.2): POSTs each StreamResponse to a task's webhooks.
 *
 * Events are grouped into lanes, one per (task, config id, URL). A lane sends strictly in order, one
 * request at a time, and retries its head event before moving on, so a webhook sees a task's events in
 * the order they happened. Lanes are independent: a slow or dead webhook delays only its own lanes, never
 * another webhook, another task, or the caller ({@link PushSender.enqueue} is synchronous and does no I/O).
 */
import { randomUUID } from 'node:crypto';
import {
  silentLogger,
  taskIdOf,
  type Logger,
  type StreamResponse,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import { cachingResolver, redactUrl, systemResolve } from './ssrf.js';
import { createPinnedTransport, fetchTransport, type DeliveryTransport } from './transport.js';
import { DEFAULT_RETRY, retryDelay, type RetryOptions } from './retry.js';
import type { PushBody } from './wire-format.js';
import { attemptDelivery, type Attempt, type AttemptContext } from './attempt.js';
import {
  realClock,
  type DeliveryOutcome,
  type PushAttemptResult,
  type PushClock,
  type PushSenderOptions,
  type PushStats,
  type PushTracer,
} from './options.js';

interface Item {
  id: string;
  config: TaskPushNotificationConfig;
  /** The serialised event: a snapshot taken at enqueue time. */
  body: Buffer;
  taskId: string;
  /** Set when a wire format chose another body than the 1.0 event. */
  contentType?: string;
  /** What the tracer captured at enqueue. */
  origin?: unknown;
  /** Told of this item's final outcome (the cluster's push outbox forgets the entry then). */
  settled?: (outcome: DeliveryOutcome) => void;
}

interface Lane {
  key: string;
  items: (Item | undefined)[];
  head: number;
  running: boolean;
}

/** Delivers push notifications for a whole server. Create one, call `enqueue` per event and webhook. */
export class PushSender {
  readonly #log: Logger;
  readonly #retry: RetryOptions;
  readonly #maxQueue: number;
  readonly #timeoutMs: number;
  readonly #attempt: AttemptContext;
  readonly #closeTransport: () => void;
  readonly #clock: PushClock;
  readonly #random: () => number;
  readonly #onOutcome: ((o: DeliveryOutcome) => void) | undefined;
  readonly #tracer: PushTracer | undefined;
  readonly #lanes = new Map<string, Lane>();
  readonly #bodies = new WeakMap<StreamResponse, Buffer>();
  readonly #abort = new AbortController();
  readonly #idleWaiters = new Set<() => void>();
  readonly #stats: PushStats = {
    delivered: 0,
    retried: 0,
    failed: 0,
    dropped: 0,
    queued: 0,
    inFlight: 0,
  };
  #running = 0;
  #closed = false;

  constructor(opts: PushSenderOptions = {}) {
    this.#log = opts.logger ?? silentLogger;
    this.#retry = {
      maxAttempts: Math.max(1, opts.maxAttempts ?? DEFAULT_RETRY.maxAttempts),
      baseDelayMs: opts.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: opts.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
      maxRetryAfterMs: opts.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
    };
    this.#maxQueue = Math.max(1, opts.maxQueuePerDestination ?? 1000);
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    const policy = opts.policy ?? {};
    const dnsCacheMs = opts.dnsCacheMs ?? 10_000;
    const resolve = policy.resolve ?? systemResolve;
    let send: DeliveryTransport;
    if (opts.fetch) {
      send = fetchTransport(opts.fetch);
      this.#closeTransport = () => undefined;
    } else {
      const pinned = createPinnedTransport(opts.ca ? { ca: opts.ca } : {});
      send = pinned.send;
      this.#closeTransport = pinned.close;
    }
    this.#clock = opts.clock ?? realClock;
    this.#random = opts.random ?? Math.random;
    this.#attempt = {
      policy: {
        ...policy,
        resolve: dnsCacheMs > 0 ? cachingResolver(resolve, dnsCacheMs) : resolve,
      },
      send,
      signer: opts.signer,
      userAgent: opts.userAgent ?? 'a2a-kit-push/1.0',
      timeoutMs: this.#timeoutMs,
      maxResponseBytes: opts.maxResponseBytes ?? 4096,
      signal: this.#abort.signal,
      now: () => this.#clock.now(),
    };
    this.#onOutcome = opts.onOutcome;
    this.#tracer = opts.tracer;
  }

  /** Public keys of the notification signer, to serve at PUSH_JWKS_PATH (undefined when not signing). */
  publicJwks(): { keys: object[] } | undefined {
    return this.#attempt.signer?.publicJwks();
  }

  /** Current counters (a copy). */
  get stats(): PushStats {
    return { ...this.#stats };
  }

  /**
   * Queues `event` for the webhook of `config` and returns at once; no I/O happens here. The event is
   * serialised now, once per event object however many webhooks it goes to, so later changes to a live
   * task cannot alter what is sent. Never throws for delivery problems: they are retried, logged and
   * counted. After {@link close} the event is dropped. `custom` replaces the event's 1.0 JSON (a
   * webhook registered over A2A 0.3 gets the body 0.3 defined). `settled` is told of this event's
   * final outcome for this webhook.
   */
  enqueue(
    config: TaskPushNotificationConfig,
    event: StreamResponse,
    custom?: PushBody,
    settled?: (outcome: DeliveryOutcome) => void,
  ): void {
    let body = custom ? Buffer.from(custom.body, 'utf8') : this.#bodies.get(event);
    let unserialisable: string | undefined;
    if (!body) {
      try {
        body = Buffer.from(JSON.stringify(event), 'utf8');
        this.#bodies.set(event, body);
      } catch (e) {
        unserialisable = `event is not serialisable: ${(e as Error).message}`;
      }
    }
    const item: Item = {
      id: randomUUID(),
      config,
      body: body ?? Buffer.alloc(0),
      taskId: config.taskId ?? taskIdOf(event) ?? '',
    };
    if (custom) item.contentType = custom.contentType;
    if (this.#tracer?.queued) item.origin = this.#traced(() => this.#tracer!.queued!(item.taskId));
    if (settled) item.settled = settled;
    if (unserialisable)
      return this.#finish(item, { result: 'failed', attempts: 0, error: unserialisable });
    if (this.#closed)
      return this.#finish(item, { result: 'dropped', attempts: 0, error: 'sender is closed' });
    const key = `${item.taskId}\u0000${config.id ?? ''}\u0000${config.url}`;
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { key, items: [], head: 0, running: false };
      this.#lanes.set(key, lane);
    }
    if (lane.items.length - lane.head >= this.#maxQueue) {
      const oldest = this.#shift(lane);
      if (oldest)
        this.#finish(oldest, {
          result: 'dropped',
          attempts: 0,
          error: `queue full (${this.#maxQueue})`,
        });
    }
    lane.items.push(item);
    this.#stats.queued++;
    if (!lane.running) void this.#run(lane);
  }

  /** Resolves true once nothing is queued or in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs = 10_000): Promise<boolean> {
    if (this.#running === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#idleWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#idleWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.#idleWaiters.add(done);
    });
  }

  /** Stops at once: pending events are dropped, requests and backoff waits aborted, sockets freed. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#abort.abort();
      for (const lane of this.#lanes.values()) {
        for (let item = this.#shift(lane); item; item = this.#shift(lane)) {
          this.#finish(item, { result: 'dropped', attempts: 0, error: 'sender closed' });
        }
      }
    }
    await this.drain(this.#timeoutMs);
    this.#closeTransport();
  }

  /** Graceful shutdown: give queued events up to `timeoutMs` to go out, then {@link close}. */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    await this.drain(timeoutMs);
    await this.close();
  }

  #shift(lane: Lane): Item | undefined {
    if (lane.head >= lane.items.length) return undefined;
    const item = lane.items[lane.head];
    lane.items[lane.head++] = undefined;
    // Compact now and then so a long-lived lane does not keep a growing array of holes.
    if (lane.head >= 1024 && lane.head * 2 >= lane.items.length) {
      lane.items = lane.items.slice(lane.head);
      lane.head = 0;
    }
    if (item) this.#stats.queued--;
    return item;
  }

  async #run(lane: Lane): Promise<void> {
    lane.running = true;
    this.#running++;
    try {
      for (let item = this.#shift(lane); item; item = this.#shift(lane)) {
        this.#stats.inFlight++;
        try {
          await this.#deliver(item);
        } catch (e) {
          this.#finish(item, {
            result: 'failed',
            attempts: 0,
            error: `internal: ${(e as Error).message}`,
          });
        } finally {
          this.#stats.inFlight--;
        }
      }
    } finally {
      lane.running = false;
      this.#lanes.delete(lane.key);
      this.#running--;
      if (this.#running === 0) for (const wake of [...this.#idleWaiters]) wake();
    }
  }

  async #deliver(item: Item): Promise<void> {
    const { body } = item;
    for (let attempt = 1; ; attempt++) {
      const r = this.#tracer?.attempt
        ? await this.#tracedAttempt(item, body, attempt)
        : await attemptDelivery(item, body, this.#attempt);
      if (r.ok)
        return this.#finish(item, { result: 'delivered', attempts: attempt, status: r.status });
      const base = {
        attempts: attempt,
        error: r.error,
        ...(r.status !== undefined ? { status: r.status } : {}),
      };
      if (this.#abort.signal.aborted) return this.#finish(item, { result: 'dropped', ...base });
      if (!r.retryable || attempt >= this.#retry.maxAttempts)
        return this.#finish(item, { result: 'failed', ...base });
      const delay = retryDelay(attempt, this.#retry, this.#random, r.retryAfterMs);
      this.#stats.retried++;
      this.#log.debug(
        { ...this.#where(item), ...base, delayMs: delay },
        'push delivery failed, will retry',
      );
      await this.#clock.sleep(delay, this.#abort.signal);
      if (this.#abort.signal.aborted) return this.#finish(item, { result: 'dropped', ...base });
    }
  }

  /** What a tracer throws never changes a delivery. */
  #traced<T>(run: () => T): T | undefined {
    try {
      return run();
    } catch (e) {
      this.#log.error({ err: e }, 'push tracer threw');
      return undefined;
    }
  }

  async #tracedAttempt(item: Item, body: Buffer, attempt: number): Promise<Attempt> {
    const extra: Record<string, string> = {};
    const done = this.#traced(() =>
      this.#tracer!.attempt!({
        notificationId: item.id,
        taskId: item.taskId,
        url: redactUrl(item.config.url),
        attempt,
        origin: item.origin,
        headers: extra,
      }),
    );
    const r = await attemptDelivery(item, body, this.#attempt, extra);
    const result: PushAttemptResult = r.ok
      ? { ok: true, status: r.status }
      : { ok: false, error: r.error, ...(r.status !== undefined ? { status: r.status } : {}) };
    if (done) this.#traced(() => done(result));
    return r;
  }

  #where(item: Item): { taskId: string; configId?: string; url: string; notificationId: string } {
    return {
      taskId: item.taskId,
      ...(item.config.id !== undefined ? { configId: item.config.id } : {}),
      url: redactUrl(item.config.url),
      notificationId: item.id,
    };
  }

  #finish(
    item: Item,
    o: Omit<DeliveryOutcome, 'notificationId' | 'taskId' | 'configId' | 'url'>,
  ): void {
    const outcome: DeliveryOutcome = { ...this.#where(item), ...o };
    if (o.result === 'delivered') {
      this.#stats.delivered++;
      this.#log.debug(outcome, 'push notification delivered');
    } else if (o.result === 'failed') {
      this.#stats.failed++;
      this.#log.warn(outcome, 'push notification given up');
    } else {
      this.#stats.dropped++;
      this.#log.warn(outcome, 'push notification dropped');
    }
    if (this.#tracer?.finished) this.#traced(() => this.#tracer!.finished!(outcome));
    try {
      item.settled?.(outcome);
      this.#onOutcome?.(outcome);
    } catch (e) {
      this.#log.error({ err: e }, 'push onOutcome callback threw');
    }
  }
}
