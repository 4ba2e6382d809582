/**
 * A browser's session with the inspector: the agents it opened (each with its client and the
 * credentials entered), its wire log, its running streams, and the numbered events the page receives
 * over SSE. Events are kept in a bounded ring so a page that reconnects (`Last-Event-ID`) misses nothing.
 */
import { randomBytes } from 'node:crypto';
import type { CardTrust } from 'a2a-kit/client';
import { AgentEntry, type AgentLimits } from './agent-entry.js';
import { WireLog } from './wire.js';

/** One event for the page: its SSE id, its type (the SSE `event:` field) and its data as JSON text. */
export interface PageEvent {
  id: number;
  type: string;
  json: string;
}

/** How many events a session keeps for pages that reconnect, and how much text they may hold. */
const RING = 2000;
const RING_CHARS = 32 * 1024 * 1024;
/**
 * An event larger than this reaches the page as a note of its size: an agent's answer can weigh up to
 * the client's limit, and the page shows it in full on the wire view already (cut at 512 KiB).
 */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;
/** Streams one session may run at once; the oldest is stopped beyond that. */
const MAX_STREAMS = 16;
/** Agents one session may open. */
const MAX_AGENTS = 32;

/** One browser's state on the inspector server. */
export class Session {
  readonly id = randomBytes(18).toString('base64url');
  readonly wire: WireLog;
  lastSeen = Date.now();
  readonly #agents = new Map<string, AgentEntry>();
  readonly #ring: PageEvent[] = [];
  #ringChars = 0;
  readonly #subscribers = new Set<(ev: PageEvent) => void>();
  readonly #streams = new Map<string, AbortController>();
  #seq = 0;
  /** Keys the user pasted in the card view to check signatures with, on top of the inspector's own. */
  #keys: Array<{ kid: string; key: Record<string, unknown> }> = [];

  constructor(
    private readonly baseTrust: () => CardTrust,
    private readonly limits: AgentLimits,
  ) {
    this.wire = new WireLog((u) =>
      this.emit(
        u.kind === 'chunk' ? 'wire-chunk' : 'wire',
        u.kind === 'chunk' ? { id: u.id, text: u.text } : u.exchange,
      ),
    );
  }

  /** The agent at `url`, created on first use (the least recently opened goes beyond the limit). */
  agent(url: string): AgentEntry {
    const key = normalise(url);
    let entry = this.#agents.get(key);
    if (entry) {
      this.#agents.delete(key);
    } else {
      entry = new AgentEntry(key, this.wire, () => this.trust(), this.limits);
      if (this.#agents.size >= MAX_AGENTS) {
        const [oldest, gone] = this.#agents.entries().next().value as [string, AgentEntry];
        gone.close();
        this.#agents.delete(oldest);
      }
    }
    this.#agents.set(key, entry);
    return entry;
  }

