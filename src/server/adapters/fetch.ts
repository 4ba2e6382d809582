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
import { refusal } from '../mount/node-listener.js';
import type { RequestFacts } from '../mount/origin-policy.js';
import type { Site } from '../mount/site.js';
import { adapterPolicy } from './policy.js';

/**
 * Options of {@link toFetchHandler}. With a card that is a function of its origin, one of the two is
 * required (or the server's own): the card is never built from an unchecked Host.
 */
export interface FetchHandlerOptions {
  /** The public origin the card advertises (`https://agent.example.com`). */
  origin?: string;
  /**
   * Hosts this agent answers; other hosts get a 400. Without `origin`, each allowed host gets a card
   * of its own origin (the request URL's, as the host runtime built it).
   */
  allowedHosts?: readonly string[];
}

/** A Web-standard request handler, as Bun, Deno and Hono take it. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Answer Web Requests with an agent server: the card (with ETag / 304), the push JWKS, and every
 * interface of the card at its path. Paths the agent does not serve get a JSON 404. Throws an
 * `A2AConfigError` at once when the card needs an origin and neither option (nor the server) gives one.
 */
export function toFetchHandler(
  server: AgentServer,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const policy = adapterPolicy(server, {
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const { mount } = server;
  return async function handleFetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const facts = (): RequestFacts => ({
      scheme: url.protocol === 'https:' ? 'https' : 'http',
      host: url.host,
    });
    let site: Site;
    try {
      site = await mount.siteFor(facts, '', policy);
    } catch (err) {
      mount.report(err);
      const r = refusal(err);
      return new Response(r.body, {
        status: r.status,
        headers: { 'content-type': 'application/json' },
      });
    }
    const route = site.route(url.pathname);
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
