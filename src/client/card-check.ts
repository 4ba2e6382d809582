/**
 * One check for a card of either version, as discovery makes it: a 0.3 card (no
 * `supportedInterfaces`, its endpoint in `url`) is read into the 1.0 model first, then validated with
 * the same schema. Every problem is returned, so a tool can list them all.
 */
import { parseAgentCard, type AgentCard } from '../protocol/index.js';
import { cardFromV03, isV03Card, keepSignedForm } from '../protocol/v03/card.js';

/** The outcome of {@link checkAgentCard}: the card in the 1.0 model, or every problem found. */
export type AgentCardCheck =
  | {
      ok: true;
      /** The version the card was read as: `1.0`, or `0.3` for a card in 0.3's form. */
      version: '1.0' | '0.3';
      card: AgentCard;
    }
  | {
      ok: false;
      /** The version the card was read as (its problems name fields of the 1.0 model). */
      version: '1.0' | '0.3';
      /** Each problem as `path: what is wrong`, all of them. */
      problems: string[];
    };

/**
 * Checks a parsed agent card of A2A 1.0 or 0.3 exactly as {@link discoverAgentCard} does, and lists
 * every problem (discovery's error shows the first ten). Asynchronous because the card schema is
 * loaded on the first check, not when `a2a-kit/client` is imported.
 *
 * @example
 * ```ts
 * import { checkAgentCard } from 'a2a-kit/client';
 *
 * const res = await fetch('http://127.0.0.1:41241/.well-known/agent-card.json');
 * const verdict = await checkAgentCard(await res.json());
 * if (!verdict.ok) for (const p of verdict.problems) process.stdout.write(`${p}\n`);
 * ```
 */
export async function checkAgentCard(json: unknown): Promise<AgentCardCheck> {
  if (isV03Card(json)) {
    const card = cardFromV03(json);
    const r = await parseAgentCard(card);
    return r.ok
      ? { ok: true, version: '0.3', card: keepSignedForm(r.card, card) }
      : { ok: false, version: '0.3', problems: r.problems };
  }
  const r = await parseAgentCard(json);
  return r.ok
    ? { ok: true, version: '1.0', card: r.card }
    : { ok: false, version: '1.0', problems: r.problems };
}
