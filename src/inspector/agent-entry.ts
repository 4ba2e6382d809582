/**
 * One agent as an inspector session knows it: its card, the `A2AClient` built from it (recorded by
 * the wire tap), the credentials and custom headers the user entered — held here, on the server, and
 * nowhere else. The client speaks what the library speaks: A2A 1.0 and 0.3, JSON-RPC, HTTP+JSON and
 * gRPC.
 */
import {
  A2AClient,
  CardCache,
  discoverAgentCard,
  isA2AClientError,
  type CardTrust,
  type Credential,
  type FetchLike,
} from 'a2a-kit/client';
import type { AgentCard } from 'a2a-kit';
import { cacheHeaders, cardFacts, type CardFacts } from './card-facts.js';
import { cardFindings, cardTextFindings, type CardFinding } from './card-findings.js';
import { checkHeaders, headerFacts, isSecretHeader } from './custom-headers.js';
import { Masker, maskRules } from './mask.js';
import type { WireLog } from './wire.js';
import { GrpcRecorder } from './wire-grpc.js';
import { recorded, wireTap, type WireTap } from './wire-tap.js';
import { CardRefused } from './errors.js';

/** Far enough ahead that any cached card counts as stale: how "Revalidate" makes the cache ask the agent. */
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;
/** The versions the inspector speaks: whatever the agent's card offers first (§8.3.2). */
export const VERSIONS = ['1.0', '0.3'] as const;
/** What an answer may weigh (the client's default): a card, a task, one message. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/** How long the inspector waits for an agent (the card, a call, a stream's first event). */
export interface AgentLimits {
  timeoutMs: number;
}

/** An agent in a session: card, client, credentials, headers. */
export class AgentEntry {
  readonly masker: Masker;
  readonly #tap: WireTap;
  readonly #grpc: GrpcRecorder;
  readonly #cardFetch: FetchLike;
  #held: Record<string, Credential> = {};
  #headers = new Map<string, string>();
  #publicCard: AgentCard | undefined;
  #card: AgentCard | undefined;
  #client: A2AClient | undefined;
  #clientError: Error | undefined;
  #cardUrl: string | undefined;
  #from = 'network';
  #cache: Record<string, string> = {};
  /** The text of the last card body read (bounded), until its findings are worked out. */
  #cardText: string | undefined;
  #findings: CardFinding[] = [];
  // The card cache's clock: pushed forward to force a conditional request (the public way to revalidate).
  #skew = 0;
  readonly #cardCache = new CardCache({ now: () => Date.now() + this.#skew, maxEntries: 4 });

  constructor(
    /** The base URL (or card URL) the user entered. */
    readonly url: string,
    log: WireLog,
    private readonly trust: () => CardTrust,
    private readonly limits: AgentLimits,
  ) {
    this.masker = new Masker(() => {
      const secret = [...this.#headers].filter(([name]) => isSecretHeader(name));
      return maskRules(
        { ...this.#held, ...Object.fromEntries(secret.map(([n, v]) => [`header ${n}`, v])) },
        [...this.#schemeNames('header'), ...secret.map(([n]) => n)],
        this.#schemeNames('query'),
      );
    });
    this.#tap = wireTap(log, this.masker);
    this.#grpc = new GrpcRecorder(this.#tap, log, this.masker, MAX_ANSWER_BYTES);
    this.#cardFetch = async (input, init) => {
      const res = await this.#tap.fetch(input, init);
      this.#cache = cacheHeaders(res.headers);
      this.#cardText = undefined;
      if (!res.ok || !res.body) return res;
      // Kept only up to what the client accepts; the findings are worked out from it, then it goes.
      let text = '';
      let over = false;
      const body = recorded(
        res.body,
        (t) => {
          if (over) return;
          if (text.length + t.length > MAX_ANSWER_BYTES) [over, text] = [true, ''];
          else text += t;
        },
        () => (this.#cardText = over ? undefined : text),
      );
      return new Response(body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    };
  }

  /** The client, once the card is loaded. */
  get client(): A2AClient {
    if (this.#clientError) throw this.#clientError;
    if (!this.#client) throw new Error(`open the agent's card first (${this.url})`);
    return this.#client;
  }

  /** Fetches (or reuses) the card and builds the client. `revalidate` asks the agent even when the cached card is fresh. */
  async load(revalidate = false): Promise<CardFacts> {
    if (revalidate) this.#skew += TEN_YEARS_MS;
    const isCardUrl = /\.json(?:$|\?)/.test(this.url);
    let found: Awaited<ReturnType<typeof discoverAgentCard>>;
    try {
      found = await discoverAgentCard(isCardUrl ? { cardUrl: this.url } : this.url, {
        fetch: this.#cardFetch,
        cache: this.#cardCache,
        headers: Object.fromEntries(this.#headers),
        timeoutMs: this.limits.timeoutMs,
      });
    } catch (err) {
      const text = this.#cardText;
      this.#cardText = undefined;
      if (isA2AClientError(err) && err.code === 'CARD_INVALID' && text !== undefined)
        throw new CardRefused(err, await cardTextFindings(text));
      throw err;
    }
    if (found.from === 'network' && this.#cardText !== undefined)
      this.#findings = await cardTextFindings(this.#cardText);
    else if (found.from === 'network' || this.#findings.length === 0)
      this.#findings = await cardFindings(found.card);
    this.#cardText = undefined;
    this.#publicCard = found.card;
    this.#card = found.card;
    this.#cardUrl = found.cardUrl;
    this.#from = found.from;
    this.#build(found.card);
    return this.facts();
  }

  /** A client for `card` with everything the session holds for this agent. */
  #build(card: AgentCard): void {
    try {
      this.#client = A2AClient.fromCard(card, {
        fetch: this.#tap.fetch,
        interceptors: [this.#tap.interceptor],
        credentials: (q) => this.#held[q.name],
        headers: Object.fromEntries(this.#headers),
        trust: this.trust(),
        versions: VERSIONS,
        transports: { GRPC: this.#grpc.factory },
        timeoutMs: this.limits.timeoutMs,
        maxResponseBytes: MAX_ANSWER_BYTES,
      });
      this.#clientError = undefined;
    } catch (err) {
      // No interface this client speaks: the card is still shown (with why), calls say the same.
      this.#client = undefined;
      this.#clientError = err as Error;
    }
  }

  /** Asks for the extended card with the credentials held (§3.1.11); the client uses it from then on. */
  async extended(): Promise<CardFacts> {
    const card = await this.client.getExtendedAgentCard();
    this.#card = card;
    this.#from = 'extended';
    this.#findings = await cardFindings(card);
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
    facts.findings = this.#findings;
    facts.headers = headerFacts(this.#headers);
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

  /**
   * Replaces the custom headers sent to this agent (card request and calls); a secret one sent back
   * as the mask keeps its value. Works before the card is open, for a card behind a gateway.
   */
  setHeaders(list: unknown): ReturnType<typeof headerFacts> {
    this.#headers = checkHeaders(list, this.#headers);
    if (this.#card) this.#build(this.#card);
    return headerFacts(this.#headers);
  }

  /** Lets the agent go: its gRPC connections close. */
  close(): void {
    this.#grpc.close();
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
