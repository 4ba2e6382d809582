/**
 * Prepare an agent server once, for the adapters (Express, Fastify, fetch), when the embedding host did
 * not. The origin policy is checked when the adapter is made, so a server that could only take its
 * URLs from an unchecked Host header fails at mount time, not on some later request.
 */
import type { AgentServer } from '../agent-server.js';
import {
  HostNotAllowedError,
  MountError,
  ORIGIN_REQUIRED,
  checkOrigin,
  hostAllowed,
  mountedElsewhere,
  originFor,
  type MountOptions,
} from './framework-common.js';

export { mountedElsewhere } from './framework-common.js';

/**
 * `ensure(requestOrigin, mountPath)`: resolves once the server is prepared for `origin + mountPath`,
 * or returns undefined when it already is (no promise on the hot path). It throws (or rejects with)
 * {@link HostNotAllowedError} for a Host outside `allowedHosts`, and an error naming the problem
 * when the card cannot be built or lists an interface that would not be answered.
 */
export type Ensure = (requestOrigin: string, mountPath?: string) => Promise<void> | undefined;

/**
 * Make the `ensure` function an adapter calls on every request. `options` are the adapter's own (a bare
 * string is an origin); each falls back to the server's `origin` / `allowedHosts`.
 *
 * Throws at once when the server's card is a function of its origin, the server is not prepared yet,
 * and neither an `origin` nor `allowedHosts` is given anywhere — see {@link ORIGIN_REQUIRED}.
 *
 * @example
 * const ensure = preparer(server, { origin: 'https://agent.example.com' });
 * // per request (a Web Request here):
 * await ensure(new URL(request.url).origin, '');
 */
export function preparer(server: AgentServer, options: MountOptions | string = {}): Ensure {
  const own = typeof options === 'string' ? { origin: options } : options;
  const origin = own.origin ?? server.mountOptions.origin;
  const allowedHosts = own.allowedHosts ?? server.mountOptions.allowedHosts;
  if (origin !== undefined) checkOrigin(origin);
  const policy: MountOptions = {
    ...(origin !== undefined ? { origin } : {}),
    ...(allowedHosts ? { allowedHosts } : {}),
  };
  if (!server.prepared && server.cardNeedsOrigin && !origin && !allowedHosts?.length)
    throw new MountError(ORIGIN_REQUIRED);

  let pending: Promise<unknown> | undefined;
  return (requestOrigin, mountPath = '') => {
    if (allowedHosts?.length) {
      const host = requestOrigin.replace(/^[a-z]+:\/\//i, '');
      if (!hostAllowed(host, allowedHosts)) throw new HostNotAllowedError(host);
    }
    if (server.prepared) {
      if (server.mountPath !== mountPath)
        throw new MountError(mountedElsewhere(server.mountPath, mountPath));
      return undefined;
    }
    pending ??= Promise.resolve()
      // A card object holds its own URLs: the request's origin never reaches it.
      .then(() =>
        server.prepare({
          mountPath,
          ...(server.cardNeedsOrigin ? { origin: originFor(policy, requestOrigin) } : {}),
        }),
      )
      .catch((err: unknown) => {
        pending = undefined; // a later request tries again (the operator may fix what the error names)
        throw err;
      });
    return pending.then(() => undefined);
  };
}
