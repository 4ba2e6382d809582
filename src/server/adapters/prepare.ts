/** Prepare an agent server once, on the first request, when the embedding host did not. */
import type { AgentServer } from '../agent-server.js';

/** Returns `ensure(requestOrigin)`: resolves once the server is prepared (with `origin` when given). */
export function preparer(server: AgentServer, origin?: string): (requestOrigin: string) => Promise<void> {
  let pending: Promise<unknown> | undefined;
  return async (requestOrigin) => {
    if (server.prepared) return;
    pending ??= server.prepare(origin ?? requestOrigin).catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    await pending;
  };
}
