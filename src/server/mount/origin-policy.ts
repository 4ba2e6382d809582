/**
 * The origin policy every way of mounting an agent shares (the raw listener, Express, Fastify, fetch):
 * where the card's URLs come from, and which Host headers are answered. The rule is that a card is
 * never derived from a Host header nobody checked — one request with `Host: evil.example` would
 * otherwise decide the URLs that are signed, cached and handed to every later client.
 */
import type { IncomingMessage } from 'node:http';

/** Where an agent's card gets its URLs when it is mounted in a host's server. */
export interface MountOptions {
  /**
   * The public origin the card advertises, e.g. `https://agent.example.com` (scheme, host and port, no
   * path: a mount path is added from the framework). Needed when the card is a function of the origin,
   * unless `allowedHosts` is given. A card given as an object already holds its URLs and needs none.
   * Under `listen`, the card is built for this origin instead of the listen address (behind a proxy).
   */
  origin?: string;
  /**
   * Host header values this agent answers (`agent.example.com` for any port, `localhost:3000` for one).
   * Requests with any other Host get a 400. Without `origin`, the card is built for the first accepted
   * request's host, so only a host on this list can ever appear in it.
   */
  allowedHosts?: readonly string[];
}

/** Options of the Express and Fastify adapters; they override the server's own `origin` and `allowedHosts`. */
export type FrameworkAdapterOptions = MountOptions;

/**
 * The agent cannot be mounted as configured: no origin for a card function, a card entry that would
 * not be answered at its URL, a second mount path. Its message says what to change; it names only
 * configuration and the public card, so an unprepared listener may show it in its 500 answer.
 */
export class MountError extends Error {
  override name = 'MountError';
}

/** A request whose Host header is not on the allow-list; frameworks answer with its `status` (400). */
export class HostNotAllowedError extends Error {
  /** HTTP status, where Express looks for it. */
  readonly status = 400;
  /** HTTP status, where Fastify looks for it. */
  readonly statusCode = 400;
  constructor(host: string | undefined) {
    super(
      `Host ${host === undefined ? '(none)' : JSON.stringify(host)} is not one this agent answers (see allowedHosts)`,
    );
    this.name = 'HostNotAllowedError';
  }
}

const hostChecked = new WeakSet<object>();

/**
 * Mark a request whose Host an adapter already checked against its own `allowedHosts`, which override
 * the server's: the listener then does not check it again against the server's list.
 */
export function markHostChecked(req: object): void {
  hostChecked.add(req);
}

/** Whether {@link markHostChecked} was called for this request. */
export function isHostChecked(req: object): boolean {
  return hostChecked.has(req);
}

/** The message when a card needs an origin and nothing trustworthy gives one. */
export const ORIGIN_REQUIRED =
  'this agent card is built from the URL the server is reached at, and no origin was given: pass `origin` ' +
  '(e.g. "https://agent.example.com") or `allowedHosts` to createAgentServer or to the adapter, or call ' +
  '`await server.prepare(origin)` before serving. The Host header of a request is not used on its own, since any client can set it.';

/** Check `origin` is `scheme://host[:port]` and return it normalised; throws a clear error otherwise. */
export function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new MountError(
      `origin must be an absolute URL such as "https://agent.example.com", got "${origin}"`,
    );
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname.replace(/\/+$/, '') ||
    url.search ||
    url.hash
  ) {
    throw new MountError(
      `origin must be just scheme, host and port (e.g. "https://agent.example.com"), got "${origin}"; a mount path comes from where the agent is mounted`,
    );
  }
  return url.origin;
}

/** The origin of a request as the framework saw it (`protocol` from the framework, else the socket). */
export function originOf(req: IncomingMessage, protocol: string | undefined): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return `${protocol ?? (encrypted ? 'https' : 'http')}://${req.headers.host ?? ''}`; // no Host: matches no allow-list
}

/** The path a framework mounted the request under (Express `baseUrl`, Connect `originalUrl` − `url`), `''` at the root. */
export function mountPathOf(
  req: IncomingMessage & { baseUrl?: string; originalUrl?: string },
): string {
  if (typeof req.baseUrl === 'string') return req.baseUrl.replace(/\/+$/, '');
  const full = pathOnly(req.originalUrl);
  const own = pathOnly(req.url);
  if (full === undefined || own === undefined || full === own) return '';
  const rest = own === '/' ? '' : own;
  return full.endsWith(rest) ? full.slice(0, full.length - rest.length).replace(/\/+$/, '') : '';
}

function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

/** `name` and `port` of a Host value (`agent.example.com`, `localhost:3000`, `[::1]:8080`); undefined when malformed. */
function splitHost(value: string): { name: string; port: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  return m ? { name: m[1]!, port: m[2] ?? '' } : undefined;
}

/**
 * Whether a Host header value is on the list. An entry without a port allows any port of that host; a
 * malformed value (a path, userinfo, spaces) is never allowed.
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  const h = host === undefined ? undefined : splitHost(host);
  if (!h) return false;
  return allowed.some((entry) => {
    const e = splitHost(entry);
    return e !== undefined && e.name === h.name && (e.port === '' || e.port === h.port);
  });
}

/**
 * The origin to build a card for: the configured one, else the request's own when its host is on the
 * allow-list. Throws {@link HostNotAllowedError} for another host, and {@link ORIGIN_REQUIRED} when
 * neither is configured.
 */
export function originFor(policy: MountOptions, requestOrigin: string): string {
  if (policy.origin) return checkOrigin(policy.origin);
  if (policy.allowedHosts?.length) {
    const host = requestOrigin.replace(/^[a-z]+:\/\//i, '');
    if (!hostAllowed(host, policy.allowedHosts)) throw new HostNotAllowedError(host);
    return new URL(requestOrigin).origin;
  }
  throw new MountError(ORIGIN_REQUIRED);
}

/** Why a prepared server refuses requests that reach it under another mount path. */
export function mountedElsewhere(prepared: string, seen: string): string {
  return (
    `this agent server is prepared for the mount path "${prepared}" (its card advertises URLs below it), but a request ` +
    `reached it under "${seen}"; mount one agent server at one path, or create one server per mount`
  );
}
