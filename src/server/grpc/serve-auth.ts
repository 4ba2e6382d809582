/**
 * Who may call a gRPC listener that `serveGrpc` started: the authentication its options give for the
 * agent's card, checked against what the card requires. A listener started before the card exists
 * works it out from whichever card is current, call by call.
 */
import { A2AError, type AgentCard } from '../../protocol/index.js';
import { serverAuthOptions } from '../auth/authenticator.js';
import { A2AConfigError } from '../kernel/config-error.js';
import type { GrpcAuth } from './options.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { Logger } from '../logger.js';

/** What of `serveGrpc`'s options decides authentication. */
type AuthOptions = Parameters<typeof serverAuthOptions>[1] & { logger?: Logger | undefined };
/** An agent server, as far as this needs it. */
interface Target {
  readonly prepared: boolean;
  readonly service: OperationDispatcher;
}

/** The authentication `options` give for `card`; throws when the card requires some and none is given. */
export function checkedAuth(card: AgentCard, options: AuthOptions): GrpcAuth {
  const auth: GrpcAuth = serverAuthOptions(card, options);
  const required =
    (card.securityRequirements ?? []).length > 0 &&
    (card.securityRequirements ?? []).every((r) => Object.keys(r.schemes ?? {}).length > 0);
  if (required && !auth.authenticate) {
    throw new A2AConfigError(
      'auth',
      'serveGrpc: the card requires authentication (securityRequirements) but neither `auth` nor `authenticate` was given',
    );
  }
  return auth;
}

/**
 * For a listener started before its agent server's card: the authentication of whatever card is
 * current, worked out again when the card changes. Never throws (it runs as each call starts): until
 * the card exists, or when it cannot be authenticated as configured, calls are refused and the reason
 * is logged once.
 */
export function authOfCurrentCard(target: Target, options: AuthOptions): () => GrpcAuth {
  let card: AgentCard | undefined;
  let auth: GrpcAuth = refuse('the agent server is not started yet (listen() or prepare())');
  return () => {
    if (!target.prepared)
      return refuse('the agent server is not started yet (listen() or prepare())');
    const current = target.service.card;
    if (current !== card) {
      card = current;
      try {
        auth = checkedAuth(current, options);
      } catch (err) {
        (options.logger ?? target.service.logger).error({ err }, 'gRPC serves no calls');
        auth = refuse(`this gRPC listener is misconfigured: ${(err as Error).message}`);
      }
    }
    return auth;
  };
}

const refuse = (why: string): GrpcAuth => ({
  authenticate: () => {
    throw new A2AError('Unavailable', why);
  },
});
