/**
 * The card of an agent that speaks 0.3 too. Its 1.0 form lists each binding at 1.0 and at 0.3, at the
 * same URL (the request's `A2A-Version` picks the version there, §3.6.2); its 0.3 form, served to a
 * request without a version, names the first 0.3 entry as `url` / `preferredTransport` and all of them
 * as `additionalInterfaces`. Each form is signed on its own, so every signature verifies against the
 * bytes it was served with; both carry `Vary: A2A-Version` so caches keep them apart.
 */
import { BINDINGS, majorMinor, requestedVersion, type AgentCard } from '../../protocol/index.js';
import { V03, cardToV03, v03Interfaces, type V03CardForm } from '../../protocol/v03/index.js';
import {
  CardResponder,
  header,
  type CardHttpResponse,
  type CardResponderOptions,
  type RequestHeaderSource,
} from '../card/responder.js';
import { signAgentCard, type CardSigningKey } from '../card/signing.js';

const SERVED_V03: ReadonlySet<string> = new Set([BINDINGS.JSONRPC, BINDINGS.HTTP_JSON]);

/**
 * The card to serve: as written when it lists 0.3 entries already (its author chose their place), else
 * with a 0.3 entry after the 1.0 ones for each JSON-RPC and HTTP+JSON interface, at the same URL — the
 * agent prefers 1.0, a 1.0 client takes a 1.0 entry, a 0.3 client finds its own.
 */
export function withV03Interfaces(card: AgentCard): AgentCard {
  checkV03Interfaces(card);
  if (v03Interfaces(card).length > 0) return card;
  const added = card.supportedInterfaces
    .filter(
      (i) =>
        SERVED_V03.has(i.protocolBinding) && !i.tenant && majorMinor(i.protocolVersion) === '1.0',
    )
    .map((i) => ({ url: i.url, protocolBinding: i.protocolBinding, protocolVersion: V03 }));
  if (added.length === 0) {
    throw new Error(
      'compat: { v03: true } needs a JSONRPC or HTTP+JSON 1.0 interface without a tenant to serve 0.3 at (0.3 has no tenants)',
    );
  }
  return { ...card, supportedInterfaces: [...card.supportedInterfaces, ...added] };
}

/** 0.3 had JSON-RPC and HTTP+JSON served here, and no tenants: anything else in a 0.3 entry cannot work. */
function checkV03Interfaces(card: AgentCard): void {
  card.supportedInterfaces.forEach((i, n) => {
    if (majorMinor(i.protocolVersion) !== V03) return;
    if (!SERVED_V03.has(i.protocolBinding)) {
      throw new Error(
        `supportedInterfaces[${n}] lists ${i.protocolBinding} 0.3, which this server does not serve (it serves 0.3 over JSONRPC and HTTP+JSON)`,
      );
    }
    if (i.tenant)
      throw new Error(
        `supportedInterfaces[${n}] is a 0.3 entry with a tenant; 0.3 has no tenants, so no 0.3 client could send it`,
      );
  });
}

/** The 0.3 form of a card (`json`: the well-known card; `proto`: 0.3 REST's `GET /v1/card`), signed with `keys` when given. */
export async function signedV03Card(
  card: AgentCard,
  form: V03CardForm,
  keys?: CardSigningKey[],
): Promise<object> {
  const v03 = cardToV03(card, form);
  if (!v03) throw new Error('the card lists no 0.3 interface');
  return keys?.length ? signAgentCard(v03 as unknown as AgentCard, keys) : v03;
}

/** Serves the 1.0 form to requests that ask for 1.0 (or later), the 0.3 form to those that ask for 0.x or nothing. */
export class VersionedCardResponder extends CardResponder {
  readonly #v03: CardResponder;

  constructor(card: AgentCard, card03: object, options: CardResponderOptions = {}) {
    const lastModified = options.lastModified ?? new Date();
    super(card, { ...options, lastModified });
    this.#v03 = new CardResponder(card03 as AgentCard, { ...options, lastModified });
  }

  override respond(
    requestHeaders: RequestHeaderSource = {},
    method: 'GET' | 'HEAD' = 'GET',
  ): CardHttpResponse {
    const version = requestedVersion(header(requestHeaders, 'a2a-version'));
    const r = version?.startsWith('0.')
      ? this.#v03.respond(requestHeaders, method)
      : super.respond(requestHeaders, method);
    r.headers.vary = 'A2A-Version';
    return r;
  }
}
