/**
 * Mounting an agent in Fastify (4 or 5). Fastify is not a dependency: the types below describe only
 * what is used, so any compatible version fits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentServer } from '../agent-server.js';
import { originOf, type FrameworkAdapterOptions } from './framework-common.js';
import { preparer } from './prepare.js';

export type { FrameworkAdapterOptions } from './framework-common.js';

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
