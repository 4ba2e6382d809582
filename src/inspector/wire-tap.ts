/**
 * The wire view's recorder for HTTP. Two seams of the public client meet here: a `fetch` wrapper sees
 * the bytes (method, URL, headers, body, status, the answer or the SSE text as it arrives), and an
 * interceptor sees the meaning (operation, binding, Last-Event-ID, the outcome). The interceptor tags
 * each attempt with a header that the fetch wrapper (or the gRPC recorder) reads and removes, so the
 * halves join without guessing.
 */
import type { ClientCall, ClientCallOutcome, ClientInterceptor, FetchLike } from 'a2a-kit/client';
import type { Masker } from './mask.js';
import { describeError, type WireLog } from './wire.js';

/** The header that joins an interceptor's call to the request it causes; never sent. */
const TAG = 'x-a2a-inspector-exchange';
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A Headers object as masked pairs, in the order they were given. */
function maskedPairs(headers: Headers, masker: Masker): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, name) => out.push([name, masker.header(name, value)]));
  return out;
}

/** What the recorders learn about an exchange from the interceptor's `before`. */
export interface Pending {
  operation: string;
  binding?: string;
  streaming: boolean;
  lastEventId?: string;
}

/** What records one agent's traffic (see {@link wireTap}). */
export interface WireTap {
  /** For the client's `fetch` option, and card discovery. */
  fetch: FetchLike;
  /** For the client's `interceptors` option. */
  interceptor: ClientInterceptor;
  /**
   * Takes the tag out of a request's headers (so it is never sent) and returns the exchange id and
   * what the interceptor knew; for recorders that do not go through `fetch` (gRPC).
   */
  claim(headers: Record<string, string> | undefined): { id?: number; facts: Pending };
}

/**
 * The pair that records one agent's traffic: `fetch` for the client's `fetch` option (and card
 * discovery), `interceptor` for its `interceptors` option.
 */
export function wireTap(
  log: WireLog,
  masker: Masker,
  base: FetchLike = (i, init) => globalThis.fetch(i, init),
): WireTap {
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

  const claim = (headers: Record<string, string> | undefined): { id?: number; facts: Pending } => {
    const tag = headers?.[TAG];
    if (headers) delete headers[TAG];
    const id = tag !== undefined ? Number(tag) : undefined;
    const facts = (id !== undefined ? pending.get(id) : undefined) ?? {
      operation: 'unknown',
      streaming: false,
    };
    return { ...(id !== undefined ? { id } : {}), facts };
  };

  return { fetch, interceptor, claim };
}

/**
 * The body passed on unchanged while its text is recorded. A pass-through rather than `tee()`: when
 * the client stops reading a stream, the cancel reaches the connection instead of a copy draining it.
 */
export function recorded(
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
