/**
 * The echo agent (examples/echo-agent.ts) as a Cloudflare Worker: a module whose `fetch` is
 * `toFetchHandler`. It needs the `nodejs_compat` flag (the server uses node:crypto and friends, which
 * workerd provides). `wrangler dev` / `wrangler deploy` read wrangler.jsonc beside this file; the CI
 * runs the same module, bundled with esbuild, on workerd itself (test/runtimes/fetch-server.test.ts).
 *
 * Tasks live in the isolate's memory here: a Worker may run in several isolates, so a real deployment
 * keeps them in a shared store (postgresStore) and follows streams with an event bus.
 */
import { createAgentServer } from 'a2a-kit/server';
import { toFetchHandler, type FetchHandler } from 'a2a-kit/server/fetch';
import { echo, echoCard } from '../echo.js';

/** The Worker's variables (wrangler.jsonc `vars`). */
interface Env {
  /** Comma-separated hosts the agent answers for; its card is built for the first request's origin. */
  A2A_ALLOWED_HOSTS?: string;
}

let handle: FetchHandler | undefined;

export default {
  /** Created on the first request: Workers allow no timers or random numbers at module scope. */
  fetch(request: Request, env: Env): Promise<Response> {
    handle ??= toFetchHandler(createAgentServer({ executor: echo, card: echoCard }), {
      allowedHosts: (env.A2A_ALLOWED_HOSTS ?? 'localhost,127.0.0.1')
        .split(',')
        .map((h) => h.trim()),
    });
    return handle(request);
  },
};
