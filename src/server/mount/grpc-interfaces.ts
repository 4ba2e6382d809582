/**
 * How a card's GRPC interfaces relate to the gRPC servers that serve them. Free of grpc-js, so the
 * HTTP server can run these checks at start without loading gRPC for agents that do not use it.
 */
import type { AgentCard, AgentInterface } from '../../protocol/index.js';
import { grpcAuthority } from '../../protocol/grpc/target.js';
import type { AgentGrpcHandle } from '../grpc/options.js';

/** The `protocolBinding` of the gRPC binding (§5.3). */
export const GRPC_BINDING = 'GRPC';

/** Whether an interface entry is a gRPC one. */
export function isGrpcInterface(i: Pick<AgentInterface, 'protocolBinding'>): boolean {
  return i.protocolBinding.trim().toUpperCase() === GRPC_BINDING;
}

/**
 * The card's GRPC entries that no server in `served` (the URLs gRPC listens at) serves, compared by
 * port (hosts differ legitimately: a card names the public host, the server binds an address).
 * An agent server refuses to start while this is not empty: a card lists only interfaces that work.
 */
export function unservedGrpcInterfaces(
  card: AgentCard,
  served: readonly string[],
): Array<{ index: number; url: string }> {
  const ports = new Set(
    served.map((u) => grpcAuthority(u)?.port).filter((p): p is number => p !== undefined),
  );
  const out: Array<{ index: number; url: string }> = [];
  card.supportedInterfaces.forEach((i, index) => {
    if (!isGrpcInterface(i)) return;
    const port = grpcAuthority(i.url)?.port;
    if (port === undefined || !ports.has(port)) out.push({ index, url: i.url });
  });
  return out;
}

/**
 * Throws unless every GRPC entry of `card` is served by the gRPC server at `servedUrl` (none when
 * gRPC is not configured): the agent server's start-up check for this binding.
 */
export function assertGrpcInterfacesServed(card: AgentCard, servedUrl: string | undefined): void {
  const missing = unservedGrpcInterfaces(card, servedUrl ? [servedUrl] : []);
  if (missing.length === 0) return;
  const list = missing.map((m) => `supportedInterfaces[${m.index}] (GRPC at ${m.url})`).join(', ');
  throw new Error(
    servedUrl
      ? `${list} is not where this server serves gRPC (${servedUrl}); a card lists only interfaces that work`
      : `${list} is listed but gRPC is not configured; set the \`grpc\` option or remove the entry`,
  );
}

/** gRPC listeners `serveGrpc` started for an agent server before its card existed, by its dispatcher. */
const ATTACHED = new WeakMap<object, AgentGrpcHandle>();

/**
 * Record that `handle` serves the agent whose dispatcher is `service`: its card is then built with
 * that handle (a card function gets it) and checked against it, as for the `grpc` option.
 */
export function attachGrpc(service: object, handle: AgentGrpcHandle): void {
  ATTACHED.set(service, handle);
}

/** The listener {@link attachGrpc} recorded for `service`, if it is still open. */
export function attachedGrpc(service: object): AgentGrpcHandle | undefined {
  return ATTACHED.get(service);
}

/** Forget `handle` (it closed); another listener attached since stays. */
export function detachGrpc(service: object, handle: AgentGrpcHandle): void {
  if (ATTACHED.get(service) === handle) ATTACHED.delete(service);
}
