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
  return new RedisEventBus(url, options);
}
