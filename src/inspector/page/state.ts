/** What the views share: the agent being inspected and its card facts, with change notifications. */
import type { CardFacts } from '../card-facts.js';

type Listener = (facts: CardFacts) => void;

const listeners = new Set<Listener>();
let current: CardFacts | undefined;

/** The card facts of the agent in view, once opened. */
export function currentAgent(): CardFacts | undefined {
  return current;
}

/** Sets the agent in view (after its card was opened or changed) and tells every view. */
export function setAgent(facts: CardFacts): void {
  current = facts;
  const url = new URL(location.href);
  url.searchParams.set('agent', facts.agent);
  history.replaceState(null, '', url);
  for (const l of listeners) l(facts);
}

/** Called whenever the agent in view (or its card) changes. */
export function onAgent(listener: Listener): void {
  listeners.add(listener);
}
