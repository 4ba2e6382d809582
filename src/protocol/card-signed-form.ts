/**
 * A card's signatures cover the JSON it was received as (§8.4.1), not the model the library makes of
 * it: a 0.3 card turned into the 1.0 model, or a card whose omitted defaults were filled in. The
 * received form travels with the model under a symbol (not enumerable, so never serialised), and a
 * verifier checks the signatures against it.
 */

/** Where a card read from another form keeps that form. The key predates the ProtoJSON defaults, hence its name. */
export const SIGNED_V03_FORM: unique symbol = Symbol.for('a2a-kit.signedV03Card');

/** The JSON a card's signatures were made over: the form it was read from, else the card itself. */
export function signedForm(card: object): object {
  return ((card as Record<symbol, unknown>)[SIGNED_V03_FORM] as object | undefined) ?? card;
}

/** `to` (a copy of a card, e.g. by a validator) keeps the received form `from` carries, if any. */
export function keepSignedForm<T extends object>(to: T, from: object): T {
  const form = (from as Record<symbol, unknown>)[SIGNED_V03_FORM];
  if (form !== undefined && to !== from && !Object.hasOwn(to, SIGNED_V03_FORM))
    Object.defineProperty(to, SIGNED_V03_FORM, { value: form, enumerable: false });
  return to;
}

/** `to`, made from the received JSON `from`, remembers `from` (or the form `from` itself came from). */
export function rememberSignedForm<T extends object>(to: T, from: object): T {
  if (to !== from && !Object.hasOwn(to, SIGNED_V03_FORM))
    Object.defineProperty(to, SIGNED_V03_FORM, { value: signedForm(from), enumerable: false });
  return to;
}
