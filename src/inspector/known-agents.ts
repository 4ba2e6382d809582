/**
 * The agents the page offers to pick: by default the kit's three on their usual ports, or the ones
 * the program that started the inspector names. Each is asked for its card, briefly, so the picker
 * shows which are running.
 */
import { discoverAgentCard } from 'a2a-kit/client';

/** The kit's agents on their default ports (test-runner, code-reviewer, deployer). */
export const KIT_AGENTS: readonly string[] = [
  'http://localhost:41241',
  'http://localhost:41242',
  'http://localhost:41243',
];

/** One agent of the picker. */
export interface KnownAgent {
  url: string;
  /** Whether its card answered. */
  up: boolean;
  name?: string;
  description?: string;
}

/** Asks each agent for its card at once (a short timeout, no retry, no cache); never throws. */
export async function probeAgents(urls: readonly string[]): Promise<KnownAgent[]> {
  return Promise.all(
    urls.map(async (url): Promise<KnownAgent> => {
      try {
        const { card } = await discoverAgentCard(url, {
          cache: false,
          timeoutMs: 1500,
          retry: { retries: 0 },
        });
        return { url, up: true, name: card.name, description: card.description };
      } catch {
        return { url, up: false };
      }
    }),
  );
}
