/**
 * The one host policy of every way of mounting an agent (listen(), the raw listener, Express, Fastify,
 * fetch): which Host values are answered, and which origin a request's card carries. The origin is
 * fixed by configuration (`origin`, `prepare(origin)`, the address `listen()` binds) or decided per
 * request among `allowedHosts` — never latched from whichever request came first, since a card is
 * signed, cached and handed to every later client.
 */
import { A2AConfigError } from '../kernel/config-error.js';
import { TrustedProxies } from './trusted-proxies.js';

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
   * Requests with any other Host get a 400. Without `origin`, each request's card carries that
   * request's own origin (one card per origin, built on first use), so only a host on this list can
   * appear in a card, and no request changes what another is told.
   */
  allowedHosts?: readonly string[];
  /**
   * Addresses (`10.0.0.7`, `::1`) or CIDR ranges (`10.0.0.0/8`) of the reverse proxies in front of this
   * server. Only a request whose connection comes from one of them has its `X-Forwarded-Proto` and
   * `X-Forwarded-Host` read (the last value of each: the one that proxy set); the forwarded host must be
   * on `allowedHosts` like a Host header. A framework's own setting (Express `trust proxy`, Fastify
   * `trustProxy`) is not read. Default: none, the headers are ignored.
   */
  trustedProxies?: readonly string[];
}

/** Options of the Express and Fastify adapters; they override the server's own `origin`, `allowedHosts` and `trustedProxies`. */
export type FrameworkAdapterOptions = MountOptions;

/** A request whose Host header is not on the allow-list; frameworks answer with its `status` (400). */
export class HostNotAllowedError extends Error {
  /** HTTP status, where Express looks for it. */
  readonly status = 400;
  /** HTTP status, where Fastify looks for it. */
  readonly statusCode = 400;
  constructor(host: string | undefined) {
    super(
      `Host ${host === undefined ? '(none)' : JSON.stringify(host.slice(0, 300))} is not one this agent answers (see allowedHosts)`,
    );
    this.name = 'HostNotAllowedError';
  }
}

/** The message when a card needs an origin and nothing trustworthy gives one. */
export const ORIGIN_REQUIRED =
  'this agent card is built from the URL the server is reached at, and no origin was given: pass `origin` ' +
  '(e.g. "https://agent.example.com") or `allowedHosts` to createAgentServer or to the adapter, or call ' +
  '`await server.prepare(origin)` before serving. The Host header of a request is not used on its own, since any client can set it.';

/** Check `origin` is `scheme://host[:port]` and return it normalised; an {@link A2AConfigError} otherwise. */
export function checkOrigin(origin: string, option = 'origin'): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new A2AConfigError(
      option,
      `${option} must be an absolute URL such as "https://agent.example.com", got "${origin}"`,
    );
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname.replace(/\/+$/, '') ||
    url.search ||
    url.hash
  ) {
    throw new A2AConfigError(
      option,
      `${option} must be just scheme, host and port (e.g. "https://agent.example.com"), got "${origin}"; a mount path comes from where the agent is mounted`,
    );
  }
  return url.origin;
}

/** `name` and `port` of a Host value (`agent.example.com`, `localhost:3000`, `[::1]:8080`); undefined when malformed. */
function splitHost(value: string): { name: string; port: string } | undefined {
  // Bounded before matching: a Host longer than any DNS name is malformed whatever it holds.
  if (value.length > 300) return undefined;
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

/** What a request says about where it was sent: the scheme and Host (forwarded ones only from a trusted proxy). */
export interface RequestFacts {
  scheme: 'http' | 'https';
  host: string | undefined;
}

/**
 * Where a request's card comes from: `'fixed'` (the configured origin or a card object: one card for
 * everyone), or the request's own origin among the allowed hosts.
 */
export type OriginChoice = { kind: 'fixed'; origin: string | undefined } | { kind: 'request' };

/** A checked {@link MountOptions}: built once (errors at construction), asked on every request. */
export class OriginPolicy {
  readonly origin: string | undefined;
  readonly allowedHosts: readonly string[] | undefined;
  readonly proxies: TrustedProxies | undefined;

  constructor(options: MountOptions, fallback?: OriginPolicy) {
    this.origin = options.origin !== undefined ? checkOrigin(options.origin) : fallback?.origin;
    const hosts = options.allowedHosts ?? fallback?.allowedHosts;
    if (hosts !== undefined && (!Array.isArray(hosts) || hosts.some((h) => !splitHost(h)))) {
      throw new A2AConfigError(
        'allowedHosts',
        `allowedHosts must list host names, optionally with a port ("agent.example.com", "localhost:3000"), got ${JSON.stringify(hosts)}`,
      );
    }
    this.allowedHosts = hosts?.length ? [...hosts] : undefined;
    this.proxies =
      options.trustedProxies !== undefined
        ? TrustedProxies.of(options.trustedProxies)
        : fallback?.proxies;
  }

  /** Throws {@link HostNotAllowedError} unless `host` may be answered (no list: every host may). */
  checkHost(host: string | undefined): void {
    if (this.allowedHosts && !hostAllowed(host, this.allowedHosts))
      throw new HostNotAllowedError(host);
  }

  /**
   * The origin of a request's card: `fixed` (configured, or `undefined` for a card object that holds
   * its own URLs), else the request's own when `allowedHosts` can vouch for it. An
   * {@link A2AConfigError} when the card needs an origin and nothing gives one.
   */
  choose(cardNeedsOrigin: boolean, fixed: string | undefined): OriginChoice {
    if (!cardNeedsOrigin) return { kind: 'fixed', origin: undefined };
    const origin = fixed ?? this.origin;
    if (origin !== undefined) return { kind: 'fixed', origin };
    if (this.allowedHosts) return { kind: 'request' };
    throw new A2AConfigError('origin', ORIGIN_REQUIRED);
  }
}

/** The origin a request was sent to, once its host passed {@link OriginPolicy.checkHost}. */
export function requestOrigin(facts: RequestFacts): string {
  return new URL(`${facts.scheme}://${facts.host ?? ''}`).origin;
}
