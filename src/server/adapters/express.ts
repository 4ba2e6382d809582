/**
 * Mounting an agent in Express (4 or 5) or Connect. Express is not a dependency: the types below
 * describe only what is used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import { originOf, type FrameworkAdapterOptions } from './framework-common.js';
import { preparer } from './prepare.js';

export type { FrameworkAdapterOptions } from './framework-common.js';

type Next = (err?: unknown) => void;

/**
 * Express/Connect middleware. Paths the agent does not serve go on to `next`. Bodies that
 * `express.json()` already parsed are used as they are (mind its 100 kB default limit).
 *
 * @example
 * app.use(a2aExpress(server, { origin: 'https://agent.example.com' }));
 */
export function a2aExpress(server: AgentServer, options: FrameworkAdapterOptions = {}) {
  const ready = preparer(server, options.origin);
  return function a2aMiddleware(req: IncomingMessage & { protocol?: string }, res: ServerResponse, next: Next): void {
    ready(originOf(req, req.protocol)).then(
      () => server.listener(req, res, next),
      (err: unknown) => next(err),
    );
  };
}
