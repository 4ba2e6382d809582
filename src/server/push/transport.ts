/**
 * How one push delivery attempt goes on the wire.
 *
 * The default transport uses node:http / node:https with a custom `lookup` that hands the socket the
 * addresses the SSRF guard just checked, so a hostname re-pointed between check and connect (DNS
 * rebinding) cannot redirect the request. Global `fetch` cannot be pinned this way without importing
 * undici's Agent, which Node bundles but does not expose, hence node:http here. TLS still verifies the
 * certificate against the URL's hostname (SNI and identity come from the URL, not the address).
 *
 * A `fetch`-based transport exists for tests and special runtimes; it re-checks the URL before each
 * attempt but cannot pin the connection to the checked address.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './ssrf.js';
import { deadline } from '../../protocol/deadline.js';

/** One attempt to deliver. */
export interface DeliveryRequest {
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The addresses the guard approved; the connection must go to one of them. */
  addresses: ResolvedAddress[];
  timeoutMs: number;
  /** Aborted when the sender closes. */
  signal: AbortSignal;
  /** Response bytes read at most; the rest is discarded by closing the connection. */
  maxResponseBytes: number;
}

/** What the sender needs from a response: its status and the headers that steer retries. */
export interface DeliveryResponse {
  status: number;
  retryAfter?: string | null;
}

/** Sends one attempt. Rejects on network errors, timeouts and aborts. */
export type DeliveryTransport = (req: DeliveryRequest) => Promise<DeliveryResponse>;

/** A fetch-compatible function (global fetch or a test double). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A pinned node:http(s) transport with its own keep-alive agents; `close()` frees their sockets. */
export interface PinnedTransport {
  send: DeliveryTransport;
  close(): void;
}

function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    // net.connect asks for every address when happy-eyeballs (autoSelectFamily) is on, one otherwise.
    const cb = callback as (err: Error | null, a: unknown, f?: number) => void;
    const wanted =
      options.family === 4 || options.family === 6
        ? addresses.filter((a) => a.family === options.family)
        : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all)
      cb(
        null,
        list.map((a) => ({ address: a.address, family: a.family })),
      );
    else cb(null, list[0]!.address, list[0]!.family);
  };
}

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
}

/** The default transport: node:http(s), connection pinned to the checked addresses, redirects never followed. */
export function createPinnedTransport(
  tls: { ca?: string | Buffer | Array<string | Buffer> } = {},
): PinnedTransport {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxFreeSockets: 16 }),
    'https:': new https.Agent({
      keepAlive: true,
      maxFreeSockets: 16,
      ...(tls.ca ? { ca: tls.ca } : {}),
    }),
  };
  const send: DeliveryTransport = (req) =>
    new Promise<DeliveryResponse>((resolve, reject) => {
      const isHttps = req.url.protocol === 'https:';
      const mod = isHttps ? https : http;
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        cleanup();
        reject(err);
      };
      const request = mod.request(req.url, {
        method: 'POST',
        headers: { ...req.headers, 'Content-Length': String(req.body.byteLength) },
        agent: isHttps ? agents['https:'] : agents['http:'],
        lookup: pinnedLookup(req.addresses),
      });
      const timer = setTimeout(
        () => request.destroy(new TimeoutError(`no response within ${req.timeoutMs} ms`)),
        req.timeoutMs,
      );
      const onAbort = () => request.destroy(new Error('push sender closed'));
      req.signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        req.signal.removeEventListener('abort', onAbort);
      };
      request.on('error', fail);
      request.on('response', (res) => {
        settled = true;
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: headerValue(res.headers['retry-after']),
        });
        // Read (and discard) a small body so the socket can be reused; anything larger or slower is cut off.
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.byteLength;
          if (seen > req.maxResponseBytes) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', cleanup);
      });
      if (req.signal.aborted) onAbort();
      request.end(req.body);
    });
  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function headerValue(v: string | string[] | undefined): string | null {
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? null) : v;
}

/**
 * A transport over a fetch-compatible function: `redirect: 'manual'`, a timeout, and the body cancelled
 * unread. Not pinned to the checked address (see the module comment).
 */
export function fetchTransport(fetchFn: FetchLike): DeliveryTransport {
  return async (req) => {
    // Not AbortSignal.any over AbortSignal.timeout: Node 20 may collect that timer (see deadline).
    const limit = deadline(req.signal, req.timeoutMs, 'the delivery');
    try {
      const res = await fetchFn(req.url.href, {
        method: 'POST',
        headers: req.headers,
        body: req.body as Uint8Array<ArrayBuffer>,
        redirect: 'manual',
        signal: limit.signal,
      });
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    } finally {
      limit.clear();
    }
  };
}
