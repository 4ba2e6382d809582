/**
 * Push delivery that survives the death of the delivering instance. Only the instance running a task
 * sees its events, so each event goes to each webhook once (not once per instance). Before its sender
 * queues a notification, the instance appends it to its own outbox stream (`push:<instance>`), and
 * deletes the entry once the sender is done with it (delivered, or given up after its retries).
 * Entries left behind belong to deliveries in progress or waiting for a retry. When an instance stops
 * beating (`alive:<instance>` expired), one survivor (`SET takeover:<instance> NX`) queues that
 * outbox's entries on its own sender, in order, and deletes the outbox once they are all settled.
 *
 * Why not a consumer group with XAUTOCLAIM: a group hands entries to whichever consumer reads first,
 * which would spread one task's notifications over instances and lose their order; a webhook must see
 * a task's events in order. A per-instance outbox keeps the one sender that already orders them.
 * Delivery is at least once: a notification sent just before its instance died is sent again.
 */
import type { Redis } from 'ioredis';
import type { StreamResponse, TaskPushNotificationConfig } from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { PushQueue } from '../push/dispatcher.js';
import { PUSH_CONTENT_TYPE, type DeliveryOutcome } from '../push/options.js';
import type { PushSender } from '../push/sender.js';
import type { PushBody } from '../push/wire-format.js';
import type { RedisKeys } from './redis-keys.js';

/** How long a survivor may take to work off a dead instance's outbox before another may try (ms). */
const TAKEOVER_MS = 10 * 60_000;

/** A dropped notification the sender could not even queue is final; one dropped because it closed is not. */
const final = (o: DeliveryOutcome): boolean =>
  o.result !== 'dropped' || !/closed/.test(o.error ?? '');

/** The outbox in front of one instance's push sender. */
export class PushOutbox implements PushQueue {
  #redis: Redis | undefined;
  readonly #busy = new Set<string>();

  constructor(
    private readonly sender: PushSender,
    private readonly keys: RedisKeys,
    private readonly me: string,
    private readonly logger: Logger,
  ) {}

  /** Record notifications in Redis from now on (the bus calls this once connected). */
  attach(redis: Redis): void {
    this.#redis = redis;
  }

  enqueue(config: TaskPushNotificationConfig, event: StreamResponse, custom?: PushBody): void {
    const redis = this.#redis;
    let body: string | undefined;
    try {
      body = custom?.body ?? JSON.stringify(event);
    } catch {
      body = undefined; // the sender reports an event it cannot serialise
    }
    if (!redis || body === undefined) return this.sender.enqueue(config, event, custom);
    const key = this.keys.outbox(this.me);
    const added = redis.xadd(
      key,
      '*',
      'c',
      JSON.stringify(config),
      'b',
      body,
      't',
      custom?.contentType ?? '',
    );
    added.catch((err: unknown) =>
      this.logger.warn(
        { err, taskId: config.taskId },
        'recording a push notification in the outbox failed; it is sent without',
      ),
    );
    // Sending does not wait for the outbox: the entry only matters if this instance dies.
    this.sender.enqueue(config, event, custom, (o) => {
      if (final(o)) added.then((id) => (id ? redis.xdel(key, id) : 0)).catch(() => undefined);
    });
  }

  /** Look for outboxes of instances that stopped beating, and work one off. */
  async scan(): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status !== 'ready') return;
    const instances = await redis.smembers(this.keys.instances);
    for (const dead of instances) {
      if (dead === this.me || this.#busy.has(dead)) continue;
      if (await redis.exists(this.keys.alive(dead))) continue;
      if ((await redis.set(this.keys.takeover(dead), this.me, 'PX', TAKEOVER_MS, 'NX')) !== 'OK')
        continue;
      this.#busy.add(dead);
      void this.#takeOver(redis, dead).finally(() => this.#busy.delete(dead));
    }
  }

  async #takeOver(redis: Redis, dead: string): Promise<void> {
    const key = this.keys.outbox(dead);
    try {
      const settled: Promise<void>[] = [];
      let from = '-';
      for (let round = 0; round < 1000; round++) {
        const rows = (await redis.xrange(key, from, '+', 'COUNT', 500)) as Array<
          [string, string[]]
        >;
        for (const [id, fields] of rows) settled.push(this.#resend(redis, key, id, fields));
        if (rows.length < 500) break;
        from = `(${rows.at(-1)![0]}`;
      }
      if (settled.length)
        this.logger.warn(
          { instance: dead, notifications: settled.length },
          'taking over push deliveries of a lost instance',
        );
      await Promise.all(settled);
      await redis.del(key);
      await redis.srem(this.keys.instances, dead);
      await redis.del(this.keys.takeover(dead));
    } catch (err) {
      this.logger.warn(
        { err, instance: dead },
        'taking over the push outbox of a lost instance failed; another scan retries',
      );
    }
  }

  #resend(redis: Redis, key: string, id: string, fields: string[]): Promise<void> {
    const f = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
    let config: TaskPushNotificationConfig;
    try {
      config = JSON.parse(f.get('c') ?? '') as TaskPushNotificationConfig;
    } catch {
      return redis.xdel(key, id).then(() => undefined);
    }
    const body: PushBody = { body: f.get('b') ?? '', contentType: f.get('t') || PUSH_CONTENT_TYPE };
    return new Promise<void>((resolve) => {
      this.sender.enqueue(config, {} as StreamResponse, body, (o) => {
        if (final(o)) redis.xdel(key, id).catch(() => undefined);
        resolve();
      });
    });
  }
}
