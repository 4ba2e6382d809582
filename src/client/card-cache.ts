/**
 * An HTTP cache for agent cards (spec §8.6, RFC 9111 as a private cache): honours Cache-Control
 * (`max-age`, `no-cache`, `no-store`), `Expires` and `Age`, keeps ETag and Last-Modified, and
 * lets the caller revalidate a stale card with a conditional request, where a 304 renews it.
 */
import type { AgentCard } from '../protocol/index.js';

/** The response headers the cache reasons about, as last received (a 304 updates them). */
const KEPT = ['cache-control', 'expires', 'date', 'age', 'etag', 'last-modified'] as const;
type KeptHeaders = Partial<Record<(typeof KEPT)[number], string>>;

/** Settings of a {@link CardCache}. */
export interface CardCacheOptions {
  /** Milliseconds since the epoch; inject a fake clock in tests. Default `Date.now`. */
  now?: () => number;
  /** Freshness for a card served without Cache-Control or Expires (§8.6.2 allows a default). Default 5 minutes. */
  defaultMaxAgeMs?: number;
  /** How many cards to keep; the least recently used goes first. Default 256. */
  maxEntries?: number;
}

/** One cached card. */
export interface CachedCard {
  /** The card as validated when it was stored. */
  card: AgentCard;
  /** When the response (or the last 304) was received, per the cache's clock. */
  storedAt: number;
  /** How long after `storedAt` the card may be used without asking the server. */
  freshForMs: number;
  /** The `ETag` it came with, sent back as `If-None-Match` to revalidate. */
  etag: string | undefined;
  /** The `Last-Modified` it came with, sent back as `If-Modified-Since`. */
  lastModified: string | undefined;
}

/**
 * Caches agent cards by URL. One instance can be shared by every client of a process; by default
 * they share {@link defaultCardCache}. Pass `cache: new CardCache(...)` to isolate one, `false` to skip caching.
 */
export class CardCache {
  private readonly entries = new Map<string, CachedCard & { headers: KeptHeaders }>();
  private readonly now: () => number;
  private readonly defaultMaxAgeMs: number;
  private readonly maxEntries: number;

  /** An empty cache. */
  constructor(options: CardCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.defaultMaxAgeMs = options.defaultMaxAgeMs ?? 5 * 60_000;
    this.maxEntries = Math.max(1, options.maxEntries ?? 256);
  }

  /** The cached entry for `url`, fresh or not. */
  get(url: string): CachedCard | undefined {
    return this.entries.get(url);
  }

  /** True when the cached card may be used without contacting the server. */
  isFresh(entry: CachedCard): boolean {
    return this.now() - entry.storedAt < entry.freshForMs;
  }

  /** Headers that turn the next fetch of `url` into a revalidation (If-None-Match / If-Modified-Since). */
  conditionalHeaders(url: string): Record<string, string> {
    const e = this.entries.get(url);
    const h: Record<string, string> = {};
    if (e?.etag) h['If-None-Match'] = e.etag;
    if (e?.lastModified) h['If-Modified-Since'] = e.lastModified;
    return h;
  }

  /** Records a 200 response's card, or forgets the URL when the server said `no-store`. */
  store(url: string, card: AgentCard, headers: Headers): void {
    const kept = pick(headers);
    if (directives(kept['cache-control']).has('no-store')) {
      this.entries.delete(url);
      return;
    }
    this.put(url, card, kept);
  }

  /**
   * Applies a 304: the stored headers take the 304's values (RFC 9111 §4.3.4) and the card's age
   * restarts. Returns the renewed entry, or undefined if nothing was cached for `url`.
   */
  revalidated(url: string, headers: Headers): CachedCard | undefined {
    const old = this.entries.get(url);
    if (!old) return undefined;
    const merged = { ...old.headers, ...pick(headers) };
    if (directives(merged['cache-control']).has('no-store')) {
      this.entries.delete(url);
      return { ...old, storedAt: this.now(), freshForMs: 0 };
    }
    return this.put(url, old.card, merged);
  }

  /** Forgets one card (e.g. after its signature failed). */
  delete(url: string): void {
    this.entries.delete(url);
  }

  /** Forgets every card. */
  clear(): void {
    this.entries.clear();
  }

  private put(url: string, card: AgentCard, headers: KeptHeaders): CachedCard {
    const entry = {
      card,
      storedAt: this.now(),
      freshForMs: this.freshness(headers),
      etag: headers.etag,
      lastModified: headers['last-modified'],
      headers,
    };
    this.entries.delete(url);
    this.entries.set(url, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return entry;
  }

  /** RFC 9111 §4.2.1 for a private cache: max-age, else Expires − Date, else our default; minus Age. */
  private freshness(h: KeptHeaders): number {
    const cc = directives(h['cache-control']);
    if (cc.has('no-cache')) return 0;
    const ageMs = Math.max(0, Number(h.age ?? 0) * 1000 || 0);
    const maxAge = cc.get('max-age');
    if (maxAge !== undefined) {
      const seconds = Number(maxAge);
      return Number.isFinite(seconds) && seconds >= 0 ? Math.max(0, seconds * 1000 - ageMs) : 0;
    }
    if (h.expires !== undefined) {
      const expires = Date.parse(h.expires);
      const date = h.date !== undefined ? Date.parse(h.date) : this.now();
      // An invalid Expires means "already expired".
      return Number.isNaN(expires) || Number.isNaN(date) ? 0 : Math.max(0, expires - date - ageMs);
    }
    return this.defaultMaxAgeMs;
  }
}

function pick(headers: Headers): KeptHeaders {
  const out: KeptHeaders = {};
  for (const name of KEPT) {
    const v = headers.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

/** `max-age=60, no-cache` → {max-age → "60", no-cache → ""}; names are case-insensitive. */
export function directives(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (value ?? '').split(',')) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    out.set(
      name,
      rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return out;
}
