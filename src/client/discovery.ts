/**
 * Finding an agent's card (spec §8.2): from a base URL (the well-known path, exactly), from a
 * card URL given directly, or from a card already in hand. Every card is validated, so a broken
 * card fails here with a list of what is wrong instead of later with a confusing call error.
 */
import {
  HEADER_VERSION,
  PROTOCOL_VERSION,
  WELL_KNOWN_CARD_PATH,
  type AgentCard,
} from '../protocol/index.js';
import { CardCache } from './card-cache.js';
import { checkAgentCard } from './card-check.js';
import { assertAgentCardVerified, type CardTrust } from './card-verify.js';
import { A2AClientError, isA2AClientError } from './errors.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  callSignal,
  readText,
  toClientError,
  unavailable,
  UNAVAILABLE_STATUSES,
  type FetchLike,
} from './http.js';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.js';

/** Where the card comes from: a base URL, an explicit card URL, or the card itself. */
export type CardSource = string | URL | { cardUrl: string | URL } | { card: unknown };

/** How {@link resolveAgentCard} and {@link discoverAgentCard} fetch and check a card. */
export interface ResolveCardOptions {
  /** fetch to use; default the global one. */
  fetch?: FetchLike;
  /** Card cache; `false` disables caching. Default: one cache shared by the process. */
  cache?: CardCache | false;
  /** Aborts the fetch. */
  signal?: AbortSignal;
  /** Timeout for the whole fetch including retries. Default 10 s. */
  timeoutMs?: number;
  /** Retries on network errors and 429/502/503/504 (a card fetch is safe to repeat). */
  retry?: Partial<RetryPolicy>;
  /** Extra request headers (e.g. credentials for a card behind a gateway). */
  headers?: Record<string, string>;
  /** Cap on the card's size. Default 10 MiB. */
  maxResponseBytes?: number;
  /**
   * Keys trusted to sign agent cards (§8.4.3). When given, a card whose signature check fails is
   * rejected; with `requireSignature`, so is an unsigned one. Nothing is fetched unless allowed.
   */
  trust?: CardTrust;
  /** A further check of the card before it is used or cached. Throw to reject. */
  verify?: (card: AgentCard) => void | Promise<void>;
}

/** A resolved card and how it was obtained. */
export interface DiscoveredCard {
  /** The validated (and, with `trust`, checked) card. */
  card: AgentCard;
  /** The URL the card was fetched from (undefined for a card given inline). */
  cardUrl: string | undefined;
  /** `network`: downloaded; `cache`: fresh copy reused; `revalidated`: server answered 304; `inline`: given. */
  from: 'network' | 'cache' | 'revalidated' | 'inline';
}

let sharedCache: CardCache | undefined;
/** The process-wide card cache used when no `cache` option is given. */
export function defaultCardCache(): CardCache {
  sharedCache ??= new CardCache();
  return sharedCache;
}