  /** What signatures are checked against: the inspector's trust plus the keys pasted in this session. */
  trust(): CardTrust {
    const base = this.baseTrust();
    if (this.#keys.length === 0) return base;
    return {
      ...base,
      keys: [...(base.keys ?? []), ...this.#keys.map(({ kid, key }) => ({ kid, key }))],
    };
  }

  /** Adds public keys (a JWK or a JWKS, each with a `kid`) to check card signatures with. */
  trustKeys(value: unknown): number {
    const list =
      typeof value === 'object' &&
      value !== null &&
      Array.isArray((value as { keys?: unknown }).keys)
        ? (value as { keys: unknown[] }).keys
        : [value];
    const found: Array<{ kid: string; key: Record<string, unknown> }> = [];
    for (const k of list) {
      if (typeof k !== 'object' || k === null || typeof (k as { kty?: unknown }).kty !== 'string')
        throw new Error('paste a public JWK or a JWKS ({"keys": [...]})');
      const jwk = k as Record<string, unknown>;
      if (typeof jwk.kid !== 'string' || jwk.kid === '')
        throw new Error('each key needs a "kid": signatures name their key by it');
      if ('d' in jwk) throw new Error('that is a private key; paste the public key only');
      found.push({ kid: jwk.kid, key: jwk });
    }
    this.#keys = [...this.#keys.filter((k) => !found.some((f) => f.kid === k.kid)), ...found].slice(
      -16,
    );
    return found.length;
  }

  /** The id of the last event sent; a page that loaded the state up to here asks for what follows. */
  get lastEventId(): number {
    return this.#seq;
  }

  /**
   * Sends an event to the page (and keeps it for a reconnecting page). `tooLarge` is what goes instead
   * when the event's JSON is larger than {@link MAX_EVENT_CHARS}.
   */
  emit(type: string, data: unknown, tooLarge?: (chars: number) => unknown): void {
    let json = JSON.stringify(data);
    if (json.length > MAX_EVENT_CHARS && tooLarge) json = JSON.stringify(tooLarge(json.length));
    const ev = { id: ++this.#seq, type, json };
    this.#ring.push(ev);
    this.#ringChars += json.length;
    while (this.#ring.length > RING || this.#ringChars > RING_CHARS)
      this.#ringChars -= this.#ring.shift()!.json.length;
    for (const s of this.#subscribers) s(ev);
  }

  /** Events after `lastId` still kept, then live ones until the returned function is called. */
  subscribe(lastId: number, listener: (ev: PageEvent) => void): () => void {
    for (const ev of this.#ring) if (ev.id > lastId) listener(ev);
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  /** Registers a running stream so the page can stop it; the oldest is stopped beyond the limit. */
  startStream(id: string): AbortController {
    this.#streams.get(id)?.abort();
    if (this.#streams.size >= MAX_STREAMS) {
      const [oldest, ctl] = this.#streams.entries().next().value as [string, AbortController];
      ctl.abort();
      this.#streams.delete(oldest);
    }
    const ctl = new AbortController();
    this.#streams.set(id, ctl);
    return ctl;
  }

  /** Stops reading a stream (the task goes on at the agent). */
  stopStream(id: string): boolean {
    const ctl = this.#streams.get(id);
    ctl?.abort();
    return this.#streams.delete(id);
  }

  /** Forgets a stream that ended by itself. */
  streamEnded(id: string, ctl: AbortController): void {
    if (this.#streams.get(id) === ctl) this.#streams.delete(id);
  }

  /** Stops everything the session runs. */
  close(): void {
    for (const ctl of this.#streams.values()) ctl.abort();
    this.#streams.clear();
    this.#subscribers.clear();
    for (const entry of this.#agents.values()) entry.close();
    this.#agents.clear();
  }
}

/** `http://host:1/` and `http://host:1` are the same agent. */
export function normalise(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new Error(`"${url}" is not an absolute URL; enter e.g. http://localhost:41241`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`"${url}" is not an http(s) URL`);
  return u.toString().replace(/\/+$/, '');
}

/**
 * Sessions by id, the idle ones forgotten. Only a request the server has seen come from its own page
 * may {@link Sessions.create} one (see `sameOrigin` in http-util.ts): creating is what evicts the
 * least recently used session when the table is full, so a stranger must never be able to.
 */
export class Sessions {
  readonly #all = new Map<string, Session>();

  constructor(
    private readonly trust: () => CardTrust,
    private readonly limits: AgentLimits,
    private readonly max = 32,
    private readonly idleMs = 12 * 3600 * 1000,
  ) {}

  /** The session with this id, if it is still kept (and it counts as used now). */
  find(id: string | undefined): Session | undefined {
    const found = id ? this.#all.get(id) : undefined;
    if (found) found.lastSeen = Date.now();
    return found;
  }

  /** A new session; the idle ones, then the least recently used beyond the limit, are dropped. */
  create(): Session {
    this.#sweep();
    const s = new Session(this.trust, this.limits);
    this.#all.set(s.id, s);
    return s;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.#all) if (now - s.lastSeen > this.idleMs) this.#drop(id, s);
    while (this.#all.size >= this.max) {
      const [id, s] = [...this.#all.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0]!;
      this.#drop(id, s);
    }
  }

  #drop(id: string, s: Session): void {
    s.close();
    this.#all.delete(id);
  }

  /** Stops every session's streams. */
  close(): void {
    for (const [id, s] of this.#all) this.#drop(id, s);
  }
}
