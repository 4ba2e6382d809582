/**
 * The inspector's own errors, as its API answers them: a bad request from the page (400), and a card
 * the client refused, with every finding of the check (502).
 */
import type { A2AClientError } from 'a2a-kit/client';
import type { CardFinding } from './card-findings.js';

/** A bad request from the page: answered with HTTP 400 and the message. */
export class BadRequest extends Error {}

/** A card the client refused, with every finding of the check (the client's error names ten). */
export class CardRefused extends Error {
  constructor(
    readonly refusal: A2AClientError,
    readonly findings: CardFinding[],
  ) {
    super(refusal.message);
  }
}