/** `http://host:1234` or `http://host:1234/` → `http://host:1234/.well-known/agent-card.json` (a path prefix is kept). */
export function wellKnownCardUrl(baseUrl: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(baseUrl));
  } catch {
    throw new A2AClientError(
      'INVALID_ARGUMENT',
      `"${String(baseUrl)}" is not an absolute URL; pass e.g. http://localhost:41241`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new A2AClientError('INVALID_ARGUMENT', `"${String(baseUrl)}" is not an http(s) URL`);
  }
  if (u.pathname.endsWith(WELL_KNOWN_CARD_PATH)) return u.toString();
  // Keep a path prefix (agents mounted below a path), drop query and fragment.
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}${WELL_KNOWN_CARD_PATH}`;
}

/**
 * Fetches an agent's card and validates it against A2A 1.0 (§8.2): from a base URL (its
 * `/.well-known/agent-card.json`), from `{ cardUrl }`, or checks `{ card }` given inline. Uses the
 * card cache (§8.6) and, with `trust`, the card's signature (§8.4). See {@link discoverAgentCard} to
 * learn where the card came from. Throws an `A2AClientError` (`CARD_FETCH_FAILED`, `CARD_INVALID`
 * with the list of problems, `CARD_SIGNATURE_INVALID`, `NETWORK`, `TIMEOUT`, `INVALID_ARGUMENT`).
 *
 * @example
 * ```ts
 * import { A2AClient, resolveAgentCard } from 'a2a-kit/client';
 *
 * const card = await resolveAgentCard('http://localhost:41241');
 * process.stdout.write(`${card.name}: ${card.skills.map((s) => s.id).join(', ')}\n`);
 * if (card.capabilities.streaming) {
 *   const client = new A2AClient(card);
 *   process.stdout.write(`streaming over ${client.interface.binding}\n`);
 * }
 * ```
 */
export async function resolveAgentCard(
  source: CardSource,
  options: ResolveCardOptions = {},
): Promise<AgentCard> {
  return (await discoverAgentCard(source, options)).card;
}

/** Like {@link resolveAgentCard}, also saying where the card came from (network, cache, 304, inline). */
export async function discoverAgentCard(
  source: CardSource,
  options: ResolveCardOptions = {},
): Promise<DiscoveredCard> {
  if (typeof source === 'object' && !(source instanceof URL) && 'card' in source) {
    const card = await validate(source.card, 'the card given');
    await check(card, options, undefined);
    return { card, cardUrl: undefined, from: 'inline' };
  }
  const cardUrl =
    typeof source === 'object' && !(source instanceof URL)
      ? absolute(source.cardUrl)
      : wellKnownCardUrl(source);
  const cache = options.cache === false ? undefined : (options.cache ?? defaultCardCache());
  const cached = cache?.get(cardUrl);
  if (cache && cached && cache.isFresh(cached)) {
    // The cache may be shared with callers that trust other keys (or none): check again here.
    await check(cached.card, options, cardUrl);
    return { card: cached.card, cardUrl, from: 'cache' };
  }

  const timeoutMs = options.timeoutMs ?? 10_000;
  const { signal, clear } = callSignal(options.signal, timeoutMs);
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  try {
    return await withRetry(() => fetchOnce(cardUrl, cache, options, signal, timeoutMs), policy, {
      signal,
    });
  } catch (err) {
    throw toClientError(err, 'Fetching the agent card', cardUrl, timeoutMs);
  } finally {
    clear();
  }
}

async function fetchOnce(
  cardUrl: string,
  cache: CardCache | undefined,
  options: ResolveCardOptions,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<DiscoveredCard> {
  const what = 'Fetching the agent card';
  const fetchImpl = options.fetch ?? ((i, init) => globalThis.fetch(i, init));
  const conditional = cache?.conditionalHeaders(cardUrl) ?? {};
  let res: Response;
  try {
    res = await fetchImpl(cardUrl, {
      method: 'GET',
      headers: {
        Accept: 'application/json',
        [HEADER_VERSION]: PROTOCOL_VERSION,
        ...conditional,
        ...options.headers,
      },
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw toClientError(err, what, cardUrl, timeoutMs);
  }
  if (res.status === 304 && cache) {
    await res.body?.cancel().catch(() => undefined);
    const renewed = cache.revalidated(cardUrl, res.headers);
    if (renewed) {
      await check(renewed.card, options, cardUrl);
      return { card: renewed.card, cardUrl, from: 'revalidated' };
    }
    throw new A2AClientError(
      'CARD_FETCH_FAILED',
      `${what}: ${cardUrl} answered 304 but no card was cached`,
      { status: 304 },
    );
  }
  if (UNAVAILABLE_STATUSES.has(res.status)) {
    await res.body?.cancel().catch(() => undefined);
    throw unavailable(res, what, cardUrl);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    const hint =
      res.status === 404
        ? `; the card must be served at ${WELL_KNOWN_CARD_PATH} below the agent's base URL — check the URL and port`
        : res.status === 401 || res.status === 403
          ? '; the public card should not need credentials'
          : '';
    throw new A2AClientError(
      'CARD_FETCH_FAILED',
      `${what}: ${cardUrl} answered HTTP ${res.status}${hint}`,
      {
        status: res.status,
      },
    );
  }
  let text: string;
  try {
    text = await readText(res, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, what);
  } catch (err) {
    throw toClientError(err, what, cardUrl, timeoutMs);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const type = res.headers.get('content-type') ?? 'no content type';
    throw new A2AClientError(
      'CARD_INVALID',
      `The agent card at ${cardUrl} is not JSON (${type}); is this an A2A agent?`,
    );
  }
  const card = await validate(json, `the agent card at ${cardUrl}`);
  await check(card, options, cardUrl);
  cache?.store(cardUrl, card, res.headers);
  return { card, cardUrl, from: 'network' };
}

async function validate(json: unknown, where: string): Promise<AgentCard> {
  // A 0.3 card becomes the 1.0 model with 0.3 interfaces; whether to use them is the client's choice.
  const r = await checkAgentCard(json);
  if (r.ok) return r.card;
  const shown = r.problems.slice(0, 10);
  const more =
    r.problems.length > shown.length ? `\n  … and ${r.problems.length - shown.length} more` : '';
  const read =
    r.version === '0.3'
      ? `A2A 0.3 card (${where}; read as 0.3: it has no supportedInterfaces and names its endpoint in "url")`
      : `A2A 1.0 card (${where})`;
  throw new A2AClientError('CARD_INVALID', `Invalid ${read}:\n  ${shown.join('\n  ')}${more}`);
}

async function check(
  card: AgentCard,
  options: ResolveCardOptions,
  cardUrl: string | undefined,
): Promise<void> {
  if (!options.verify && !options.trust) return;
  try {
    if (options.trust) await assertAgentCardVerified(card, options.trust);
    await options.verify?.(card);
  } catch (err) {
    if (isA2AClientError(err) && err.code === 'CARD_SIGNATURE_INVALID') throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new A2AClientError(
      'CARD_SIGNATURE_INVALID',
      `The agent card${cardUrl ? ` at ${cardUrl}` : ''} was rejected: ${why}`,
      {
        cause: err,
      },
    );
  }
}

function absolute(u: string | URL): string {
  try {
    return new URL(String(u)).toString();
  } catch {
    throw new A2AClientError('INVALID_ARGUMENT', `cardUrl "${String(u)}" is not an absolute URL`);
  }
}
