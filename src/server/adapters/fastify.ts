/**
 * Mounting an agent in Fastify (4 or 5). Fastify is not a dependency: the types below describe only
 * what is used, so any compatible version fits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import {
  MountError,
  markHostChecked,
  originOf,
  type FrameworkAdapterOptions,
} from './framework-common.js';
import { mountedElsewhere, preparer } from './prepare.js';

export type { FrameworkAdapterOptions } from './framework-common.js';
export { HostNotAllowedError, MountError } from './framework-common.js';

/** The parts of a Fastify instance the plugin uses (method syntax keeps it assignable from FastifyInstance). */
export interface FastifyLike {
  /** The route prefix of this (encapsulated) context: `''`, or `/reporter` under `register(…, { prefix })`. */
  readonly prefix?: string;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    parser: (req: any, payload: any, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  all(path: string, handler: (request: any, reply: any) => Promise<void>): unknown;
}

/**
 * A Fastify plugin serving the agent on every path of its (encapsulated) context, prefix included:
 * registered with `{ prefix: '/reporter' }`, the card advertises and the server answers URLs below
 * `/reporter`. It leaves bodies unparsed for the bindings, which read the raw request; other routes
 * of the app keep precedence.
 *
 * With an `origin` (here or on the server) or a card object, the card is built and every interface
 * checked while the plugin registers, so `await app.register(…)` rejects for a card that lists an
 * interface it would not answer. With only `allowedHosts`, that happens on the first request.
 * Registering throws at once when the card is a function of its URL and neither is given: the card
 * is never built from an unchecked Host header. Requests with a Host outside `allowedHosts` get 400.
 *
 * @example
 * import Fastify from 'fastify';
 * import { a2aFastify } from 'a2a-kit/server/fastify';
 *
 * const app = Fastify();
 * await app.register(a2aFastify(server, { origin: 'https://agent.example.com' }), { prefix: '/reporter' });
 * await app.listen({ port: 8080 });
 * // the card: https://agent.example.com/reporter/.well-known/agent-card.json
 */
export function a2aFastify(server: AgentServer, options: FrameworkAdapterOptions = {}) {
  const ensure = preparer(server, options);
  const eager =
    options.origin !== undefined ||
    server.mountOptions.origin !== undefined ||
    !server.cardNeedsOrigin;
  return async function a2aPlugin(instance: FastifyLike): Promise<void> {
    const mountPath = (instance.prefix ?? '').replace(/\/+$/, '');
    if (server.prepared && server.mountPath !== mountPath)
      throw new MountError(mountedElsewhere(server.mountPath, mountPath));
    if (eager && !server.prepared) {
      await server.prepare({
        mountPath,
        ...(options.origin !== undefined ? { origin: options.origin } : {}),
      });
    }
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handler = async (
      request: { raw: IncomingMessage; protocol?: string },
      reply: { raw: ServerResponse; hijack(): void },
    ): Promise<void> => {
      await ensure(originOf(request.raw, request.protocol), mountPath);
      markHostChecked(request.raw);
      reply.hijack();
      server.listener(request.raw, reply.raw);
    };
    instance.all('/', handler);
    instance.all('/*', handler);
  };
}
