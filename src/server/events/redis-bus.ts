/**
 * The Redis Streams event bus. Why Redis Streams:
 *
 * - **Ordering per task**: one stream per task, appended to by the one instance that holds the task's
 *   lease, through one connection (commands on a connection are applied in order).
 * - **Replay for `Last-Event-ID`**: every entry carries our event id; a resume on any instance finds
 *   it with `XRANGE` and continues from the next entry, then reads live entries with `XREAD`.
 * - **Retention**: each stream is capped (`MAXLEN ~`) and expires (`PEXPIRE`) a while after its last
 *   event, so a finished task's events stay resumable for that window, then vanish.
 * - **Back-pressure**: readers pull (`XREAD BLOCK` from the last id they delivered); a slow instance
 *   reads later instead of being flooded, and the writer never waits for readers.
 * - **Reconnect**: a reader knows the last id it delivered, so after a reconnect nothing is lost or
 *   repeated within retention; streams open during an outage end with an error rather than hang.
 *
 * NATS JetStream would do as well for ordering and replay, but needs a stream/consumer set-up per task
 * or subject filtering, and the leases and the push outbox would need a second system (its KV). PG
 * LISTEN/NOTIFY has no replay (a missed notification is gone), an 8 kB payload limit, and holds one
 * connection per listener. Redis gives streams, leases (`SET PX`) and pub/sub in one engine.
 */
import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { A2AError, type StreamResponse, type Task } from '../../protocol/index.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Scope } from '../store/task-store.js';
import type { BusHost, BusSink, BusSubscription, TaskEventBus } from './bus.js';
import { ControlChannel } from './control.js';
import { Leases, type LeaseOptions } from './leases.js';
import { PushOutbox } from './push-outbox.js';
import type { PushSender } from '../push/sender.js';
import { RedisKeys } from './redis-keys.js';
import { maskUrl } from '../util/mask-url.js';
import { importPeer } from '../../protocol/peer.js';
import { StreamReader, toEntry } from './stream-reader.js';

/** Options of {@link redisEvents}. */
export interface RedisEventsOptions {
  /** Prefix of every key and channel (several agents, or test runs, can share one Redis). Default `a2a`. */
  prefix?: string;
  /** How long a task's events stay resumable after its last event, and how many are kept per task. */
  retention?: { ms?: number; maxEvents?: number };
  /** Lease TTL and scan period: a dead instance's tasks are taken over within `ttlMs + scanMs`. */
  lease?: LeaseOptions;
  /** How long a CancelTask waits for the instance running the task to answer (ms). Default 5 000. */
  cancelTimeoutMs?: number;
  /** How long to try to reach Redis at start before failing (ms). Default 5 000. */
  connectTimeoutMs?: number;
  logger?: Logger;
  /** Extra ioredis options (TLS, …); the URL's host, port, user, password and database win. */
  redis?: RedisOptions;
}

