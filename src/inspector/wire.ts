/**
 * The wire view's log: every exchange of a session (request and answer, masked), bounded in count
 * and in answer text, and the updates the page receives as exchanges change. What records into it is
 * in wire-tap.ts (HTTP) and wire-grpc.ts (gRPC).
 */
import { curlCommand } from './mask.js';

/** One request and its answer, masked, as the page shows it. */
export interface WireExchange {
  id: number;
  /** ISO time the request went out. */
  at: string;
  /** The A2A operation, or `AgentCard` for a card fetch. */
  operation: string;
  binding?: string;
  streaming: boolean;
  method: string;
  url: string;
  requestHeaders: Array<[string, string]>;
  /** The request's text, cut at the same limit as answers (`requestTruncated`). */
  requestBody?: string;
  requestTruncated?: boolean;
  status?: number;
  responseHeaders?: Array<[string, string]>;
  /** The answer's text; for a stream, the SSE text as it arrived. Cut at a limit (`truncated`). */
  responseBody: string;
  truncated?: boolean;
  state: 'pending' | 'open' | 'done' | 'failed';
  /** Why the exchange failed: the network error, or the A2A error the client made of the answer. */
  error?: string;
  durationMs?: number;
  /** Streams: events received, and how the connection ended. */
  events?: number;
  end?: string;
  lastEventId?: string;
  /** The request as a `curl` command (`grpcurl` for gRPC), credentials replaced by `$A2A_CREDENTIAL`. */
  curl: string;
  /** gRPC calls: the status the call ended with (`OK`, `NOT_FOUND`, …); HTTP status is then absent. */
  grpcStatus?: string;
}

/** What the log tells its listener: a new or changed exchange, or more text of a streaming answer. */
export type WireUpdate =
  { kind: 'exchange'; exchange: WireExchange } | { kind: 'chunk'; id: number; text: string };

/** Text kept per answer; enough for any card or task, and the first stretch of a long stream. */
const MAX_BODY = 512 * 1024;

/** The exchanges of one inspector session, newest last, bounded. */
export class WireLog {
  readonly #entries: WireExchange[] = [];
  readonly #byId = new Map<number, WireExchange>();
  #next = 1;

  constructor(
    private readonly onUpdate: (u: WireUpdate) => void,
    private readonly max = 300,
  ) {}

  /** Every exchange kept, oldest first. */
  list(): WireExchange[] {
    return [...this.#entries];
  }

  /** Forgets every exchange (the page's Clear button). */
  clear(): void {
    this.#entries.length = 0;
    this.#byId.clear();
  }

  /** A fresh exchange id, handed out before the request exists (by the interceptor). */
  reserve(): number {
    return this.#next++;
  }

  /** Records a request about to go out. */
  open(
    ex: Omit<WireExchange, 'id' | 'curl' | 'responseBody' | 'state'> & { curl?: string },
    id = this.reserve(),
  ): WireExchange {
    const body = ex.requestBody;
    const cut = body !== undefined && body.length > MAX_BODY;
    const entry: WireExchange = {
      ...ex,
      ...(cut ? { requestBody: body.slice(0, MAX_BODY), requestTruncated: true } : {}),
      id,
      state: 'pending',
      responseBody: '',
      curl:
        ex.curl ??
        curlCommand({
          method: ex.method,
          url: ex.url,
          headers: ex.requestHeaders,
          // A body this large is no command to paste: the command says where it would go.
          body: cut ? undefined : body,
          bodyFile: cut ? `request-${id}.json` : undefined,
          streaming: ex.streaming,
        }),
    };
    this.#entries.push(entry);
    this.#byId.set(id, entry);
    while (this.#entries.length > this.max) this.#byId.delete(this.#entries.shift()!.id);
    this.changed(entry);
    return entry;
  }

  /** The exchange with this id, while it is kept. */
  get(id: number): WireExchange | undefined {
    return this.#byId.get(id);
  }

  /** Tells the page about a changed exchange. */
  changed(entry: WireExchange): void {
    if (this.#byId.has(entry.id)) this.onUpdate({ kind: 'exchange', exchange: entry });
  }

  /** Adds answer text (bounded) and tells the page. */
  append(entry: WireExchange, text: string): void {
    if (entry.truncated || text === '') return;
    const room = MAX_BODY - entry.responseBody.length;
    const piece = text.length > room ? text.slice(0, Math.max(0, room)) : text;
    entry.responseBody += piece;
    if (piece.length < text.length) entry.truncated = true;
    if (entry.state === 'open' && this.#byId.has(entry.id))
      this.onUpdate({ kind: 'chunk', id: entry.id, text: piece });
  }
}

/** An error in one line: the A2A kind or client code when there is one, then the message. */
export function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as { name?: string; kind?: string; code?: string | number; message?: string };
  const label = e.kind ?? (typeof e.code === 'string' ? e.code : undefined) ?? e.name ?? 'Error';
  return `${label}: ${e.message ?? String(err)}`;
}
