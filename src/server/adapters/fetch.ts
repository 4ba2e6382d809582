/**
 * Web `fetch` adapter: serve an agent from hosts that speak `Request → Response` (Hono, Bun, Deno,
 * Cloudflare-style workers). The bindings answer the Request directly (no node:http in between):
 * unary answers are Responses with their whole body, streams are Responses whose body is a
 * `ReadableStream` of Server-Sent Events that ends when the client goes away (the host cancels the
 * body or aborts `request.signal`).
 *
 * @example
 * const handle = toFetchHandler(createAgentServer({ card, executor }), { origin: 'https://agent.example.com' });
 * Bun.serve({ fetch: handle });            // Bun
 * Deno.serve(handle);                      // Deno
 * app.all('*', (c) => handle(c.req.raw));  // Hono
 */
import type { AgentServer } from '../agent-server.js';
import type { ServedRoute } from '../bindings/registry.js';
import { WebExchange } from '../bindings/web-exchange.js';
import { HostNotAllowedError, MountError } from './framework-common.js';
import { preparer } from './prepare.js';

/**
 * Options of {@link toFetchHandler}. With a card that is a function of its origin, one of the two is
 * required (or the server's own): the card is never built from an unchecked Host.
 */
export interface FetchHandlerOptions {
  /** The public origin the card advertises (`https://agent.example.com`). */
  origin?: string;
  /** Hosts whose requests may prepare the server with their own origin; other hosts get a 400. */
  allowedHosts?: readonly string[];
}

/** A Web-standard request handler, as Bun, Deno and Hono take it. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Answer Web Requests with an agent server: the card (with ETag / 304), the push JWKS, and every
 * interface of the card at its path. Paths the agent does not serve get a JSON 404.
 */
export function toFetchHandler(
  server: AgentServer,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const ready = preparer(server, {
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  return async function handleFetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    try {
      await ready(url.origin);
    } catch (err) {
      return refused(err);
    }
    const route = server.route(url.pathname);
    if (!route) return notFound(url.pathname);
    if (route.kind !== 'binding') return served(route, request);
    const exchange = new WebExchange(request, url.pathname + url.search);
    route.binding.serve(exchange, route.subpath).then(
      () => exchange.answered || exchange.drop(), // a binding always answers; never leave the host waiting
      () => exchange.drop(),
    );
    return exchange.response;
  };
}

/** A foreign Host is the client's mistake (400); a server that cannot be prepared is ours (500). */
function refused(err: unknown): Response {
  const status = err instanceof HostNotAllowedError ? 400 : 500;
  const message =
    err instanceof HostNotAllowedError || err instanceof MountError
      ? (err as Error).message
      : 'this agent server cannot serve requests; see its log';
  const body = {
    error: { code: status, status: status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL', message },
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The card and the push JWKS: fixed documents, answered without a binding. */
function served(route: Exclude<ServedRoute, { kind: 'binding' }>, request: Request): Response {
  if (route.kind === 'jwks') {
    return new Response(JSON.stringify(route.jwks), {
      headers: {
        'content-type': 'application/jwk-set+json',
        'cache-control': 'public, max-age=300',
      },
    });
  }
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD')
    return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
  const r = route.card.respond(request.headers, method);
  return new Response((r.body as Uint8Array<ArrayBuffer> | undefined) ?? null, {
    status: r.status,
    headers: r.headers as unknown as Record<string, string>,
  });
}

function notFound(path: string): Response {
  const body = JSON.stringify({
    error: {
      code: 404,
      status: 'NOT_FOUND',
      message: `Nothing is served at ${path.slice(0, 200)}`,
    },
  });
  return new Response(body, { status: 404, headers: { 'content-type': 'application/json' } });
}
