/**
 * Client interceptors: the one place for what every request should do whatever its operation —
 * logging, tracing, metrics, refreshing credentials, rate limits — without touching a transport.
 * They wrap each attempt on the wire, inside the retry, fallback and resume loops, so what they
 * see is what the network saw.
 */
import type { OperationName } from '../protocol/index.js';
import { isA2AClientError } from './errors.js';
import { checkResult } from './results.js';
import type { StreamEvent, Transport, TransportRequest } from './transport.js';
import { httpFailureOf } from './wire.js';

/**
 * One request about to go out, as an interceptor sees it. `before` and `after` of the same attempt
 * receive the same object, so an interceptor can correlate them (e.g. a `WeakMap` from call to span).
 */
export interface ClientCall {
  /** The A2A operation, e.g. `SendMessage` or `SubscribeToTask` (a resumed stream subscribes). */
  readonly operation: OperationName;
  /** The `protocolBinding` of the interface in use, e.g. `JSONRPC` or `HTTP+JSON`. */
  readonly binding: string;
  /** The interface URL (the HTTP+JSON binding appends the operation's route to it). */
  readonly url: string;
  /** True for SendStreamingMessage and SubscribeToTask. */
  readonly streaming: boolean;
  /** The operation's request as it will be sent (tenant included). Read it; do not change it. */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * Headers this client adds to the binding's own: the client's `headers` option, credentials, the
   * call's `headers`. Set, change or delete entries in `before`; they are sent as they are when it
   * returns, and win over the binding's headers. Credentials are here too: do not log them.
   */
  readonly headers: Record<string, string>;
  /** The `Last-Event-ID` sent, when a stream resumes after an event it already received. */
  readonly lastEventId: string | undefined;
  /** Fires when the caller aborts or the call times out; long waits in `before` should honour it. */
  readonly signal: AbortSignal | undefined;
}

/** How a stream connection ended: the agent closed it, the consumer stopped reading, or it failed. */
export type StreamEnd = 'ended' | 'stopped' | 'failed';

/** What every outcome reports. */
export interface ClientCallFacts {
  /** The HTTP status of the answer, when there was one (a custom transport may not report it). */
  readonly status: number | undefined;
  /** Milliseconds from sending to the answer (streams: to the end of the connection), `before` excluded. */
  readonly durationMs: number;
  /** Streams: events received on this connection. Unary calls: undefined. */
  readonly events: number | undefined;
  /** Streams: how the connection ended. Unary calls: undefined. */
  readonly end: StreamEnd | undefined;
}

/** A successful attempt. */
export interface ClientCallSucceeded extends ClientCallFacts {
  /** The attempt got an answer (for a stream: ended cleanly, or the reader stopped). */
  readonly ok: true;
  /** Unary calls: the operation's response, checked. Streams: undefined (see `events`). */
  readonly result: unknown;
}

/** A failed attempt. */
export interface ClientCallFailed extends ClientCallFacts {
  /** The attempt threw. */
  readonly ok: false;
  /**
   * What the attempt threw: an `A2AError` (the agent's answer, with its `kind`), an
   * `A2AClientError` (this side: `NETWORK`, `TIMEOUT`, `BAD_RESPONSE`, …), or the caller's abort.
   */
  readonly error: unknown;
}

/** What came of one attempt, handed to `after`. */
export type ClientCallOutcome = ClientCallSucceeded | ClientCallFailed;

/**
 * A cross-cutting concern on every request of an {@link A2AClient} — the `interceptors` option.
 *
 * `before` runs just before a request goes out (for a stream: when it opens), in the order the
 * interceptors are listed; it may add or change headers and may wait (a rate limit) or throw (the
 * request is then not sent and the error reaches the caller). `after` runs once the answer is in
 * (for a stream: when the connection ends, with its event count), in reverse order, for every
 * interceptor whose `before` ran; an error it throws replaces the outcome.
 *
 * Each attempt on the wire passes through separately: a retry after a network failure or a 503,
 * the retry after `onUnauthorized` refreshed credentials, a fallback to another interface, and every
 * reconnection of a resumed stream (a `SubscribeToTask` with `lastEventId`) is its own
 * `before`/`after` pair. A call refused before anything is sent (a capability the card does not
 * declare) passes through none. With no interceptor installed nothing of this runs.
 *
 * @example
 * ```ts
 * import { A2AClient, isA2AError, type ClientInterceptor } from 'a2a-kit/client';
 *
 * const counts = new Map<string, number>();
 * const metrics: ClientInterceptor = {
 *   before(call) {
 *     call.headers['x-request-id'] = crypto.randomUUID();
 *   },
 *   after(call, outcome) {
 *     const kind = outcome.ok ? 'ok' : isA2AError(outcome.error) ? outcome.error.kind : 'client-error';
 *     const key = `${call.operation} ${kind}`;
 *     counts.set(key, (counts.get(key) ?? 0) + 1);
 *   },
 * };
 * const client = await A2AClient.connect('http://localhost:41241', { interceptors: [metrics] });
 * ```
 */
