/**
 * The bytes a server sends for its card and their strong ETag (§8.6.1). Server-side only: it hashes
 * with node:crypto, which the browser client must not reach.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AgentCard } from '../../protocol/card.js';

/**
 * The bytes we serve for a card: JCS of the card exactly as given, signatures included and nothing
 * removed. JCS rather than JSON.stringify so that every replica (and every restart) that holds the
 * same card serves the same bytes, whatever order its members were built in.
 */
export function servedCardBytes(card: AgentCard | Record<string, unknown>): Buffer {
  const text = canonicalize(card);
  if (text === undefined) throw new TypeError('agent card cannot be serialised');
  return Buffer.from(text, 'utf8');
}

/**
 * Strong ETag of the served card: `"<base64url SHA-256 of servedCardBytes>"`. It is computed over the
 * served bytes rather than the signed payload so that it changes whenever anything a client would
 * receive changes, a re-signing (new key, rotated signature) included.
 */
export function cardETag(card: AgentCard | Record<string, unknown>): string {
  return etagOfBytes(servedCardBytes(card));
}

/** Strong ETag of arbitrary bytes, in the form {@link cardETag} uses. */
export function etagOfBytes(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}
