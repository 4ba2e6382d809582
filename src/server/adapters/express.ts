/**
 * Mounting an agent in Express (4 or 5) or Connect. Express is not a dependency: the types below
 * describe only what is used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import type { Next } from '../mount/node-listener.js';
import type { FrameworkAdapterOptions } from '../mount/origin-policy.js';
import { adapterPolicy } from './policy.js';

export type { FrameworkAdapterOptions } from '../mount/origin-policy.js';
export { HostNotAllowedError } from '../mount/origin-policy.js';
export { A2AConfigError } from '../kernel/config-error.js';

/**
 * Express/Connect middleware serving the agent where it is mounted. Paths the agent does not serve go
 * on to `next`. Bodies that `express.json()` already parsed are used as they are (mind its 100 kB
 * default limit).
 *
 * Mounted under a prefix, the card is built for that prefix, so the URLs it advertises are the ones
 * served: `app.use('/reporter', a2aExpress(server, { origin }))` advertises
 * `https://agent.example.com/reporter/…` and serves the card at `/reporter/.well-known/agent-card.json`.
 * The card is built on the first request (Express does not tell middleware where it is mounted
 * before that); an error in it goes to `next` (an `A2AConfigError` naming what to change), and is logged.
 *
 * Throws an `A2AConfigError` at once when the card is a function of its URL and neither `origin` nor
 * `allowedHosts` is given here or to the server: the card is never built from an unchecked Host
 * header. With `allowedHosts` and no `origin`, each allowed host gets a card of its own origin.
 * Requests whose Host is outside `allowedHosts` go to `next` with a `HostNotAllowedError` (status 400).
 * Express's `trust proxy` is not read: give `trustedProxies` for `X-Forwarded-Proto` / `-Host`.
 *
 * @example
 * import express from 'express';
 * import { a2aExpress } from 'a2a-kit/server/express';
 *
 * const app = express();
 * app.use('/reporter', a2aExpress(server, { origin: 'https://agent.example.com' }));
 * app.listen(8080);
 * // A2AClient.connect('https://agent.example.com/reporter') finds the card and calls what it advertises.
 */
export function a2aExpress(
  server: AgentServer,
  options: FrameworkAdapterOptions = {},
): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  return server.nodeHandler({ policy: adapterPolicy(server, options) });
}
