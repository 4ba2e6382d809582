/**
 * The scan for lost leases, against a real Redis: a lease's member in the sorted set is due (its score
 * is the owner's clock when it sent its renewal) a moment before its key expires (Redis starts the key's
 * TTL when it runs the renewal). A survivor that scans in that moment must not drop the member: the
 * task would then never be adopted and stay WORKING for good (cluster-bus's lease test once saw this
 * under load). It is put back, due when the key expires, and adopted then — by one survivor.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { silentLogger } from '../src/server/index.js';
import { Leases, type LeaseHost } from '../src/server/events/leases.js';
import { leaseMember, RedisKeys } from '../src/server/events/redis-keys.js';
import { dropPrefix, REDIS_URL, redisMissing, testPrefix } from './cluster-fixture.js';

const missing = await redisMissing();
const prefix = testPrefix();
const redis = missing ? undefined : new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
after(async () => {
  redis?.disconnect();
  if (!missing) await dropPrefix(prefix);
});

test(
  'a lease due in the set while its key still holds is adopted once the key expires, by one survivor',
  { skip: missing },
  async () => {
    const r = redis!;
    const keys = new RedisKeys(prefix);
    const scope = { tenant: '', owner: 'anonymous' };
    const member = leaseMember('gone-instance', scope, 'task-1');
    const adopted: string[] = [];
    const host = (name: string): LeaseHost => ({
      orphaned: async (_scope, taskId) => void adopted.push(`${name} ${taskId}`),
      leaseLost: () => undefined,
      leaseRetaken: async () => undefined,
      unleased: async () => undefined,
    });
    // Two survivors scanning every 20 ms, each on its own connection.
    const conns = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    const survivors = conns.map((c, i) => {
      const l = new Leases(c, keys, `survivor-${i}`, silentLogger, { ttlMs: 5_000, scanMs: 20 });
      l.start(host(`survivor-${i}`));
      return l;
    });
    try {
      // The owner's last renewal: the member already due, the key 400 ms from expiring.
      await r.set(keys.lease(scope, 'task-1'), 'gone-instance', 'PX', 400);
      await r.zadd(keys.leases, Date.now() - 1, member);
      await new Promise((res) => setTimeout(res, 200));
      assert.deepEqual(adopted, [], 'not adopted while its key holds');
      const score = Number(await r.zscore(keys.leases, member));
      assert.ok(score > Date.now(), `kept in the set, due when the key expires (score ${score})`);
      for (let i = 0; i < 100 && adopted.length === 0; i++)
        await new Promise((res) => setTimeout(res, 20));
      await new Promise((res) => setTimeout(res, 100));
      assert.equal(adopted.length, 1, `adopted once: ${adopted.join(', ')}`);
      assert.match(adopted[0]!, / task-1$/);
      assert.equal(await r.zscore(keys.leases, member), null);
    } finally {
      for (const l of survivors) l.stop();
      for (const c of conns) c.disconnect();
    }
  },
);
