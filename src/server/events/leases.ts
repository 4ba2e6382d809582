/**
 * Task leases. The instance that runs a task's executor holds `lease:<task>` (its instance id, with a
 * TTL) and a member in the `leases` sorted set scored by the lease's expiry; it renews both every
 * third of the TTL. Every instance scans the set for expired members: removing a member (`ZREM`) is
 * atomic, so exactly one survivor adopts each lost task. A lost owner is noticed within
 * `ttlMs + scanMs` of its last renewal.
 *
 * After the connection to Redis comes back, scanning waits one TTL: owners that were cut off too
 * renew their leases first, so a live owner is not mistaken for a dead one.
 *
 * A renewal that fails means the lease is gone: a survivor adopted the task, or Redis lost its data.
 * Taking the lease again tells which (held by another instance: lost; free: ours again, and the task
 * manager checks the store for what happened meanwhile). Redis losing its data also loses the set a
 * dead owner's tasks would be found in: an `epoch` key that only a fresh Redis lacks tells, and one
 * TTL later (live owners hold their leases again by then) the task manager settles the tasks nobody holds.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { Scope } from '../store/task-store.js';
import type { BusHost } from './bus.js';
import { leaseMember, parseLeaseMember, type RedisKeys } from './redis-keys.js';

/** Lease timing. */
export interface LeaseOptions {
  /** How long a lease lasts without renewal (ms). Default 10 000. */
  ttlMs?: number;
  /** How often expired leases are looked for (ms). Default ttlMs / 4. */
  scanMs?: number;
}

// Take the lease when free or already ours; record it in the set. KEYS: lease, leases. ARGV: me, ttl, expiry, member.
const ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1`;

// Renew a lease: ours, or expired (Redis was out of reach) while its member is still in the set —
// a member a survivor removed means the task was adopted, and the lease is lost. Same KEYS and ARGV.
const RENEW = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] or (not cur and redis.call('ZSCORE', KEYS[2], ARGV[4])) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
  return 1
end
return 0`;

// A member whose time is up is a lost lease only once its key has expired too. The score is the owner's
// clock when it sent its renewal, the key's expiry starts when Redis runs it, so for a moment the member
// is late while the key still holds: it is then put back, due when the key would expire (a live owner's
// next renewal moves it on anyway), not dropped — dropped, its task would never be adopted and stay
// WORKING for good. 1 for the one caller that removes it. KEYS: lease, leases. ARGV: member, now, ttl.
const CLAIM_LOST = `
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left == -1 then left = tonumber(ARGV[3]) end
if left > 0 then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + left, ARGV[1])
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

// Give it up only when ours.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('ZREM', KEYS[2], ARGV[2])
return 1`;

/** What the leases report to (the task manager, through the bus). */
export type LeaseHost = Pick<BusHost, 'orphaned' | 'leaseLost' | 'leaseRetaken' | 'unleased'>;

interface Held {
  scope: Scope;
  taskId: string;
  key: string;
  member: string;
}

type LeaseRedis = Redis & {
  a2aAcquire(
    lease: string,
    leases: string,
    me: string,
    ttl: number,
    expiry: number,
    member: string,
  ): Promise<number>;
  a2aRenew(
    lease: string,
    leases: string,
    me: string,
    ttl: number,
    expiry: number,
    member: string,
  ): Promise<number>;
  a2aRelease(lease: string, leases: string, me: string, member: string): Promise<number>;
  a2aClaimLost(
    lease: string,
    leases: string,
    member: string,
    now: number,
    ttl: number,
  ): Promise<number>;
};

