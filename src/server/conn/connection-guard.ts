/**
 * A cap on the connections a listener holds, inside the process's budget of descriptors: a connection
 * over either is closed as soon as it is accepted, and the ones already open are served as before.
 * Refusals are logged at warn level, at most once a minute with the number refused since.
 */
import type { Server } from 'node:net';
import type { Logger } from '../logger.js';
import { connectionBudgetFor, softNofileLimit } from './fd-budget.js';

/** A count of open connections under a limit. */
export class ConnectionPool {
  #open = 0;

  constructor(readonly limit: number) {}

  get open(): number {
    return this.#open;
  }

  /** Count one more connection; false (nothing counted) when the pool is full. */
  tryOpen(): boolean {
    if (this.#open >= this.limit) return false;
    this.#open++;
    return true;
  }

  /** One counted connection closed. */
  closed(): void {
    this.#open--;
  }
}

let processPool: ConnectionPool | undefined;

/** Every listener's connections count here too: the descriptors the process can spare for them. */
export function processConnections(): ConnectionPool {
  return (processPool ??= new ConnectionPool(connectionBudgetFor(softNofileLimit())));
}

const WARN_EVERY_MS = 60_000;

/** What {@link guardConnections} needs. */
export interface ConnectionGuardOptions {
  /** This listener's own limit; undefined: only the process's budget applies. */
  maxConnections: number | undefined;
  logger: Logger;
  /** The listener, in log lines: `gRPC`, `HTTP`. */
  what: string;
  /** The process-wide pool. Default {@link processConnections}. */
  pool?: ConnectionPool;
}

/**
 * Count `server`'s connections and close at once those over its own limit or over the process's
 * budget. Returns the listener's own pool (its `open` is what it holds now).
 */
export function guardConnections(server: Server, o: ConnectionGuardOptions): ConnectionPool {
  const own = new ConnectionPool(o.maxConnections ?? Number.POSITIVE_INFINITY);
  const shared = o.pool ?? processConnections();
  let refused = 0;
  let warnedAt = -WARN_EVERY_MS;
  server.on('connection', (socket: { destroy(): void; once(e: 'close', f: () => void): void }) => {
    if (own.tryOpen()) {
      if (shared.tryOpen()) {
        socket.once('close', () => {
          own.closed();
          shared.closed();
        });
        return;
      }
      own.closed();
    }
    socket.destroy();
    refused++;
    const now = Date.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      warnedAt = now;
      const full =
        own.open >= own.limit
          ? `its limit of ${own.limit} (maxConnections)`
          : `the process's budget of ${shared.limit} (from the open-files limit)`;
      o.logger.warn(
        { refused, open: own.open },
        `${o.what} connections refused: ${full} is reached`,
      );
      refused = 0;
    }
  });
  return own;
}
