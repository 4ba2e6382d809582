/**
 * The echo agent (examples/echo-agent.ts) served through `toFetchHandler` by Bun or Deno, each with
 * its own server for Web fetch handlers; nothing of node:http is involved.
 *
 *   bun examples/runtimes/serve-fetch.ts                      # listens on 41240 (PORT=0: a free port)
 *   deno run --allow-net --allow-env --allow-read --sloppy-imports examples/runtimes/serve-fetch.ts
 *
 * (Deno's flag lets `../echo-agent.js` name the `.ts` file, as TypeScript's NodeNext resolution wants.)
 */
import { createAgentServer } from 'a2a-kit/server';
import { toFetchHandler } from 'a2a-kit/server/fetch';
import { echo, echoCard } from '../echo.js';

/** The little of Bun's and Deno's globals this file uses (neither runtime's types are installed here). */
interface Runtimes {
  Bun?: {
    serve(o: { port: number; hostname: string; fetch: (r: Request) => Promise<Response> }): {
      port: number;
    };
  };
  Deno?: {
    serve(
      o: { port: number; hostname: string; onListen: (a: { port: number }) => void },
      handler: (r: Request) => Promise<Response>,
    ): unknown;
    env: { get(name: string): string | undefined };
  };
}
const { Bun, Deno } = globalThis as Runtimes;

// The card is built for the origin of the first request, from a host on this list only.
const handle = toFetchHandler(createAgentServer({ executor: echo, card: echoCard }), {
  allowedHosts: ['127.0.0.1', 'localhost'],
});
const port = Number((Deno ? Deno.env.get('PORT') : process.env.PORT) ?? 41240);
const hostname = '127.0.0.1';
const listening = (p: number) => console.log(`echo agent at http://${hostname}:${p}`);

if (Bun) listening(Bun.serve({ port, hostname, fetch: handle }).port);
else if (Deno) Deno.serve({ port, hostname, onListen: (a) => listening(a.port) }, handle);
else
  throw new Error(
    'run this file with bun or deno; on Node, examples/echo-agent.ts serves the same agent',
  );
