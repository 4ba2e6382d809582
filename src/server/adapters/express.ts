/**
 * Mounting an agent in Express (4 or 5) or Connect. Express is not a dependency: the types below
 * describe only what is used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import {
  markHostChecked,
  mountPathOf,
  originOf,
  type FrameworkAdapterOptions,
} from './framework-common.js';
import { preparer } from './prepare.js';

export type { FrameworkAdapterOptions } from './framework-common.js';
export { HostNotAllowedError, MountError } from './framework-common.js';

type Next = (err?: unknown) => void;

/**
 * Express/Connect middleware serving the agent where it is mounted. Paths the agent does not serve go
 * on to `next`. Bodies that `express.json()` already parsed are used as they are (mind its 100 kB
 * default limit).
 *
 * Mounted under a prefix, the card is built for that prefix, so the URLs it advertises are the ones
 * served: `app.use('/reporter', a2aExpress(server, { origin }))` advertises
 * `https://agent.example.com/reporter/…` and serves the card at `/reporter/.well-known/agent-card.json`.
 * The card is built on the first request (Express does not tell middleware where it is mounted
 * before that); an error in it goes to `next` (a {@link MountError} naming the entry).
 *
 * Throws at once when the card is a function of its URL and neither `origin` nor `allowedHosts` is
 * given here or to the server: the card is never built from an unchecked Host header. Requests whose
 * Host is outside `allowedHosts` go to `next` with a {@link HostNotAllowedError} (status 400).
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
export function a2aExpress(server: AgentServer, options: FrameworkAdapterOptions = {}) {
  const ensure = preparer(server, options);
  return function a2aMiddleware(
    req: IncomingMessage & { protocol?: string; baseUrl?: string },
    res: ServerResponse,
    next: Next,
  ): void {
    let ready: Promise<void> | undefined;
    try {
      ready = ensure(originOf(req, req.protocol), mountPathOf(req));
    } catch (err) {
      return next(err);
    }
    markHostChecked(req);
    if (!ready) return server.listener(req, res, next);
    ready.then(
      () => server.listener(req, res, next),
      (err: unknown) => next(err),
    );
  };
}
