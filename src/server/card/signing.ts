/**
 * Agent card signing (spec §8.4.2): one JWS per key over the §8.4.1 canonical bytes, with the
 * payload detached, stored in the card's `signatures` as `{ protected, signature }`.
 */
import type { CryptoKey, JWK, KeyObject } from 'jose';
import { jose } from '../../protocol/lazy-schemas.js';
import type { AgentCard, AgentCardSignature } from '../../protocol/card.js';
import { canonicalCardBytes } from '../../protocol/card-canonical.js';
import type { Caller } from '../dispatch/call-context.js';
import type { ExtendedCardSource } from '../dispatch/dispatcher.js';

/** Asymmetric JWS algorithms a card may be signed with. Symmetric (HS*) keys make no sense for a public card. */
export type CardSigningAlg =
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA'
  | 'Ed25519'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512';

/** A private key and how it is identified to verifiers. */
export interface CardSigningKey {
  /** A private CryptoKey, Node KeyObject, or private JWK. */
  privateKey: CryptoKey | KeyObject | JWK;
  /** Key id placed in the protected header; verifiers look the public key up by it. */
  kid: string;
  alg: CardSigningAlg;
  /** URL of a JWKS holding the public key, placed in the protected header when given. */
  jku?: string;
}

/**
 * Sign a card with each key. Existing signatures are replaced, not appended: they covered whatever
 * the card was before, and the new set must describe this content. The input card is not modified.
 *
 * The protected header is exactly `{ alg, typ: "JOSE", kid }` plus `jku` when given.
 */
export async function signAgentCard(
  card: AgentCard,
  keys: ReadonlyArray<CardSigningKey>,
): Promise<AgentCard> {
  if (keys.length === 0) throw new TypeError('signAgentCard needs at least one key');
  const { signatures: _old, ...unsigned } = card;
  const payload = canonicalCardBytes(unsigned);
  const signatures: AgentCardSignature[] = [];
  const { FlattenedSign } = jose.now() ?? (await jose.load());
  for (const key of keys) {
    if (!key.kid) throw new TypeError('every card signing key needs a non-empty kid');
    if (key.jku !== undefined && !/^https?:\/\//i.test(key.jku)) {
      throw new TypeError(`jku for key "${key.kid}" must be an absolute http(s) URL`);
    }
    const header = {
      alg: key.alg,
      typ: 'JOSE',
      kid: key.kid,
      ...(key.jku !== undefined ? { jku: key.jku } : {}),
    };
    const jws = await new FlattenedSign(payload).setProtectedHeader(header).sign(key.privateKey);
    // Detached payload: verifiers recompute it from the card, so only header and signature are kept.
    signatures.push({ protected: jws.protected ?? '', signature: jws.signature });
  }
  return { ...unsigned, signatures };
}

/** The extended card, signed like the public one (§8.4); each distinct card object is signed once. */
export function signedSource(
  source: ExtendedCardSource,
  keys: readonly CardSigningKey[],
): (caller: Caller) => Promise<AgentCard | undefined> {
  const signed = new WeakMap<AgentCard, Promise<AgentCard>>();
  const sign = (card: AgentCard): Promise<AgentCard> => {
    let p = signed.get(card);
    if (!p) signed.set(card, (p = signAgentCard(card, keys)));
    return p;
  };
  return async (caller: Caller): Promise<AgentCard | undefined> => {
    const card = typeof source === 'function' ? await source(caller) : source;
    return card ? sign(card) : undefined;
  };
}
