/**
 * Mounting an agent in Fastify (4 or 5). Fastify is not a dependency: the types below describe only
 * what is used, so any compatible version fits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import { mountedElsewhere } from '../mount/mount.js';
import type { FrameworkAdapterOptions } from '../mount/origin-policy.js';
import { trimPath } from '../mount/plan.js';
import { adapterPolicy } from './policy.js';

export type { FrameworkAdapterOptions } from '../mount/origin-policy.js';
export { HostNotAllowedError } from '../mount/origin-policy.js';
export { A2AConfigError } from '../kernel/config-error.js';

/** The parts of a Fastify instance the plugin uses (method syntax keeps it assignable from FastifyInstance). */
export interface FastifyLike {
  /** The route prefix of this (encapsulated) context: `''`, or `/reporter` under `register(…, { prefix })`. */
  readonly prefix?: string;
  /** Fastify's own: the plugin reads bodies itself. */
  removeAllContentTypeParsers(): void;
  /** Fastify's own: the plugin registers one that leaves the body unread. */
  addContentTypeParser(
    type: string,
    parser: (req: any, payload: any, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  /** Fastify's own: a route for every method. */
  all(path: string, handler: (request: any, reply: any) => Promise<void>): unknown;
}

/**
 * A Fastify plugin serving the agent on every path of its (encapsulated) context, prefix included:
 * registered with `{ prefix: '/reporter' }`, the card advertises and the server answers URLs below
 * `/reporter`. It leaves bodies unparsed for the bindings, which read the raw request; other routes
 * of the app keep precedence.
 *
 * With an `origin` (here or on the server) or a card object, the card is built and every interface
 * checked while the plugin registers, so `await app.register(…)` rejects (with an `A2AConfigError`) for
 * a card that lists an interface it would not answer. With only `allowedHosts`, each allowed host gets a
 * card of its own origin, built on its first request. Registering throws at once when the card is a
 * function of its URL and neither is given: the card is never built from an unchecked Host header.
 * Requests with a Host outside `allowedHosts` get 400. Fastify's `trustProxy` is not read: give
 * `trustedProxies` for `X-Forwarded-Proto` / `-Host`.
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
  const policy = adapterPolicy(server, options);
  return async function a2aPlugin(instance: FastifyLike): Promise<void> {
    const mountPath = trimPath(instance.prefix ?? '');
    if (server.prepared && server.mountPath !== mountPath)
      throw mountedElsewhere(server.mountPath, mountPath);
    if (!server.prepared && (policy.origin !== undefined || !server.mount.cardNeedsOrigin)) {
      await server.prepare({
        mountPath,
        ...(policy.origin !== undefined ? { origin: policy.origin } : {}),
      });
    }
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const listener = server.nodeHandler({ policy, mountPath: () => mountPath });
    const handler = async (
      request: { raw: IncomingMessage },
      reply: { raw: ServerResponse; hijack(): void },
    ): Promise<void> => {
      reply.hijack();
      listener(request.raw, reply.raw);
    };
    instance.all('/', handler);
    instance.all('/*', handler);
  };
}