// Append a task's events (id, JSON, id, JSON…) and push the stream's expiry back. KEYS: stream. ARGV: maxlen, ttl ms, events.
const PUBLISH = `
for i = 3, #ARGV, 2 do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'i', ARGV[i], 'e', ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** How long one XREAD waits for new entries before it is sent again (ms). */
const BLOCK_MS = 5000;
/** Bound on any other command: past it the call fails (Unavailable) instead of waiting on a hung Redis. */
const COMMAND_TIMEOUT_MS = 5000;

type BusRedis = Redis & {
  a2aPublish(key: string, maxlen: number, ttl: number, ...events: string[]): Promise<number>;
};

/** A {@link TaskEventBus} on Redis Streams; build it with {@link redisEvents}. */
export class RedisEventBus implements TaskEventBus {
  /** This instance's id in leases and control channels. */
  readonly instanceId = randomUUID();
  readonly url: string;
  readonly #masked: string;
  readonly #keys: RedisKeys;
  readonly #logger: Logger;
  readonly #retentionMs: number;
  readonly #maxEvents: number;
  #cmd: BusRedis | undefined;
  #blocking: Redis | undefined;
  #sub: Redis | undefined;
  #reader: StreamReader | undefined;
  #leases: Leases | undefined;
  #control: ControlChannel | undefined;
  #publishFailing = false;
  #outbox: PushOutbox | undefined;
  #outboxScan: NodeJS.Timeout | undefined;

  constructor(
    url: string,
    private readonly options: RedisEventsOptions = {},
  ) {
    this.url = url;
    this.#masked = maskUrl(url);
    this.#keys = new RedisKeys(options.prefix ?? 'a2a');
    this.#logger = options.logger ?? silentLogger;
    this.#retentionMs = options.retention?.ms ?? 3_600_000;
    this.#maxEvents = options.retention?.maxEvents ?? 1000;
  }

  async start(host: BusHost): Promise<void> {
    if (this.#cmd) return;
    const { Redis } = await importPeer(() => import('ioredis'), 'ioredis', 'a2a-kit/server/redis');
    // A Redis that hangs without closing the connection must not hang streams or calls either.
    const make = (commandTimeout?: number): Redis =>
      new Redis(this.url, {
        ...this.options.redis,
        ...(commandTimeout ? { commandTimeout } : {}),
        lazyConnect: true,
        // Fail at once while down (the caller gets a clear Unavailable) instead of queueing work for later.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: this.options.connectTimeoutMs ?? 5000,
        retryStrategy: (times) => Math.min(50 * times, 1000),
      });
    const cmd = make(COMMAND_TIMEOUT_MS) as BusRedis;
    const blocking = make(BLOCK_MS + COMMAND_TIMEOUT_MS);
    const sub = make();
    // ioredis reports connection errors as events; the bus reports them through check() and its streams.
    let first: Error | undefined;
    for (const c of [cmd, blocking, sub]) c.on('error', (err: Error) => (first ??= err));
    try {
      await Promise.all([cmd.connect(), blocking.connect(), sub.connect()]);
    } catch (err) {
      for (const c of [cmd, blocking, sub]) c.disconnect();
      const why = (first ?? (err as Error)).message || String(err);
      throw new Error(`The event bus at ${this.#masked} is unreachable: ${why}`, { cause: err });
    }
    cmd.defineCommand('a2aPublish', { numberOfKeys: 1, lua: PUBLISH });
    this.#cmd = cmd;
    this.#blocking = blocking;
    this.#sub = sub;
    const reader = (this.#reader = new StreamReader(blocking, cmd, BLOCK_MS));
    reader.blockedClientId = await blocking.client('ID');
    const leases = (this.#leases = new Leases(
      cmd,
      this.#keys,
      this.instanceId,
      this.#logger,
      this.options.lease,
    ));
    this.#control = new ControlChannel(cmd, sub, this.#keys, this.instanceId, this.#logger);
    await this.#control.start((scope, taskId) => host.cancelLocal(scope, taskId));
    blocking.on('close', () => reader.failAll(this.#unavailable()));
    blocking.on('ready', () => {
      blocking.client('ID').then(
        (id) => (reader.blockedClientId = id),
        () => undefined,
      );
    });
    cmd.on('ready', () => {
      this.#publishFailing = false;
      leases.reconnected();
      this.#logger.info({ url: this.#masked }, 'event bus reachable again');
    });
    reader.start();
    leases.start(host);
    await leases.beat();
    const outbox = this.#outbox;
    if (outbox) {
      outbox.attach(cmd);
      this.#outboxScan = setInterval(
        () => void outbox.scan().catch(() => undefined),
        leases.scanMs,
      );
      this.#outboxScan.unref();
    }
  }

  pushQueue(sender: PushSender): PushOutbox {
    return (this.#outbox ??= new PushOutbox(sender, this.#keys, this.instanceId, this.#logger));
  }

  async close(): Promise<void> {
    this.#leases?.stop();
    clearInterval(this.#outboxScan);
    // Held leases are left to expire: a task this instance did not finish is then taken over elsewhere.
    await this.#forgetSelf();
    const conns = [this.#cmd, this.#blocking, this.#sub];
    this.#cmd = this.#blocking = this.#sub = undefined;
    for (const c of conns) c?.disconnect();
    await this.#reader?.close();
  }

  /**
   * A clean stop with nothing left to deliver leaves no trace in Redis (else every restart would leave an
   * instance id and an empty outbox behind); undelivered notifications stay for a survivor to send.
   */
  async #forgetSelf(): Promise<void> {
    const cmd = this.#cmd;
    if (cmd?.status !== 'ready') return;
    const outbox = this.#keys.outbox(this.instanceId);
    try {
      if ((await cmd.xlen(outbox)) > 0) return;
      await cmd
        .multi()
        .del(outbox)
        .srem(this.#keys.instances, this.instanceId)
        .del(this.#keys.alive(this.instanceId))
        .exec();
    } catch (err) {
      this.#logger.warn(
        { err },
        'could not remove this instance from the event bus on close; survivors clean up after it',
      );
    }
  }

  check(): void {
    if (this.#cmd?.status !== 'ready' || this.#blocking?.status !== 'ready')
      throw this.#unavailable();
  }

  #unavailable(): A2AError {
    return new A2AError(
      'Unavailable',
      `The event bus (${this.#masked}) is unreachable; this instance accepts no new work until it is back`,
    );
  }

  /**
   * Events of one turn of the event loop are sent together, one command per task: an agent that
   * emits a burst (a synchronous one emits its whole task at once) costs one round trip, not one per
   * event. Serialised now: the live task keeps changing after this call.
   */
  publish(scope: Scope, taskId: string, event: StreamResponse, id: string): void {
    if (!this.#cmd) return;
    const key = this.#keys.events(scope, taskId);
    let batch = this.#batches.get(key);
    if (!batch) {
      this.#batches.set(key, (batch = []));
      if (this.#batches.size === 1) queueMicrotask(this.#flush);
    }
    batch.push(id, JSON.stringify(event));
  }

  readonly #batches = new Map<string, string[]>();

  readonly #flush = (): void => {
    const cmd = this.#cmd;
    const batches = [...this.#batches];
    this.#batches.clear();
    if (!cmd) return;
    for (const [key, events] of batches) {
      cmd.a2aPublish(key, this.#maxEvents, this.#retentionMs, ...events).catch((err: unknown) => {
        // Logged once per outage: streams on other instances have ended with an error by now.
        if (this.#publishFailing) return;
        this.#publishFailing = true;
        this.#logger.error({ err, url: this.#masked }, 'publishing task events to the bus failed');
      });
    }
  };

  async subscribe(scope: Scope, taskId: string, lastEventId?: string): Promise<BusSubscription> {
    this.check();
    const cmd = this.#cmd!;
    const key = this.#keys.events(scope, taskId);
    let after: string | undefined;
    let headId = '';
    if (lastEventId !== undefined) {
      const rows = (await cmd.xrange(key, '-', '+')) as Array<[string, string[]]>;
      const at = rows.find((r) => toEntry(r).id === lastEventId);
      if (at) {
        after = at[0];
        headId = lastEventId;
      }
    }
    const resumed = after !== undefined;
    if (after === undefined) {
      const [last] = (await cmd.xrevrange(key, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
      after = last ? last[0] : '0-0';
      headId = last ? toEntry(last).id : '';
    }
    const reader = this.#reader!;
    const from = after;
    let stop: (() => void) | undefined;
    let closed = false;
    return {
      resumed,
      headId,
      start: (sink: BusSink) => {
        if (closed) return;
        stop = reader.add(
          key,
          from,
          (e) => sink.event(JSON.parse(e.json) as StreamResponse, e.id),
          () => sink.error(this.#unavailable()),
        );
      },
      close: () => {
        closed = true;
        stop?.();
      },
    };
  }

  acquire(scope: Scope, taskId: string): Promise<boolean> {
    return this.#leases ? this.#leases.acquire(scope, taskId) : Promise.resolve(true);
  }

  release(scope: Scope, taskId: string): void {
    this.#leases?.release(scope, taskId);
  }

  async cancelRemote(scope: Scope, taskId: string): Promise<Task | undefined> {
    this.check();
    const owner = await this.#leases!.owner(scope, taskId);
    if (!owner || owner === this.instanceId) return undefined;
    return this.#control!.cancel(owner, scope, taskId, this.options.cancelTimeoutMs ?? 5000);
  }
}
