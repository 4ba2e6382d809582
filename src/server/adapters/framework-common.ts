/** Shared by the Express and Fastify adapters: options, and the origin of a request as the framework saw it. */
import type { IncomingMessage } from 'node:http';

export interface FrameworkAdapterOptions {
  /** Public origin the card advertises; without it the first request's origin is used. */
  origin?: string;
}

export function originOf(req: IncomingMessage, protocol: string | undefined): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return `${protocol ?? (encrypted ? 'https' : 'http')}://${req.headers.host ?? 'localhost'}`;
}
