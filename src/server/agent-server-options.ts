/** What {@link createAgentServer} takes: the dispatcher's options, and how the server is mounted, served and stopped. */
import type { AgentCard } from '../protocol/index.js';
import type { DispatcherOptions } from './dispatch/dispatcher.js';
import type { BindingOptions } from './bindings/common.js';
import type { CardSigningKey } from './card/signing.js';
import type { ServerAuthOptions } from './auth/authenticator.js';
import type { MountOptions } from './mount/origin-policy.js';
import type { HttpTimeoutOptions } from './mount/http-listen.js';
import type { HttpConnectionOptions } from './conn/options.js';
import type { AgentGrpcHandle, AgentGrpcOptions } from './grpc/options.js';
import type { HealthOptions } from './lifecycle/health.js';
import type { DrainOptions } from './lifecycle/drain.js';
import type { CompatOptions } from './compat/index.js';

/** Everything {@link createAgentServer} takes. */
export interface AgentServerOptions
  extends
    Omit<DispatcherOptions, 'card' | 'pushWireFormat'>,
    BindingOptions,
    MountOptions,
    HttpTimeoutOptions,
    HttpConnectionOptions {
  /**
   * The public card, or a function of the base URL the server is reached at: `http://127.0.0.1:PORT`
   * under `listen` (so port 0 works), the `origin` option (plus the mount path) when mounted elsewhere.
   */
  card: AgentCard | ((baseUrl: string, grpc?: AgentGrpcHandle) => AgentCard);
  /**
   * Also serve gRPC (§10) on its own port, started by `listen()` before the card is built: a card
   * function gets its handle as second argument and lists `{ url: grpc.url, protocolBinding: 'GRPC', … }`.
   * Authentication is the same as over HTTP. Needs no dependency (neither grpc-js nor a protobuf
   * library: the server speaks HTTP/2 and protobuf itself; loaded only when this is set). The host defaults to the one `listen()` binds.
   */
  grpc?: AgentGrpcOptions;
  /** Sign the public (and extended) card with these keys at start (§8.4). */
  signingKeys?: CardSigningKey[];
  /** `Cache-Control: max-age` of the card. Default 300 s. */
  cardMaxAgeSeconds?: number;
  /** Enforce the card's security requirements with these per-scheme verifiers (instead of `authenticate`). */
  auth?: ServerAuthOptions;
  /**
   * Protocol versions to speak besides 1.0, e.g. `{ v03: true }` for A2A 0.3 clients: same URLs, the
   * request's `A2A-Version` decides; the executor never sees the difference. Off by default.
   */
  compat?: CompatOptions;
  /**
   * Liveness and readiness endpoints, answered before authentication and host checks (probes come
   * from the platform): `true` serves `/healthz` and `/readyz` (below the mount path), an object
   * chooses the paths and adds readiness checks. Liveness is 200 while the process serves; readiness
   * is 200 only while the server takes work and every check (the store's `ping`, then yours) passes,
   * else 503 with the failing checks named. Off by default.
   */
  health?: boolean | HealthOptions;
  /** How `close()` drains: the deadline for running agents and queued push notifications. */
  drain?: DrainOptions;
}
