/**
 * Local services the cluster tests need (PostgreSQL, Redis, NATS): whether one answers on its port, and
 * a skip reason that says which is missing and how to start it. Under `CI=true` a missing service is a
 * failure, not a skip (`.ci/run` starts them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';

/** A service on this machine, and the command that starts it. */
export interface Service {
  name: string;
  host: string;
  port: number;
  start: string;
}

export const POSTGRES: Service = {
  name: 'PostgreSQL',
  host: '127.0.0.1',
  port: 5432,
  start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
};
export const REDIS: Service = {
  name: 'Redis',
  host: '127.0.0.1',
  port: 6379,
  start: 'redis-server --daemonize yes',
};
export const NATS: Service = {
  name: 'NATS',
  host: '127.0.0.1',
  port: 4222,
  start: 'nats-server -js &',
};

/** Whether something accepts TCP connections on the service's port (bounded: 1 s). */
export function reachable(s: Pick<Service, 'host' | 'port'>, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(s.port, s.host);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * `false` when the service answers; else the reason to pass as `{ skip }`. Under `CI=true` it also adds a
 * failing test, so that the run fails instead of passing with the service's tests skipped.
 */
export async function serviceSkip(s: Service): Promise<string | false> {
  if (await reachable(s)) return false;
  const reason = `${s.name} is not reachable on ${s.host}:${s.port}; start it with: ${s.start}`;
  if (process.env.CI === 'true') {
    test(`${s.name} is reachable (CI=true: a missing service fails the run)`, () =>
      assert.fail(reason));
  }
  return reason;
}
