/**
 * Opening a node:http server with timeouts against slow clients. Node's own defaults let a client
 * that trickles its headers hold a connection for 60 s plus up to 30 s before the check runs (400 such
 * connections were seen open for 80 s); these are tighter and checked every second at most.
 *
 * Node applies `headersTimeout` and `requestTimeout` only while it is still *receiving* a request: once
 * the request is complete the connection leaves the checked set, so a long SSE response is never cut
 * by them (test/mount-timeouts.test.ts holds a stream open past the request timeout).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { A2AConfigError } from '../kernel/config-error.js';
import { wholeNumber } from '../util/check-options.js';
import type { HttpConnectionOptions } from '../conn/options.js';
import { guardConnections } from '../conn/connection-guard.js';
import type { Logger } from '../logger.js';

/** Timeouts of the servers `listen` opens. Each is in milliseconds; 0 turns it off. */
export interface HttpTimeoutOptions {
  /** Time a client has to send the complete request headers. Default 10 000 ms. */
  headersTimeoutMs?: number;
  /** Time a client has to send the complete request, body included. Default 30 000 ms (a 4 MiB body at 140 KB/s). */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open between requests. Default 5 000 ms. */
  keepAliveTimeoutMs?: number;
}

/** The defaults of {@link HttpTimeoutOptions}. */
export const DEFAULT_HTTP_TIMEOUTS: Readonly<Required<HttpTimeoutOptions>> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

function ms(name: keyof HttpTimeoutOptions, value: number | undefined): number {
  return wholeNumber(name, value, 0) ?? DEFAULT_HTTP_TIMEOUTS[name];
}

/** Node's server options for these timeouts; an A2AConfigError for inconsistent values. */
export function serverTimeouts(o: HttpTimeoutOptions) {
  const headersTimeout = ms('headersTimeoutMs', o.headersTimeoutMs);
  const requestTimeout = ms('requestTimeoutMs', o.requestTimeoutMs);
  const keepAliveTimeout = ms('keepAliveTimeoutMs', o.keepAliveTimeoutMs);
  if (requestTimeout > 0 && headersTimeout > requestTimeout) {
    throw new A2AConfigError(
      'headersTimeoutMs',
      `headersTimeoutMs (${headersTimeout}) must not exceed requestTimeoutMs (${requestTimeout}): the headers are part of the request`,
    );
  }
  // Node checks both timeouts on an interval (30 s by default); a quarter of the shortest keeps the overshoot small.
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((t) => t > 0));
  const connectionsCheckingInterval = Number.isFinite(shortest)
    ? Math.max(50, Math.min(1000, Math.floor(shortest / 4)))
    : 30_000;
  return { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval };
}

/**
 * Create a server with these timeouts and connection limit and listen on `port` and `host`; rejects
 * when it cannot listen (or with an A2AConfigError for a wrong option).
 */
export async function openHttpServer(
  port: number,
  host: string,
  options: HttpTimeoutOptions & HttpConnectionOptions,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  logger: Logger,
): Promise<Server> {
  const maxConnections = wholeNumber('maxConnections', options.maxConnections, 1);
  const server = createServer(serverTimeouts(options), listener);
  guardConnections(server, { maxConnections, logger, what: 'HTTP' });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