export interface ClientInterceptor {
  /** Before the request goes out: may change `call.headers`, wait, or throw to refuse the call. */
  before?(call: ClientCall): void | Promise<void>;
  /** After the answer (for a stream: after its end), with the result or the error. */
  after?(call: ClientCall, outcome: ClientCallOutcome): void | Promise<void>;
}

/** A transport request whose headers exist, so interceptors can edit them in place. */
export type InterceptedRequest = TransportRequest & { headers: Record<string, string> };

function describe(
  transport: Transport,
  operation: OperationName,
  params: object,
  req: InterceptedRequest,
  streaming: boolean,
): ClientCall {
  return {
    operation,
    binding: transport.binding,
    url: transport.url,
    streaming,
    params: params as Readonly<Record<string, unknown>>,
    headers: req.headers,
    lastEventId: req.lastEventId,
    signal: req.signal,
  };
}

/** The HTTP status an error came from, when the transport recorded one. */
function statusOf(err: unknown): number | undefined {
  return isA2AClientError(err) ? err.status : httpFailureOf(err)?.status;
}

/** `before` of each interceptor in order; returns how many ran, so only their `after` runs. */
async function runBefore(
  list: readonly ClientInterceptor[],
  call: ClientCall,
  ran: { count: number },
): Promise<void> {
  for (const interceptor of list) {
    await interceptor.before?.(call);
    ran.count++;
  }
}

/** `after` in reverse order; every one runs, and the first error thrown replaces the outcome. */
async function runAfter(
  list: readonly ClientInterceptor[],
  ran: number,
  call: ClientCall,
  outcome: ClientCallOutcome,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (let k = ran - 1; k >= 0; k--) {
    try {
      await list[k]?.after?.(call, outcome);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** One unary attempt through the interceptors; the answer is checked (`url` words the error) before `after` sees it. */
export async function interceptedCall(
  list: readonly ClientInterceptor[],
  transport: Transport,
  operation: OperationName,
  params: object,
  req: InterceptedRequest,
  url: string,
): Promise<unknown> {
  const call = describe(transport, operation, params, req, false);
  let status: number | undefined;
  req.onStatus = (s) => {
    status = s;
  };
  const ran = { count: 0 };
  let start = performance.now();
  let outcome: ClientCallOutcome;
  try {
    await runBefore(list, call, ran);
    start = performance.now();
    const result = await checkResult(operation, await transport.call(operation, params, req), url);
    outcome = {
      ok: true,
      result,
      status,
      durationMs: performance.now() - start,
      events: undefined,
      end: undefined,
    };
  } catch (error) {
    outcome = {
      ok: false,
      error,
      status: status ?? statusOf(error),
      durationMs: performance.now() - start,
      events: undefined,
      end: undefined,
    };
  }
  await runAfter(list, ran.count, call, outcome);
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

/** One stream connection through the interceptors: `before` when it opens, `after` when it ends however it ends. */
export async function* interceptedStream(
  list: readonly ClientInterceptor[],
  transport: Transport,
  operation: OperationName,
  params: object,
  req: InterceptedRequest,
): AsyncGenerator<StreamEvent> {
  const call = describe(transport, operation, params, req, true);
  let status: number | undefined;
  req.onStatus = (s) => {
    status = s;
  };
  const ran = { count: 0 };
  let start = performance.now();
  let events = 0;
  let end: StreamEnd = 'stopped';
  let error: unknown;
  try {
    await runBefore(list, call, ran);
    start = performance.now();
    for await (const ev of transport.stream(operation, params, req)) {
      events++;
      yield ev;
    }
    end = 'ended';
  } catch (err) {
    end = 'failed';
    error = err;
    throw err;
  } finally {
    // Also reached when the consumer stops reading (`break`): the connection is closed by then.
    const facts = {
      status: end === 'failed' ? (status ?? statusOf(error)) : status,
      durationMs: performance.now() - start,
      events,
      end,
    };
    await runAfter(
      list,
      ran.count,
      call,
      end === 'failed' ? { ok: false, error, ...facts } : { ok: true, result: undefined, ...facts },
    );
  }
}
