/**
 * `a2a-kit/server/redis`: run several instances of one agent on a shared task store and one Redis.
 * Needs the optional peer dependency `ioredis` (loaded when the server starts).
 *
 * @example
 * import { createAgentServer } from 'a2a-kit/server';
 * import { redisEvents } from 'a2a-kit/server/redis';
 * const server = createAgentServer({ card, executor, store, events: redisEvents('redis://127.0.0.1:6379') });
 */
import { RedisEventBus, type RedisEventsOptions } from './redis-bus.js';
import { wholeNumber } from '../util/check-options.js';

export { RedisEventBus, type RedisEventsOptions } from './redis-bus.js';
export type { LeaseOptions } from './leases.js';
export type { TaskEventBus, BusHost, BusSink, BusSubscription } from './bus.js';

/**
 * The cross-instance event bus on Redis Streams at `url` (`redis://[:password@]host:port[/db]`,
 * `rediss://` for TLS). Pass it as `events` to `createAgentServer`; it connects when the server starts,
 * and a Redis that cannot be reached then fails the start with an error naming the URL (password masked).
 * One per server: the bus is an instance's identity in leases and cancel requests.
 */
export function redisEvents(url: string, options: RedisEventsOptions = {}): RedisEventBus {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme !== 'redis:' && scheme !== 'rediss:')
    throw new TypeError(
      `redisEvents: expected a redis:// or rediss:// URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'))}`,
    );
  if (options.prefix !== undefined && (options.prefix === '' || /[\s{}]/.test(options.prefix))) {
    throw new TypeError(
      `redisEvents: prefix must be non-empty, without spaces or braces, got ${JSON.stringify(options.prefix)}`,
    );
  }
  wholeNumber('redisEvents: retention.ms', options.retention?.ms, 1);
  wholeNumber('redisEvents: retention.maxEvents', options.retention?.maxEvents, 1);
  // A lease renewed every ttlMs/3 and scanned every scanMs: below these the heartbeat would spin.
  wholeNumber('redisEvents: lease.ttlMs', options.lease?.ttlMs, 100);
  wholeNumber('redisEvents: lease.scanMs', options.lease?.scanMs, 10);
  wholeNumber('redisEvents: cancelTimeoutMs', options.cancelTimeoutMs, 0);
  wholeNumber('redisEvents: connectTimeoutMs', options.connectTimeoutMs, 1);
  return new RedisEventBus(url, options);
}
