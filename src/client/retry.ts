/**
 * Retries with exponential backoff and jitter. Only operations that cannot change anything on the
 * agent are retried by default: repeating a SendMessage could start the same work twice.
 */
import type { OperationName } from '../protocol/index.js';
import { isA2AClientError } from './errors.js';

/** How hard to try again after a network failure or a 429/502/503/504. */
export interface RetryPolicy {
  /** Extra attempts after the first one (0 disables retries). Default 2. */
  retries: number;
  /** Delay before the first retry; doubles each time. Default 200 ms. */
  baseDelayMs: number;
  /** Upper bound on one delay; a `Retry-After` longer than this ends the retries. Default 5000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  retries: 2,
  baseDelayMs: 200,
  maxDelayMs: 5000,
};

/** Operations that only read: safe to repeat (spec §3.3.1 calls the Get operations idempotent). */
export const SAFE_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'GetTask',
  'ListTasks',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'GetExtendedAgentCard',
]);

/** Worth another attempt: the request may never have reached the agent, or the agent asked us to come back. */
export function isRetryable(err: unknown): boolean {
  return isA2AClientError(err) && (err.code === 'NETWORK' || err.code === 'UNAVAILABLE');
}

/** Delay before retry number `attempt` (0-based): half fixed, half random, so clients do not stampede. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryHooks {
  signal?: AbortSignal | undefined;
  random?: () => number;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Runs `fn`, repeating it on retryable failures as the policy allows. */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= policy.retries || !isRetryable(err)) throw err;
      const asked = isA2AClientError(err) ? err.retryAfterMs : undefined;
      if (asked !== undefined && asked > policy.maxDelayMs) throw err;
      const delayMs = Math.max(asked ?? 0, backoffDelay(attempt, policy, hooks.random));
      hooks.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      await sleep(delayMs, hooks.signal);
    }
  }
}