/** The leases this instance holds, their renewal, and the scan for leases other instances lost. */
export class Leases {
  readonly ttlMs: number;
  readonly scanMs: number;
  readonly #held = new Map<string, Held>();
  readonly #redis: LeaseRedis;
  #timers: NodeJS.Timeout[] = [];
  #scanFrom = 0;
  #host: LeaseHost | undefined;
  #scanning = false;
  /** Leases being taken again after a failed renewal (one attempt at a time per lease). */
  readonly #verifying = new Set<string>();
  #sweep: NodeJS.Timeout | undefined;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly me: string,
    private readonly logger: Logger,
    options: LeaseOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.scanMs = options.scanMs ?? Math.max(50, Math.floor(this.ttlMs / 4));
    redis.defineCommand('a2aAcquire', { numberOfKeys: 2, lua: ACQUIRE });
    redis.defineCommand('a2aRenew', { numberOfKeys: 2, lua: RENEW });
    redis.defineCommand('a2aRelease', { numberOfKeys: 2, lua: RELEASE });
    redis.defineCommand('a2aClaimLost', { numberOfKeys: 2, lua: CLAIM_LOST });
    this.#redis = redis as LeaseRedis;
  }

  /** Start renewing and scanning; the host is told of lost, re-taken and orphaned tasks. */
  start(host: LeaseHost): void {
    this.#host = host;
    const renew = setInterval(() => this.#renewAll(), Math.max(20, Math.floor(this.ttlMs / 3)));
    const scan = setInterval(() => void this.#scan(), this.scanMs);
    renew.unref();
    scan.unref();
    this.#timers = [renew, scan];
    this.#checkMemory();
  }

  /** The connection came back: hold off scanning for one TTL (see the module comment). */
  reconnected(): void {
    this.#scanFrom = Date.now() + this.ttlMs;
    this.#renewAll();
    this.#checkMemory();
  }

  /** Whether Redis lost its data (see the module comment): then settle unheld tasks one TTL later. */
  #checkMemory(): void {
    this.#redis.set(this.keys.epoch, this.me, 'NX').then(
      (set) => {
        if (set !== 'OK' || this.#sweep) return;
        this.#sweep = setTimeout(() => {
          this.#sweep = undefined;
          this.#host?.unleased().catch((err: unknown) => {
            this.logger.error({ err }, 'settling the tasks whose leases the bus lost failed');
          });
        }, this.ttlMs);
        this.#sweep.unref();
      },
      () => undefined, // down: checked again when it is back
    );
  }

  async acquire(scope: Scope, taskId: string): Promise<boolean> {
    const held: Held = {
      scope,
      taskId,
      key: this.keys.lease(scope, taskId),
      member: leaseMember(this.me, scope, taskId),
    };
    // Recorded before the answer: a release in the meantime (a synchronous agent is done before it
    // comes) goes out after the acquire on the same connection, so Redis applies both in order.
    const before = this.#held.get(held.key);
    this.#held.set(held.key, held);
    let ok = false;
    try {
      ok = await this.#take(held);
    } finally {
      if (!ok && this.#held.get(held.key) === held) {
        if (before) this.#held.set(held.key, before);
        else this.#held.delete(held.key);
      }
    }
    return ok;
  }

  release(scope: Scope, taskId: string): void {
    const key = this.keys.lease(scope, taskId);
    const held = this.#held.get(key);
    if (!held) return;
    this.#held.delete(key);
    this.#redis.a2aRelease(key, this.keys.leases, this.me, held.member).catch((err: unknown) => {
      // The lease then expires on its own; a survivor finds the task already finished and leaves it.
      this.logger.warn({ err, taskId }, 'releasing a task lease failed');
    });
  }

  /** The instance holding a task's lease, if any. */
  owner(scope: Scope, taskId: string): Promise<string | null> {
    return this.#redis.get(this.keys.lease(scope, taskId));
  }

  stop(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    clearTimeout(this.#sweep);
  }

  /** This instance is alive for another TTL (its push outbox is not taken over meanwhile). */
  beat(): Promise<unknown> {
    // Re-registered every beat: a survivor that took this instance for dead (a long stall) removed it.
    return Promise.all([
      this.#redis.set(this.keys.alive(this.me), '1', 'PX', this.ttlMs),
      this.#redis.sadd(this.keys.instances, this.me),
    ]);
  }

  #renewAll(): void {
    if (this.#redis.status !== 'ready') return;
    this.beat().catch(() => undefined);
    const expiry = Date.now() + this.ttlMs;
    for (const h of this.#held.values()) {
      this.#redis.a2aRenew(h.key, this.keys.leases, this.me, this.ttlMs, expiry, h.member).then(
        (ok) => {
          if (ok !== 1 && this.#held.get(h.key) === h) void this.#verify(h);
        },
        () => undefined, // down: retried at the next tick, and after reconnecting
      );
    }
  }

  /** Take the lease when it is free or already ours; false when another instance holds it. */
  async #take(h: Held): Promise<boolean> {
    const expiry = Date.now() + this.ttlMs;
    const ok = await this.#redis.a2aAcquire(
      h.key,
      this.keys.leases,
      this.me,
      this.ttlMs,
      expiry,
      h.member,
    );
    return ok === 1;
  }

  /** A renewal failed: take the lease again, or learn that another instance holds it. */
  async #verify(h: Held): Promise<void> {
    if (this.#verifying.has(h.key)) return;
    this.#verifying.add(h.key);
    try {
      const ok = await this.#take(h);
      if (this.#held.get(h.key) !== h) return; // released meanwhile
      if (ok) {
        await this.#host?.leaseRetaken(h.scope, h.taskId);
        return;
      }
      // This instance was taken for lost (it could not renew for a whole TTL) and the task adopted.
      this.#held.delete(h.key);
      this.logger.warn(
        { taskId: h.taskId },
        'another instance took over a task running here: its executor is aborted',
      );
      this.#host?.leaseLost(h.scope, h.taskId);
    } catch (err) {
      // Redis down again: the next renewal tries again. A host failure is logged.
      if (this.#redis.status === 'ready')
        this.logger.warn({ err, taskId: h.taskId }, 'checking a task lease again failed');
    } finally {
      this.#verifying.delete(h.key);
    }
  }

  async #scan(): Promise<void> {
    const host = this.#host;
    if (!host) return;
    if (this.#scanning || Date.now() < this.#scanFrom || this.#redis.status !== 'ready') return;
    this.#scanning = true;
    try {
      const expired = await this.#redis.zrangebyscore(
        this.keys.leases,
        '-inf',
        Date.now(),
        'LIMIT',
        0,
        100,
      );
      for (const member of expired) {
        const m = parseLeaseMember(member);
        if (m && m.instance === this.me && this.#held.has(this.keys.lease(m.scope, m.taskId)))
          continue; // ours, renewal pending
        if (!m) {
          await this.#redis.zrem(this.keys.leases, member); // not ours to read: dropped
          continue;
        }
        // Removed only when its lease key is gone too; another survivor may have been first.
        const lease = this.keys.lease(m.scope, m.taskId);
        if (
          (await this.#redis.a2aClaimLost(
            lease,
            this.keys.leases,
            member,
            Date.now(),
            this.ttlMs,
          )) !== 1
        )
          continue;
        this.logger.warn(
          { taskId: m.taskId, instance: m.instance },
          'the instance running a task stopped renewing its lease',
        );
        await host
          .orphaned(m.scope, m.taskId)
          .catch((err: unknown) =>
            this.logger.error({ err, taskId: m.taskId }, 'adopting a lost task failed'),
          );
      }
    } catch {
      // Redis down: the next scan after reconnecting (and one TTL) tries again.
    } finally {
      this.#scanning = false;
    }
  }
}
