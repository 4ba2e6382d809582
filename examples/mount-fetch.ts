/**
 * An agent behind a Web `fetch` handler, `(Request) => Promise<Response>`, for hosts that speak it:
 *
 *   Bun.serve({ fetch: handle });  Deno.serve(handle);  app.all('*', (c) => handle(c.req.raw)) // Hono
 *
 * Here the client's own `fetch` is the handler, so no socket is involved at all.
 *
 *   npx tsx examples/mount-fetch.ts
 */
import { createAgentServer } from 'a2a-kit/server';
import { toFetchHandler } from 'a2a-kit/server/fetch';
import { echo, echoCard } from './echo-agent.js';
import { tryAgent } from './try-agent.js';

const origin = 'http://agent.localhost'; // the public origin the card advertises

const handle = toFetchHandler(createAgentServer({ executor: echo, card: echoCard }), { origin });

await tryAgent('fetch', origin, { fetch: (input, init) => handle(new Request(input, init)) });
