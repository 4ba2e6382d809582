/** Key names, stream-id order and URL masking for the Redis bus: pure functions, no I/O. */
import type { Scope } from '../store/task-store.js';

/** The names of every key the bus uses, all under one prefix (so one Redis can serve several agents or test runs). */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** The stream of one task's events (one stream per task: ordering and replay are per task). */
  events(scope: Scope, taskId: string): string {
    return `${this.prefix}:ev:${this.#task(scope, taskId)}`;
  }

  /** Who runs the task now (instance id), with the lease's expiry as the key's TTL. */
  lease(scope: Scope, taskId: string): string {
    return `${this.prefix}:lease:${this.#task(scope, taskId)}`;
  }

  /** Every held lease by expiry time: survivors scan it for leases nobody renewed. */
  get leases(): string {
    return `${this.prefix}:leases`;
  }

  /** The pub/sub channel of one instance's control messages (cancel requests, replies). */
  control(instance: string): string {
    return `${this.prefix}:ctl:${instance}`;
  }

  /** Push notifications an instance has queued and not yet settled (see push-outbox.ts). */
  outbox(instance: string): string {
    return `${this.prefix}:push:${instance}`;
  }

  /** Every instance that ever had an outbox (survivors look here for dead ones). */
  get instances(): string {
    return `${this.prefix}:instances`;
  }

  /** Exists while an instance beats (same TTL and renewal as its leases). */
  alive(instance: string): string {
    return `${this.prefix}:alive:${instance}`;
  }

  /** Set once and never expired: a Redis without it started empty or lost its data (see leases.ts). */
  get epoch(): string {
    return `${this.prefix}:epoch`;
  }

  /** Held by the survivor working off a dead instance's outbox. */
  takeover(instance: string): string {
    return `${this.prefix}:takeover:${instance}`;
  }

  #task(scope: Scope, taskId: string): string {
    return `${enc(scope.tenant)}:${enc(scope.owner)}:${enc(taskId)}`;
  }
}

const enc = (s: string): string => encodeURIComponent(s);

/** Member of the leases sorted set: enough to find the task again (instance, tenant, owner, task). */
export function leaseMember(instance: string, scope: Scope, taskId: string): string {
  return JSON.stringify([instance, scope.tenant, scope.owner, taskId]);
}

export function parseLeaseMember(
  member: string,
): { instance: string; scope: Scope; taskId: string } | undefined {
  try {
    const [instance, tenant, owner, taskId] = JSON.parse(member) as string[];
    if (
      typeof instance !== 'string' ||
      typeof tenant !== 'string' ||
      typeof owner !== 'string' ||
      typeof taskId !== 'string'
    )
      return undefined;
    return { instance, scope: { tenant, owner }, taskId };
  } catch {
    return undefined;
  }
}

/** Order of two stream entry ids (`ms-seq`): negative, zero or positive. */
export function compareIds(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}
