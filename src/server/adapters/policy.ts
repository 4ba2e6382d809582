/** The host policy of an adapter: its own options over the server's, checked when the adapter is made. */
import type { AgentServer } from '../agent-server.js';
import { A2AConfigError } from '../kernel/config-error.js';
import { ORIGIN_REQUIRED, OriginPolicy, type MountOptions } from '../mount/origin-policy.js';

/**
 * `options` over the server's policy. Throws an {@link A2AConfigError} at once when the card is a
 * function of its origin, the server is not prepared, and nothing gives an origin: a server that could
 * only take its URLs from an unchecked Host header fails at mount time, not on some later request.
 */
export function adapterPolicy(server: AgentServer, options: MountOptions): OriginPolicy {
  const policy = new OriginPolicy(options, server.mount.policy);
  if (
    !server.prepared &&
    server.mount.cardNeedsOrigin &&
    policy.origin === undefined &&
    !policy.allowedHosts
  )
    throw new A2AConfigError('origin', ORIGIN_REQUIRED);
  return policy;
}
