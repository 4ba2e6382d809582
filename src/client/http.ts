/**
 * Small HTTP helpers shared by discovery and the transports: one place that turns fetch's many
 * failure shapes into {@link A2AClientError}s, and that reads bodies without trusting their size.
 */
import { A2AClientError, isA2AClientError, isAbortError, reachHint } from './errors.js';
import { readBoundedText } from '../protocol/body.js';
import { deadline } from '../protocol/deadline.js';
import { parseRetryAfter } from '../protocol/retry-after.js';

/** The fetch signature the client uses; inject your own (proxy, mTLS dispatcher, tests). */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Default cap on a whole response body. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Default cap on one SSE event. */
export const DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

/**
 * A signal that fires when the caller aborts or the timeout elapses; `clear()` it once the call is
 * done. Timeouts surface as a `TimeoutError` reason, which {@link toClientError} turns into a
 * `TIMEOUT` error. Built on {@link deadline}, never on `AbortSignal.any` over `AbortSignal.timeout`,
 * whose timer Node 20 lets the garbage collector take.
 */
export function callSignal(
  caller: AbortSignal | undefined,
  timeoutMs: number | undefined,
): { signal: AbortSignal | undefined; clear(): void } {
  if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs))
    return deadline(caller, timeoutMs, 'the call');
  return { signal: caller, clear: () => undefined };
}

/**
 * Translate whatever fetch or a body read threw into something a person can act on. Caller aborts
 * pass through untouched (that is the caller's own decision); A2A errors pass through as well.
 */
export function toClientError(
  err: unknown,
  what: string,
  url: string,
  timeoutMs?: number,
): unknown {
  if (isA2AClientError(err) || isAbortError(err)) return err;
  if (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'TimeoutError'
  ) {
    return new A2AClientError(
      'TIMEOUT',
      `${what} to ${url} timed out${timeoutMs ? ` after ${timeoutMs} ms` : ''}`,
      {
        cause: err,
      },
    );
  }
  if (isFetchFailure(err)) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? err.message;
    if (err.message === 'terminated') {
      // The request went out; the answer was cut off. The agent may well have acted on it.
      return new A2AClientError(
        'NETWORK',
        `${what}: the connection to ${url} broke before the answer was complete (${detail})`,
        {
          cause: err,
        },
      );
    }
    return new A2AClientError(
      'NETWORK',
      `${what}: could not reach ${url} (${detail})${reachHint(cause?.code)}`,
      { cause: err },
    );
  }
  return err;
}

/**
 * fetch (undici) reports network trouble as a TypeError ("fetch failed", "terminated") with the
 * socket error as its cause; any other TypeError is a bug and must not pass for a network error.
 */
export function isFetchFailure(err: unknown): err is TypeError {
  if (!(err instanceof TypeError)) return false;
  const cause = (err as { cause?: unknown }).cause;
  return (
    err.message === 'fetch failed' ||
    err.message === 'terminated' ||
    (typeof cause === 'object' && cause !== null && 'code' in cause)
  );
}

/** Reads a response body as text, failing early (and cancelling the download) past `maxBytes`. */
export async function readText(res: Response, maxBytes: number, what: string): Promise<string> {
  const text = await readBoundedText(res.body, maxBytes, res.headers.get('content-length'));
  if (text === undefined) throw tooLarge(what, maxBytes);
  return text;
}

function tooLarge(what: string, maxBytes: number): A2AClientError {
  return new A2AClientError(
    'RESPONSE_TOO_LARGE',
    `${what}: response body exceeds the limit of ${maxBytes} bytes (raise maxResponseBytes if this is expected)`,
  );
}

/** Parses JSON, or says clearly that the body was not JSON and what it looked like. */
export function parseJson(text: string, what: string, status?: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    throw new A2AClientError(
      'BAD_RESPONSE',
      `${what}: response is not JSON${preview ? `: ${JSON.stringify(preview)}` : ' (empty body)'}`,
      status !== undefined ? { status } : {},
    );
  }
}

/** Builds the error for an availability status (429/502/503/504), keeping Retry-After. */
export function unavailable(res: Response, what: string, url: string): A2AClientError {
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  return new A2AClientError(
    'UNAVAILABLE',
    `${what}: ${url} answered HTTP ${res.status} ${res.statusText}`.trim(),
    {
      status: res.status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
  );
}

/** Statuses that mean "the agent (or a gateway before it) is momentarily unable to answer". */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * One HTTP exchange of a transport: network failures become client errors, and 429/502/503/504
 * become retryable "unavailable" errors (the body is discarded) so the retry policy can act on them.
 */
export async function exchange(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit,
  what: string,
  timeoutMs?: number,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetchFn(url, init);
  } catch (err) {
    throw toClientError(err, what, url, timeoutMs);
  }
  if (UNAVAILABLE_STATUSES.has(res.status)) {
    await res.body?.cancel().catch(() => undefined);
    throw unavailable(res, what, url);
  }
  return res;
}
