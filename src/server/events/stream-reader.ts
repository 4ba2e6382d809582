/**
 * One blocking connection reads the streams of every task this instance has subscribers for: a single
 * `XREAD BLOCK` names them all, each from the last id it delivered, and hands every entry to the
 * subscribers of its stream in order. A new subscription interrupts the wait (`CLIENT UNBLOCK`) so it
 * joins at once; one that starts behind the others first catches up with `XRANGE`. Entries are pulled,
 * never pushed: a slow instance only reads later, it cannot be flooded (back-pressure for free).
 */
import type { Redis } from 'ioredis';
import { compareIds } from './redis-keys.js';

/** A stream entry as the bus writes it: the event's id (our sequence number) and its JSON. */
export interface Entry {
  streamId: string;
  id: string;
  json: string;
}

interface Reader {
  after: string;
  /** Entries the group read while this reader was still catching up. */
  held: Entry[] | undefined;
  onEntry(e: Entry): void;
  onError(err: unknown): void;
}

interface Group {
  cursor: string;
  readers: Set<Reader>;
}

/** Multiplexes the subscriptions of one instance over one blocking Redis connection. */
export class StreamReader {
  readonly #groups = new Map<string, Group>();
  #blockedId: number | undefined;
  #wake: (() => void) | undefined;
  #closed = false;
  /** A stream was added that the XREAD in flight does not name yet. */
  #stale = false;
  #running: Promise<void> | undefined;

  constructor(
    private readonly blocking: Redis,
    private readonly command: Redis,
    private readonly blockMs = 5000,
  ) {}

  /** Start the read loop (call once the connection is ready). */
  start(): void {
    this.#running ??= this.#loop();
  }

  /** Number of streams being read. */
  get size(): number {
    return this.#groups.size;
  }

  /** Deliver the entries of `key` after `after` (a stream id) to `onEntry`, in order; returns the unsubscribe. */
  add(
    key: string,
    after: string,
    onEntry: (e: Entry) => void,
    onError: (err: unknown) => void,
  ): () => void {
    const reader: Reader = { after, held: undefined, onEntry, onError };
    let group = this.#groups.get(key);
    if (!group) {
      group = { cursor: after, readers: new Set() };
      this.#groups.set(key, group);
      this.#interrupt();
    } else if (compareIds(after, group.cursor) < 0) {
      reader.held = [];
      void this.#catchUp(key, reader, group.cursor);
    }
    group.readers.add(reader);
    return () => {
      const g = this.#groups.get(key);
      if (!g) return;
      g.readers.delete(reader);
      if (g.readers.size === 0) this.#groups.delete(key);
    };
  }

  async #catchUp(key: string, reader: Reader, upTo: string): Promise<void> {
    try {
      const rows = await this.command.xrange(key, `(${reader.after}`, upTo);
      for (const row of rows) deliver(reader, toEntry(row));
      const held = reader.held ?? [];
      reader.held = undefined;
      for (const e of held) deliver(reader, e);
    } catch (err) {
      reader.onError(err);
    }
  }

  /** Fail every subscription (the connection broke): their streams end with an error instead of hanging. */
  failAll(err: unknown): void {
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    for (const g of groups) for (const r of g.readers) r.onError(err);
  }

  /** The blocking connection's client id changes on every reconnect; the bus tells us the new one. */
  set blockedClientId(id: number | undefined) {
    this.#blockedId = id;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#interrupt();
    await this.#running?.catch(() => undefined);
  }

  #interrupt(attempt = 0): void {
    const w = this.#wake;
    if (w) {
      this.#wake = undefined;
      w();
      return;
    }
    this.#stale = true;
    if (this.#blockedId === undefined || this.command.status !== 'ready') return;
    this.command.client('UNBLOCK', this.#blockedId).catch(() => undefined);
    // The XREAD may not have reached Redis yet (then the UNBLOCK finds nothing to unblock): try again
    // shortly, so that a new subscription never waits a whole block period to join.
    if (attempt < 5)
      setTimeout(() => this.#stale && !this.#closed && this.#interrupt(attempt + 1), 20).unref();
  }

  async #loop(): Promise<void> {
    while (!this.#closed) {
      if (this.#groups.size === 0) {
        await new Promise<void>((r) => (this.#wake = r));
        continue;
      }
      this.#stale = false;
      const keys = [...this.#groups.keys()];
      const ids = keys.map((k) => this.#groups.get(k)!.cursor);
      let res: Array<[string, Array<[string, string[]]>]> | null;
      try {
        res = await this.blocking.xread(
          'COUNT',
          1000,
          'BLOCK',
          this.blockMs,
          'STREAMS',
          ...keys,
          ...ids,
        );
      } catch (err) {
        if (this.#closed) break;
        this.failAll(err);
        // The bus reconnects by itself; wait for a new subscription before reading again.
        continue;
      }
      if (!res) continue;
      for (const [key, rows] of res) {
        const group = this.#groups.get(key);
        if (!group) continue;
        for (const row of rows) {
          const e = toEntry(row);
          if (compareIds(e.streamId, group.cursor) <= 0) continue;
          group.cursor = e.streamId;
          for (const r of group.readers) {
            if (r.held) r.held.push(e);
            else deliver(r, e);
          }
        }
      }
    }
  }
}

/** De-duplication by stream id: a reader never sees an entry at or before the last one it saw. */
function deliver(r: Reader, e: Entry): void {
  if (compareIds(e.streamId, r.after) <= 0) return;
  r.after = e.streamId;
  try {
    r.onEntry(e);
  } catch (err) {
    r.onError(err);
  }
}

/** A row of XRANGE / XREAD: `[id, [field, value, …]]` with fields `i` (event id) and `e` (event JSON). */
export function toEntry([streamId, fields]: [string, string[]]): Entry {
  let id = '';
  let json = '';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'i') id = fields[i + 1]!;
    else if (fields[i] === 'e') json = fields[i + 1]!;
  }
  return { streamId, id, json };
}
