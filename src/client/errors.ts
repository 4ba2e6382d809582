/**
 * Failures that happen on the client's side of the wire: the agent could not be reached, its card
 * or response was unusable, no interface fits, a limit was hit. Errors the agent itself reports
 * arrive as {@link A2AError} instead, with the same kind the server sent.
 */

/** What went wrong, as a stable code a program can branch on. */
export type ClientErrorCode =
  /** The card could not be fetched (network failure, non-2xx status). */
  | 'CARD_FETCH_FAILED'
  /** The card was fetched but is not a usable A2A 1.0 agent card. */
  | 'CARD_INVALID'
  /** The card's signature did not verify. */
  | 'CARD_SIGNATURE_INVALID'
  /** No `supportedInterfaces` entry matches a binding and version this client speaks. */
  | 'NO_COMPATIBLE_INTERFACE'
  /** The agent could not be reached or the connection broke. */
  | 'NETWORK'
  /** The agent answered with a gateway/availability status (429, 502, 503, 504). */
  | 'UNAVAILABLE'
  /** The call did not finish within its timeout. */
  | 'TIMEOUT'
  /** A response body or a single stream event exceeded the configured size limit. */
  | 'RESPONSE_TOO_LARGE'
  /** The agent answered with something that is not a valid response for the binding. */
  | 'BAD_RESPONSE'
  /** An argument given to the client is unusable (e.g. a base URL that does not parse). */
  | 'INVALID_ARGUMENT';

/**
 * A client-side failure. `message` says what happened and, where possible, what to do about it;
 * `code` is what a program branches on. Errors the agent itself reports are `A2AError`s instead.
 */
export class A2AClientError extends Error {
  override readonly name = 'A2AClientError';
  /** What went wrong; see {@link ClientErrorCode}. */
  readonly code: ClientErrorCode;
  /** HTTP status of the response that caused the failure, when there was one. */
  readonly status: number | undefined;
  /** Delay the server asked for through `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  /** `cause` keeps the underlying failure (e.g. fetch's), `status` and `retryAfterMs` the HTTP facts. */
  constructor(
    code: ClientErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True when `e` is an {@link A2AClientError} (also across module copies). */
export function isA2AClientError(e: unknown): e is A2AClientError {
  return (
    e instanceof A2AClientError ||
    (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'A2AClientError')
  );
}

/** True when the caller's own signal aborted (as opposed to our timeout). */
export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}

/** Socket-level codes meaning the request never left this machine or never reached a listener. */
const UNREACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The first string `code` along `err` and its causes that `accept` takes (socket errors sit under wrapper errors). */
export function causeCode(
  err: unknown,
  accept: (code: string) => boolean = () => true,
): string | undefined {
  let c: unknown = err;
  for (let depth = 0; depth < 4 && typeof c === 'object' && c !== null; depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && accept(code)) return code;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The socket code along `err`'s causes that means the request never reached a listener, if any. */
export function unreachedCode(err: unknown): string | undefined {
  return causeCode(err, (code) => UNREACHED.has(code));
}

/** What a "could not reach" message adds for a socket code: the likely fix when nothing listens. */
export function reachHint(code: string | undefined): string {
  return code === 'ECONNREFUSED' ? ' — is the agent running and is the URL right?' : '';
}

/**
 * True when the agent certainly did not receive the request: the connection could not be made,
 * or the URL answered that nothing A2A lives there. Only then is sending a state-changing
 * operation (SendMessage, CancelTask) again certain not to do the work twice; the client's own
 * interface fallback relies on the same test.
 */
export function neverReachedAgent(err: unknown): boolean {
  if (!isA2AClientError(err)) return false;
  if (err.code === 'BAD_RESPONSE') return err.status === 404 || err.status === 405;
  return err.code === 'NETWORK' && unreachedCode(err.cause) !== undefined;
}
