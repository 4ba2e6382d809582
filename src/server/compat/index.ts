/**
 * Speaking A2A 0.3 next to 1.0, opt-in per agent (`compat: { v03: true }`). Everything 0.3 is
 * translated here, at the edge, onto the same dispatcher: requests and results, stream events, the
 * card, push bodies. The agent's executor never sees a version. Nothing here runs for an agent that
 * did not opt in: its bindings, store and card are exactly the 1.0 ones.
 */
import type { AgentCard, AgentInterface } from '../../protocol/index.js';
import { majorMinor } from '../../protocol/index.js';
import { V03, v03Interfaces } from '../../protocol/v03/index.js';
import type { BindingOptions } from '../bindings/common.js';
import type { JsonRpcOtherVersion } from '../bindings/jsonrpc.js';
import type { RestOtherVersion } from '../bindings/rest.js';
import type { CardSigningKey } from '../card/signing.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { InMemoryTaskStore } from '../store/memory.js';
import { isPushConfigStore, type PushConfigStore, type TaskStore } from '../store/task-store.js';
import type { PushWireFormat } from '../push/wire-format.js';
import {
  signedBilingualCard,
  signedV03Card,
  withV03Interfaces,
  type OtherCardForms,
} from './card.js';
import { jsonRpcV03 } from './jsonrpc.js';
import { V03AwarePushConfigStore, v03PushFormat } from './push.js';
import { restV03 } from './rest.js';
import { V03Registrations } from './registrations.js';

export { VersionedCardResponder } from './card.js';
export { V03Registrations } from './registrations.js';

/** Protocol versions an agent speaks besides 1.0. */
export interface CompatOptions {
  /**
   * Serve A2A 0.3 too: at the URL of each JSON-RPC and HTTP+JSON interface, requests without an
   * `A2A-Version` (or with `0.3`) are answered in 0.3; the card lists each of them at 0.3 as well
   * (unless it lists 0.3 entries itself), and a request for the card without a version gets its 0.3 form.
   */
  v03?: boolean;
}

/** What an agent that speaks 0.3 adds to its dispatcher: configs that remember the version they were registered with. */
export interface V03Stores {
  store: TaskStore;
  pushConfigStore: PushConfigStore;
  pushWireFormat: PushWireFormat;
}

/** The stores and push format of an agent that speaks 0.3, sharing `registrations` with its 0.3 handlers. */
export function v03Stores(
  registrations: V03Registrations,
  store: TaskStore | undefined,
  pushConfigStore: PushConfigStore | undefined,
): V03Stores {
  const tasks = store ?? new InMemoryTaskStore();
  const configs = pushConfigStore ?? (isPushConfigStore(tasks) ? tasks : new InMemoryTaskStore());
  return {
    store: tasks,
    pushConfigStore: new V03AwarePushConfigStore(configs, registrations),
    pushWireFormat: v03PushFormat(registrations),
  };
}

/** The card an agent that speaks 0.3 serves (see {@link withV03Interfaces}). */
export const cardWithV03 = withV03Interfaces;

/** The 0.3 form and the form for requests naming no version of the public card, each signed like the 1.0 one. */
export async function publicCardForms(
  card: AgentCard,
  keys?: CardSigningKey[],
): Promise<OtherCardForms> {
  return {
    v03: await signedV03Card(card, 'json', keys),
    unversioned: await signedBilingualCard(card, keys),
  };
}

/** Checks that every 0.3 entry shares its URL with a 1.0 entry of its binding: that is where 0.3 is served. */
export function checkV03Urls(card: AgentCard): void {
  const v10 = new Set(
    card.supportedInterfaces.filter((i) => majorMinor(i.protocolVersion) === '1.0').map(key),
  );
  card.supportedInterfaces.forEach((i, n) => {
    if (majorMinor(i.protocolVersion) === V03 && !v10.has(key(i))) {
      throw new Error(
        `supportedInterfaces[${n}] lists ${i.protocolBinding} 0.3 at ${i.url}, where no ${i.protocolBinding} 1.0 interface is: ` +
          'this server answers 0.3 at the URL of the 1.0 interface of the same binding (the A2A-Version header picks the version)',
      );
    }
  });
}

const key = (i: AgentInterface): string => `${i.protocolBinding} ${i.url.replace(/\/+$/, '')}`;

/** The 0.3 handler a 1.0 binding hands 0.3 requests to. */
export function v03Handler(
  binding: string,
  service: OperationDispatcher,
  opts: BindingOptions,
  registrations: V03Registrations,
  keys?: CardSigningKey[],
): JsonRpcOtherVersion | RestOtherVersion {
  const form = binding === 'JSONRPC' ? 'json' : 'proto';
  // The extended card is signed by the server in its 1.0 form; its 0.3 form gets its own signatures.
  const extended = (card: AgentCard): Promise<object> => {
    const { signatures: _signed, ...unsigned } = card;
    // An extended card written without 0.3 entries is described with the public card's.
    const withEntries =
      v03Interfaces(unsigned).length > 0
        ? unsigned
        : {
            ...unsigned,
            supportedInterfaces: [...unsigned.supportedInterfaces, ...v03Interfaces(service.card)],
          };
    return signedV03Card(withEntries, form, keys);
  };
  return binding === 'JSONRPC'
    ? jsonRpcV03(service, opts, extended, registrations)
    : restV03(service, opts, extended, registrations);
}
