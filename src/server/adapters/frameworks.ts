/**
 * Mounting an agent in Express and Fastify. Neither framework is a dependency: the types below
 * describe only what is used, so any compatible version (Express 4/5, Connect, Fastify 4/5) fits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import { preparer } from './prepare.js';

export interface FrameworkAdapterOptions {
  /** Public origin the card advertises; without it the first request's origin is used. */
  origin?: string;
}

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

/** The parts of a Fastify instance the plugin uses (method syntax keeps it assignable from FastifyInstance). */
export interface FastifyLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(type: string, parser: (req: any, payload: any, done: (err: Error | null, body?: unknown) => void) => void): void;
  all(path: string, handler: (request: any, reply: any) => Promise<void>): unknown;
}

/**
 * A Fastify plugin serving the agent on every path of its (encapsulated) context. It leaves bodies
 * unparsed for the bindings, which read the raw request; other routes of the app keep precedence.
 *
 * @example
 * await app.register(a2aFastify(server, { origin: 'https://agent.example.com' }));
 */
export function a2aFastify(server: AgentServer, options: FrameworkAdapterOptions = {}) {
  const ready = preparer(server, options.origin);
  return async function a2aPlugin(instance: FastifyLike): Promise<void> {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handler = async (
      request: { raw: IncomingMessage; protocol?: string },
      reply: { raw: ServerResponse; hijack(): void },
    ): Promise<void> => {
      await ready(originOf(request.raw, request.protocol));
      reply.hijack();
      server.listener(request.raw, reply.raw);
    };
    instance.all('/', handler);
    instance.all('/*', handler);
  };
}

function originOf(req: IncomingMessage, protocol: string | undefined): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return `${protocol ?? (encrypted ? 'https' : 'http')}://${req.headers.host ?? 'localhost'}`;
}
