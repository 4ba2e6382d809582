/**
 * The card of an agent that speaks 0.3 too, in three forms. Its 1.0 form lists each binding at 1.0 and
 * at 0.3, at the same URL (the request's `A2A-Version` picks the version there, §3.6.2); its 0.3 form
 * names the first 0.3 entry as `url` / `preferredTransport` and all of them as `additionalInterfaces`.
 * A request naming a version gets that version's form. A request naming none — a 0.3 client, but also
 * curl, a crawler, a registry or a 1.0 resolver that sends no header — gets one card both can read: the
 * 1.0 form plus the four 0.3 members a 0.3 client looks for. Each form is signed on its own, so every
 * signature verifies against the bytes it was served with; all carry `Vary: A2A-Version` so caches keep
 * them apart.
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

/**
 * The form served to a request without a version: the 1.0 card (its own signatures left out: they do
 * not cover the added members) with the 0.3 card's `protocolVersion`, `url`, `preferredTransport` and
 * `additionalInterfaces`. None of them is a 1.0 member, so a 1.0 reader ignores them as unknown, and a
 * 0.3 reader finds its endpoint where it looks. Undefined when the card lists no 0.3 interface.
 */
export function bilingualCard(card: AgentCard): object | undefined {
  const v03 = cardToV03(card, 'json');
  if (!v03) return undefined;
  const { signatures: _signatures, ...v10 } = card;
  const { protocolVersion, url, preferredTransport, additionalInterfaces } = v03;
  return { ...v10, protocolVersion, url, preferredTransport, additionalInterfaces };
}

/** {@link bilingualCard}, signed with `keys` when given. */
export async function signedBilingualCard(
  card: AgentCard,
  keys?: CardSigningKey[],
): Promise<object> {
  const both = bilingualCard(card);
  if (!both) throw new Error('the card lists no 0.3 interface');
  return keys?.length ? signAgentCard(both as AgentCard, keys) : both;
}

/** The forms a {@link VersionedCardResponder} serves besides the 1.0 card. */
export interface OtherCardForms {
  /** For requests naming a 0.x version. */
  v03: object;
  /** For requests naming none (see {@link bilingualCard}). */
  unversioned: object;
}

/**
 * Serves the 1.0 form to requests that ask for 1.0 (or later), the 0.3 form to those that ask for 0.x,
 * and the bilingual form to those that name no version.
 */
export class VersionedCardResponder extends CardResponder {
  readonly #v03: CardResponder;
  readonly #unversioned: CardResponder;

  constructor(card: AgentCard, forms: OtherCardForms, options: CardResponderOptions = {}) {
    const lastModified = options.lastModified ?? new Date();
    super(card, { ...options, lastModified });
    this.#v03 = new CardResponder(forms.v03 as AgentCard, { ...options, lastModified });
    this.#unversioned = new CardResponder(forms.unversioned as AgentCard, {
      ...options,
      lastModified,
    });
  }

  override respond(
    requestHeaders: RequestHeaderSource = {},
    method: 'GET' | 'HEAD' = 'GET',
  ): CardHttpResponse {
    const sent = header(requestHeaders, 'a2a-version');
    const form =
      sent === undefined || sent.trim() === ''
        ? this.#unversioned
        : requestedVersion(sent)?.startsWith('0.')
          ? this.#v03
          : undefined;
    const r = form ? form.respond(requestHeaders, method) : super.respond(requestHeaders, method);
    r.headers.vary = 'A2A-Version';
    return r;
  }
}
