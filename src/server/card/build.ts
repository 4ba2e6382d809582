/**
 * The card an agent server serves, made from its options for one origin and mount path: the card
 * function called (with the gRPC listener's handle), the card checked, listed at 0.3 too when the
 * compatibility layer is on, its interfaces planned, signed, and its HTTP answer prepared.
 */
import { parseAgentCard, type AgentCard } from '../../protocol/index.js';
import type { AgentServerOptions } from '../agent-server-options.js';
import { MountError, ORIGIN_REQUIRED } from '../adapters/framework-common.js';
import {
  VersionedCardResponder,
  cardWithV03,
  checkV03Urls,
  publicCardForms,
} from '../compat/index.js';
import type { AgentGrpcHandle } from '../grpc/options.js';
import { checkHealthPaths, planInterfaces, type PlannedInterface } from '../mount-plan.js';
import { CardResponder } from './responder.js';
import { signAgentCard } from './signing.js';

/** A card ready to serve: signed, its interfaces planned, its HTTP answer prepared. */
export interface BuiltCard {
  card: AgentCard;
  planned: PlannedInterface[];
  responder: CardResponder;
}

/** Where the card is built for: the public origin and mount path, the gRPC listener, the health paths served beside it. */
export interface CardSite {
  origin: string | undefined;
  mountPath: string;
  grpc: AgentGrpcHandle | undefined;
  /** The health endpoints, when served: no interface may take their paths. */
  healthPaths: string[] | undefined;
}

/** Build the served card; a card that is invalid or needs an origin it was not given is a {@link MountError}. */
export async function buildCard(o: AgentServerOptions, at: CardSite): Promise<BuiltCard> {
  if (typeof o.card === 'function' && at.origin === undefined)
    throw new MountError(ORIGIN_REQUIRED);
  let card = typeof o.card === 'function' ? o.card(`${at.origin}${at.mountPath}`, at.grpc) : o.card;
  const checked = parseAgentCard(card);
  if (!checked.ok)
    throw new MountError(`the agent card is not valid:\n  ${checked.problems.join('\n  ')}`);
  const v03 = o.compat?.v03 === true;
  if (v03) {
    // Each 1.0 interface is listed at 0.3 too, at the same URL (the request's A2A-Version decides).
    card = cardWithV03(card);
    checkV03Urls(card);
  }
  const planned = planInterfaces(card, at.mountPath, at.grpc?.url, v03);
  if (at.healthPaths) checkHealthPaths(planned, at.mountPath, at.healthPaths);
  if (o.signingKeys?.length) card = await signAgentCard(card, o.signingKeys);
  const cardOptions =
    o.cardMaxAgeSeconds !== undefined ? { maxAgeSeconds: o.cardMaxAgeSeconds } : {};
  const responder = v03
    ? new VersionedCardResponder(card, await publicCardForms(card, o.signingKeys), cardOptions)
    : new CardResponder(card, cardOptions);
  return { card, planned, responder };
}
