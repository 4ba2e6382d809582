/**
 * {@link parseAgentCard}: a received card checked against the card schema, which is loaded (with zod)
 * on the first call, so that importing the protocol model stays cheap.
 */
import type { ParseAgentCardResult } from './card.js';
import { cardSchemas } from './lazy-schemas.js';

export type { ParseAgentCardResult };

/**
 * Validate a received AgentCard (a parsed value, or JSON text), read as ProtoJSON: `null` members are
 * unset and the REQUIRED lists, maps and descriptions a ProtoJSON writer omits when empty are filled
 * in. On success the card is returned otherwise unchanged (unknown members included; signatures
 * still verify against the received form); on failure every problem is listed as `path: what is wrong`.
 *
 * Asynchronous because the schema is loaded on the first call (not when `a2a-kit` is imported).
 *
 * @example
 * ```ts
 * import { parseAgentCard } from 'a2a-kit';
 *
 * const res = await fetch('http://127.0.0.1:41241/.well-known/agent-card.json');
 * const r = await parseAgentCard(await res.text());
 * if (!r.ok) console.error(r.problems.join('\n'));
 * ```
 */
export async function parseAgentCard(json: unknown): Promise<ParseAgentCardResult> {
  const loaded = cardSchemas.now() ?? (await cardSchemas.load());
  return loaded.parseAgentCard(json);
}
