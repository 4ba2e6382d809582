/**
 * The card an agent server serves, made from its options for one origin and mount path: the card
 * function called (with the gRPC listener's handle), the card checked, listed at 0.3 too when the
 * compatibility layer is on, its interfaces planned, signed, and its HTTP answer prepared.
 */
import { parseAgentCard, requestSchemas, type AgentCard } from '../../protocol/index.js';
import type { AgentServerOptions } from '../agent-server-options.js';
import { A2AConfigError } from '../kernel/config-error.js';
import {
  VersionedCardResponder,
  cardWithV03,
  checkV03Urls,
  publicCardForms,
} from '../compat/index.js';
import type { AgentGrpcHandle } from '../grpc/options.js';
import { CardResponder } from '../card/responder.js';
import { signAgentCard } from '../card/signing.js';
import { ORIGIN_REQUIRED } from './origin-policy.js';
import { checkHealthPaths, planInterfaces, type PlannedInterface } from './plan.js';

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

/**
 * Build the served card. Whatever stops it is an {@link A2AConfigError} naming the option to change: a
 * card that is invalid, needs an origin it was not given, or whose function threw (the cause is kept
 * for the log; the message does not repeat it, since it may be shown in a 500 answer).
 */
export async function buildCard(o: AgentServerOptions, at: CardSite): Promise<BuiltCard> {
  if (typeof o.card === 'function' && at.origin === undefined)
    throw new A2AConfigError('origin', ORIGIN_REQUIRED);
  let card = typeof o.card === 'function' ? callCard(o.card, at) : o.card;
  // The card's check loads zod; the request schemas are loaded beside it, so that no request waits for them.
  const [checked] = await Promise.all([parseAgentCard(card), requestSchemas.load()]);
  if (!checked.ok)
    throw new A2AConfigError(
      'card',
      `the agent card is not valid:\n  ${checked.problems.join('\n  ')}`,
    );
  const v03 = o.compat?.v03 === true;
  if (v03) {
    // Each 1.0 interface is listed at 0.3 too, at the same URL (the request's A2A-Version decides).
    card = asConfigError('compat', () => {
      const listed = cardWithV03(card);
      checkV03Urls(listed);
      return listed;
    });
  }
  const planned = planInterfaces(card, at.mountPath, at.grpc?.url, v03);
  if (at.healthPaths) checkHealthPaths(planned, at.mountPath, at.healthPaths);
  const keys = o.signingKeys;
  if (keys?.length) card = await asConfigError('signingKeys', () => signAgentCard(card, keys));
  const cardOptions =
    o.cardMaxAgeSeconds !== undefined ? { maxAgeSeconds: o.cardMaxAgeSeconds } : {};
  const responder = await asConfigError('cardMaxAgeSeconds', async () =>
    v03
      ? new VersionedCardResponder(card, await publicCardForms(card, keys), cardOptions)
      : new CardResponder(card, cardOptions),
  );
  return { card, planned, responder };
}

function callCard(
  fn: (baseUrl: string, grpc?: AgentGrpcHandle) => AgentCard,
  at: CardSite,
): AgentCard {
  try {
    return fn(`${at.origin}${at.mountPath}`, at.grpc);
  } catch (err) {
    throw new A2AConfigError('card', 'the card function threw (its error is in the log)', {
      cause: err,
    });
  }
}

/** `fn()`, with a plain error it throws (a check of the part named `option`) turned into an A2AConfigError. */
function asConfigError<T>(option: string, fn: () => T): T {
  const wrap = (err: unknown): never => {
    if (err instanceof A2AConfigError) throw err;
    throw new A2AConfigError(option, (err as Error).message, { cause: err });
  };
  try {
    const out = fn();
    return (out instanceof Promise ? out.catch(wrap) : out) as T;
  } catch (err) {
    return wrap(err);
  }
}
