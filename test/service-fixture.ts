/**
 * What some tests need from the machine — a command (openssl, `script`, initdb, redis-server), a local
 * service (PostgreSQL, Redis), a browser — and the one rule for when it is missing: the test skips and
 * says what to install or start, except under `CI=true`, where a skip is a failure (`.ci/run` installs
 * the packages and starts the services, so a missing one there is a broken run, not a pass).
 * Also the one free-port probe the tests share.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';

/** Whether this run is CI's (`CI=true`): there nothing may skip for want of a command or service. */
export const underCI = (): boolean => process.env.CI === 'true';

/**
 * The reason to pass as a test's `{ skip }` when something it needs is missing. Under `CI=true` it also
 * registers a failing test named after what is missing, so the run fails instead of passing with the
 * tests skipped. Call it at the top level of a test file (not inside a running test: use
 * {@link skipInTest} there).
 */
export function mustHave(why: string): string {
  if (underCI()) {
    test(`needed under CI=true: ${why}`, () =>
      assert.fail(`CI=true and ${why} (.ci/run installs and starts what the tests need)`));
  }
  return why;
}

/** Inside a running test: skip it saying why, or under `CI=true` fail it. */
export function skipInTest(t: TestContext, why: string): void {
  if (underCI())
    assert.fail(`CI=true and ${why} (.ci/run installs and starts what the tests need)`);
  t.skip(why);
}

/** The directories PostgreSQL's Debian packages keep their server binaries in (newest first). */
export function postgresBinDirs(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => path.join('/usr/lib/postgresql', v, 'bin'));
  } catch {
    return [];
  }
}

/** The full path of an executable `name` on PATH (or in `extraDirs`), or undefined. */
export function findCommand(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * `false` when `name` is installed; else the skip reason naming the Debian package that provides it
 * (and, under `CI=true`, a failing test: see {@link mustHave}).
 */
export function commandMissing(
  name: string,
  debianPackage: string,
  extraDirs: string[] = [],
): string | false {
  if (findCommand(name, extraDirs)) return false;
  return mustHave(`${name} is not installed (apt-get install -y ${debianPackage})`);
}

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
  start:
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
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

/** `false` when the service answers; else the reason to pass as `{ skip }` (see {@link mustHave}). */
export async function serviceSkip(s: Service): Promise<string | false> {
  if (await reachable(s)) return false;
  return mustHave(`${s.name} is not reachable on ${s.host}:${s.port}; start it with: ${s.start}`);
}

/**
 * A port free on 127.0.0.1 right now (the kernel's pick for port 0), for a server the test starts
 * itself that cannot report the port it took. Probed, never fixed: tests run in parallel.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
