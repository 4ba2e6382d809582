/** When a push delivery is retried, and after how long. Pure functions, no I/O. */

/** Retry tuning. Defaults in `DEFAULT_RETRY`. */
export interface RetryOptions {
  /** Attempts per event, the first included. */
  maxAttempts: number;
  /** Backoff ceiling before the first retry; doubled for each later one. */
  baseDelayMs: number;
  /** Upper bound of any computed backoff. */
  maxDelayMs: number;
  /** Upper bound applied to a server's Retry-After. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** 408 and 429 mean "later"; every 5xx may be transient. Other statuses will not change by retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Wait before retry number `retry` (1 = the first retry). Exponential backoff with full jitter
 * (uniform in [0, min(maxDelay, base·2^(retry-1))]) so many senders do not retry in lockstep; a server's
 * Retry-After replaces it, capped at maxRetryAfterMs.
 */
export function retryDelay(
  retry: number,
  opts: RetryOptions,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, opts.maxRetryAfterMs);
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
