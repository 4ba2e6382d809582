/**
 * The wire view's recorder. Two seams of the public client meet here: a `fetch` wrapper sees the bytes
 * (method, URL, headers, body, status, the answer or the SSE text as it arrives), and an interceptor
 * sees the meaning (operation, binding, Last-Event-ID, the outcome). The interceptor tags each attempt
 * with a header that the fetch wrapper reads and removes, so the two halves join without guessing.
 */
import type { ClientCall, ClientCallOutcome, ClientInterceptor, FetchLike } from 'a2a-kit/client';
import { curlCommand, type Masker } from './mask.js';

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
  requestBody?: string;
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
  /** The request as a `curl` command, credentials replaced by `$A2A_CREDENTIAL`. */
  curl: string;
}

/** What the log tells its listener: a new or changed exchange, or more text of a streaming answer. */
export type WireUpdate =
  { kind: 'exchange'; exchange: WireExchange } | { kind: 'chunk'; id: number; text: string };

/** The header that joins an interceptor's call to the fetch it causes; never sent. */
const TAG = 'x-a2a-inspector-exchange';
/** Text kept per answer; enough for any card or task, and the first stretch of a long stream. */
const MAX_BODY = 512 * 1024;
const NULL_BODY = new Set([101, 204, 205, 304]);

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
    ex: Omit<WireExchange, 'id' | 'curl' | 'responseBody' | 'state'>,
    id = this.reserve(),
  ): WireExchange {
    const entry: WireExchange = {
      ...ex,
      id,
      state: 'pending',
      responseBody: '',
      curl: curlCommand({
        method: ex.method,
        url: ex.url,
        headers: ex.requestHeaders,
        body: ex.requestBody,
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

/** A Headers object as masked pairs, in the order they were given. */
function maskedPairs(headers: Headers, masker: Masker): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, name) => out.push([name, masker.header(name, value)]));
  return out;
}

/** What the fetch wrapper learns about an exchange before the interceptor's `after` runs. */
interface Pending {
  operation: string;
  binding?: string;
  streaming: boolean;
  lastEventId?: string;
}

/**
 * The pair that records one agent's traffic: `fetch` for the client's `fetch` option (and card
 * discovery), `interceptor` for its `interceptors` option.
 */
export function wireTap(
  log: WireLog,
  masker: Masker,
  base: FetchLike = (i, init) => globalThis.fetch(i, init),
): { fetch: FetchLike; interceptor: ClientInterceptor } {
  const pending = new Map<number, Pending>();
  const ids = new WeakMap<ClientCall, number>();

  const interceptor: ClientInterceptor = {
    before(call) {
      const id = log.reserve();
      ids.set(call, id);
      pending.set(id, {
        operation: call.operation,
        binding: call.binding,
        streaming: call.streaming,
        ...(call.lastEventId !== undefined ? { lastEventId: call.lastEventId } : {}),
      });
      call.headers[TAG] = String(id);
    },
    after(call, outcome: ClientCallOutcome) {
      const id = ids.get(call);
      if (id === undefined) return;
      pending.delete(id);
      const entry = log.get(id);
      if (!entry) return;
      entry.durationMs = Math.round(outcome.durationMs);
      if (outcome.events !== undefined) entry.events = outcome.events;
      if (outcome.end !== undefined) entry.end = outcome.end;
      if (!outcome.ok) {
        entry.state = 'failed';
        entry.error = describeError(outcome.error);
      } else if (entry.state !== 'failed') entry.state = 'done';
      log.changed(entry);
    },
  };

  const fetch: FetchLike = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    const tag = headers.get(TAG);
    headers.delete(TAG);
    const id = tag !== null ? Number(tag) : undefined;
    const facts: Pending = (id !== undefined ? pending.get(id) : undefined) ?? {
      operation: 'AgentCard',
      streaming: false,
    };
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? masker.text(init.body) : undefined;
    const entry = log.open(
      {
        at: new Date().toISOString(),
        operation: facts.operation,
        ...(facts.binding !== undefined ? { binding: facts.binding } : {}),
        streaming: facts.streaming,
        method,
        url: masker.url(String(input)),
        requestHeaders: maskedPairs(headers, masker),
        ...(body !== undefined ? { requestBody: body } : {}),
        ...(facts.lastEventId !== undefined ? { lastEventId: facts.lastEventId } : {}),
      },
      id,
    );
    const started = performance.now();
    let res: Response;
    try {
      res = await base(input, { ...init, headers });
    } catch (err) {
      entry.state = 'failed';
      entry.error = describeError(err);
      entry.durationMs = Math.round(performance.now() - started);
      log.changed(entry);
      throw err;
    }
    entry.status = res.status;
    entry.responseHeaders = maskedPairs(res.headers, masker);
    entry.state = 'open';
    log.changed(entry);
    const finish = (): void => {
      entry.durationMs ??= Math.round(performance.now() - started);
      // Without an interceptor (a card fetch) the body's end is the end of the exchange.
      if (id === undefined && entry.state === 'open') entry.state = 'done';
      log.changed(entry);
    };
    if (!res.body || NULL_BODY.has(res.status)) {
      finish();
      return res;
    }
    return new Response(
      recorded(res.body, (text) => log.append(entry, masker.text(text)), finish),
      {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      },
    );
  };

  return { fetch, interceptor };
}

/**
 * The body passed on unchanged while its text is recorded. A pass-through rather than `tee()`: when
 * the client stops reading a stream, the cancel reaches the connection instead of a copy draining it.
 */
function recorded(
  body: ReadableStream<Uint8Array>,
  onText: (s: string) => void,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    onText(decoder.decode());
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        onText(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (err) {
        end();
        controller.error(err);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
}

/** An error in one line: the A2A kind or client code when there is one, then the message. */
export function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as { name?: string; kind?: string; code?: string | number; message?: string };
  const label = e.kind ?? (typeof e.code === 'string' ? e.code : undefined) ?? e.name ?? 'Error';
  return `${label}: ${e.message ?? String(err)}`;
}
