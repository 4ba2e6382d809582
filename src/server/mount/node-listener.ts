/**
 * The node:http side of mounting: what a request says about where it was sent (Host, scheme, and the
 * forwarded ones only from a trusted proxy), the listener that routes it to its site, and the answer
 * when the server cannot serve it. `listen()`, `agent.listener`, Express and Fastify all use it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AConfigError } from '../kernel/config-error.js';
import type { Mount } from './mount.js';
import { HostNotAllowedError, type OriginPolicy, type RequestFacts } from './origin-policy.js';
import { trimPath } from './plan.js';
import type { Site } from './site.js';
import { lastForwarded, type TrustedProxies } from './trusted-proxies.js';

/** Express and Connect call on with this: `next()` for a path not served here, `next(err)` for a failure. */
export type Next = (err?: unknown) => void;

/** A node:http listener that, as middleware, passes what it does not serve to `next`. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: Next) => void;

/** How a listener finds its site. */
export interface NodeRouting {
  /** The host policy (default: the server's). */
  policy?: OriginPolicy;
  /** The mount path the host framework reports for a request, if any (Express `baseUrl`, Fastify's prefix). */
  mountPath?: (req: IncomingMessage) => string | undefined;
  /** Serve this site only (a further port of `listen()`), after the host check. */
  site?: Site;
}

/** The scheme and Host of a node request; `X-Forwarded-*` are read only from a trusted proxy. */
export function nodeFacts(req: IncomingMessage, proxies: TrustedProxies | undefined): RequestFacts {
  const socket = req.socket as { encrypted?: boolean; remoteAddress?: string } | undefined;
  let scheme: RequestFacts['scheme'] = socket?.encrypted === true ? 'https' : 'http';
  let host = req.headers.host ?? (req.headers[':authority'] as string | undefined);
  if (proxies?.trusts(socket?.remoteAddress)) {
    const proto = lastForwarded(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (proto === 'http' || proto === 'https') scheme = proto;
    host = lastForwarded(req.headers['x-forwarded-host']) ?? host;
  }
  return { scheme, host };
}

/** The path a framework mounted the request under (Express `baseUrl`, Connect `originalUrl` − `url`); undefined when it says nothing. */
export function mountPathOf(
  req: IncomingMessage & { baseUrl?: string; originalUrl?: string },
): string | undefined {
  if (typeof req.baseUrl === 'string') return trimPath(req.baseUrl);
  if (req.originalUrl === undefined) return undefined;
  const full = pathOf(req.originalUrl);
  const own = pathOf(req.url);
  if (full === own) return '';
  const rest = own === '/' ? '' : own;
  return full.endsWith(rest) ? trimPath(full.slice(0, full.length - rest.length)) : undefined;
}

/** The path of a request URL, without its query. */
export function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q >= 0 ? u.slice(0, q) : u;
}

/**
 * The status and JSON body of a refused request: 400 for a foreign Host (the client's mistake), 500 for
 * a server that cannot serve. Configuration errors name only configuration, so their message is shown;
 * anything else stays in the log.
 */
export function refusal(err: unknown): { status: 400 | 500; body: string } {
  const foreign = err instanceof HostNotAllowedError;
  const message =
    foreign || err instanceof A2AConfigError
      ? (err as Error).message
      : 'this agent server cannot serve requests; see its log';
  const status = foreign ? 400 : 500;
  const body = JSON.stringify({
    error: { code: status, status: foreign ? 'INVALID_ARGUMENT' : 'INTERNAL', message },
  });
  return { status, body };
}

/** The listener of `mount` routed as `how` says; `first` may answer a request before routing (health). */
export function nodeListener(
  mount: Mount,
  how: NodeRouting = {},
  first?: (req: IncomingMessage, res: ServerResponse) => boolean,
): NodeListener {
  const policy = how.policy ?? mount.policy;
  const facts = (req: IncomingMessage) => () => nodeFacts(req, policy.proxies);
  const refuse = (err: unknown, res: ServerResponse, next: Next | undefined): void => {
    mount.report(err);
    if (typeof next === 'function') return next(err);
    const r = refusal(err);
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
  };
  return (req, res, next) => {
    if (first?.(req, res)) return;
    let site: Site | Promise<Site>;
    try {
      if (how.site) {
        if (policy.allowedHosts) policy.checkHost(nodeFacts(req, policy.proxies).host);
        site = how.site;
      } else {
        const told = how.mountPath ? how.mountPath(req) : mountPathOf(req);
        site = mount.siteFor(facts(req), told, policy);
      }
    } catch (err) {
      return refuse(err, res, next);
    }
    if (site instanceof Promise) {
      site.then(
        (s) => answer(s, req, res, next),
        (err: unknown) => refuse(err, res, next),
      );
    } else answer(site, req, res, next);
  };
}

/** Answer from `site`, or pass on (middleware) / 404 what it does not serve. */
function answer(
  site: Site,
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  next: Next | undefined,
): void {
  // Routes hold full paths (mount path included); Express and Connect strip it from `url`, not `originalUrl`.
  const path = pathOf(req.originalUrl ?? req.url);
  if (site.answer(path, req, res)) return;
  if (typeof next === 'function') return next();
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: `Nothing is served at ${path.slice(0, 200)}`,
      },
    }),
  );
}
