/**
 * One agent as an inspector session knows it: its card, the `A2AClient` built from it (recorded by
 * the wire tap), and the credentials the user entered — held here, on the server, and nowhere else.
 */
import {
  A2AClient,
  CardCache,
  discoverAgentCard,
  type CardTrust,
  type ClientInterceptor,
  type Credential,
  type FetchLike,
} from 'a2a-kit/client';
import type { AgentCard } from 'a2a-kit';
import { cacheHeaders, cardFacts, type CardFacts } from './card-facts.js';
import { Masker, maskRules } from './mask.js';
import { wireTap, type WireLog } from './wire.js';

/** Far enough ahead that any cached card counts as stale: how "Revalidate" makes the cache ask the agent. */
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** An agent in a session: card, client, credentials. */
export class AgentEntry {
  readonly masker: Masker;
  readonly #tap: { fetch: FetchLike; interceptor: ClientInterceptor };
  readonly #cardFetch: FetchLike;
  #held: Record<string, Credential> = {};
  #publicCard: AgentCard | undefined;
  #card: AgentCard | undefined;
  #client: A2AClient | undefined;
  #cardUrl: string | undefined;
  #from = 'network';
  #cache: Record<string, string> = {};
  // The card cache's clock: pushed forward to force a conditional request (the public way to revalidate).
  #skew = 0;
  readonly #cardCache = new CardCache({ now: () => Date.now() + this.#skew, maxEntries: 4 });

  constructor(
    /** The base URL (or card URL) the user entered. */
    readonly url: string,
    log: WireLog,
    private readonly trust: () => CardTrust,
  ) {
    this.masker = new Masker(() =>
      maskRules(this.#held, this.#schemeNames('header'), this.#schemeNames('query')),
    );
    this.#tap = wireTap(log, this.masker);
    this.#cardFetch = async (input, init) => {
      const res = await this.#tap.fetch(input, init);
      this.#cache = cacheHeaders(res.headers);
      return res;
    };
  }

  /** The client, once the card is loaded. */
  get client(): A2AClient {
    if (!this.#client) throw new Error(`open the agent's card first (${this.url})`);
    return this.#client;
  }

  /** Fetches (or reuses) the card and builds the client. `revalidate` asks the agent even when the cached card is fresh. */
  async load(revalidate = false): Promise<CardFacts> {
    if (revalidate) this.#skew += TEN_YEARS_MS;
    const isCardUrl = /\.json(?:$|\?)/.test(this.url);
    const found = await discoverAgentCard(isCardUrl ? { cardUrl: this.url } : this.url, {
      fetch: this.#cardFetch,
      cache: this.#cardCache,
    });
    this.#publicCard = found.card;
    this.#card = found.card;
    this.#cardUrl = found.cardUrl;
    this.#from = found.from;
    this.#client = A2AClient.fromCard(found.card, {
      fetch: this.#tap.fetch,
      interceptors: [this.#tap.interceptor],
      credentials: (q) => this.#held[q.name],
      trust: this.trust(),
    });
    return this.facts();
  }

  /** Asks for the extended card with the credentials held (§3.1.11); the client uses it from then on. */
  async extended(): Promise<CardFacts> {
    const card = await this.client.getExtendedAgentCard();
    this.#card = card;
    this.#from = 'extended';
    return this.facts();
  }

  /** The card view's facts for the card in use. */
  async facts(): Promise<CardFacts> {
    const card = this.#card;
    if (!card) throw new Error(`open the agent's card first (${this.url})`);
    const facts = await cardFacts(this.url, card, {
      cardUrl: this.#cardUrl,
      from: this.#from,
      cache: this.#cache,
      trust: this.trust(),
      held: new Set(Object.keys(this.#held)),
    });
    if (this.#from === 'extended' && this.#publicCard)
      facts.publicSkills = this.#publicCard.skills.map((s) => s.id);
    return facts;
  }

  /**
   * Replaces the credentials held for this agent, by scheme name: a string (token, API key), a user
   * name and password, or `{ keep: true }` for the one already held. Anything else removes the scheme's
   * credential. Names the card does not declare are refused, so a typo does not pass silently.
   */
  setCredentials(values: Record<string, unknown>): void {
    const schemes = this.#card?.securitySchemes ?? {};
    const next: Record<string, Credential> = {};
    for (const [name, v] of Object.entries(values)) {
      if (!(name in schemes)) throw new Error(`the card declares no security scheme "${name}"`);
      if (typeof v === 'string' && v.trim() !== '') next[name] = v.trim();
      else if (typeof v === 'object' && v !== null && (v as { keep?: unknown }).keep === true) {
        // The page never has the value, so "unchanged" is said rather than sent back.
        if (this.#held[name] !== undefined) next[name] = this.#held[name];
      } else if (typeof v === 'object' && v !== null) {
        const { username, password } = v as Record<string, unknown>;
        if (typeof username === 'string' && typeof password === 'string' && username !== '')
          next[name] = { username, password };
      }
    }
    this.#held = next;
  }

  /** Names of the header or query parameters the card's API-key schemes use. */
  #schemeNames(location: 'header' | 'query'): string[] {
    const out: string[] = [];
    for (const s of Object.values(this.#card?.securitySchemes ?? {})) {
      if ('apiKeySecurityScheme' in s && s.apiKeySecurityScheme.location.toLowerCase() === location)
        out.push(s.apiKeySecurityScheme.name);
    }
    return out;
  }
}
