/**
 * Web `fetch` adapter: serve an agent from hosts that speak `Request → Response` (Hono, Bun, Deno,
 * Cloudflare-style workers with node compatibility). Every binding runs unchanged behind it.
 *
 * @example
 * const handle = toFetchHandler(createAgentServer({ card, executor }), { origin: 'https://agent.example.com' });
 * Bun.serve({ fetch: handle });            // Bun
 * Deno.serve(handle);                      // Deno
 * app.all('*', (c) => handle(c.req.raw));  // Hono
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import { FetchIncomingMessage, FetchServerResponse } from './fetch-shim.js';
import { preparer } from './prepare.js';

/** A node:http style listener (what {@link AgentServer.listener} is). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface FetchHandlerOptions {
  /**
   * The public origin the card advertises (`https://agent.example.com`). Without it, an unprepared
   * server is prepared on the first request with that request's origin.
   */
  origin?: string;
}

/** Answer Web Requests with an agent server (or any node:http listener). Streams come back as streamed bodies. */
export function toFetchHandler(target: AgentServer | NodeListener, options: FetchHandlerOptions = {}) {
  const listener: NodeListener = typeof target === 'function' ? target : target.listener;
  const ready = typeof target === 'function' ? undefined : preparer(target, options.origin);
  return async function handleFetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (ready) await ready(url.origin);
    const req = new FetchIncomingMessage(request, url.pathname + url.search);
    return new Promise<Response>((resolve) => {
      const res = new FetchServerResponse(resolve);
      request.signal?.addEventListener('abort', () => res.clientGone(), { once: true });
      try {
        listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      } catch {
        // The listener failed before answering: the host gets a bare 500, never the internals.
        res.destroy();
      }
    });
  };
}
