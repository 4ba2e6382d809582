/**
 * A site from a built card: one binding per planned interface, each with the authentication the card
 * declares, the server's stream registry (so a drain reaches every stream) and, where the interface is
 * listed at 0.3 too, the 0.3 handler beside it.
 */
import type { AgentServerOptions } from '../agent-server-options.js';
import { serverAuthOptions } from '../auth/authenticator.js';
import { SERVED_BINDINGS } from '../bindings/registry.js';
import type { BindingOptions } from '../bindings/common.js';
import { v03Handler, type V03Registrations } from '../compat/index.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';
import type { BuiltCard } from './build-card.js';
import type { PlannedInterface } from './plan.js';
import { Site } from './site.js';

/** What a site's bindings are made from, besides the card: the agent server's parts. */
export interface SiteParts {
  readonly options: AgentServerOptions;
  readonly service: OperationDispatcher;
  /** 0.3 webhooks being registered (only with compat). */
  readonly v03: V03Registrations | undefined;
  /** Registers open streams with the server, for its drain. */
  readonly track: (stream: OpenStream) => Untrack;
}

/** The site serving `planned` (all of the card's interfaces, or those of one port) below `mountPath`. */
export function makeSite(
  parts: SiteParts,
  { card, responder }: BuiltCard,
  mountPath: string,
  planned: PlannedInterface[],
): Site {
  const { options, service, v03 } = parts;
  const bindingOptions: BindingOptions = {
    ...options,
    ...serverAuthOptions(card, options),
    sse: {
      ...options.sse,
      track: parts.track,
      maxStreamBufferBytes: options.maxStreamBufferBytes,
    },
  };
  const bindingFor = (p: PlannedInterface) =>
    SERVED_BINDINGS[p.binding]!(
      service,
      bindingOptions,
      p.versions.has('0.3') && v03
        ? v03Handler(p.binding, service, bindingOptions, v03, options.signingKeys)
        : undefined,
    );
  return new Site(responder, card, mountPath, planned, bindingFor, () =>
    service.pushSender.publicJwks(),
  );
}
