/**
 * A time limit as an abort signal, for client calls and server-side requests alike (no Node built-ins).
 *
 * Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 the combined signal holds its
 * sources weakly, and a timeout signal that nothing else references is garbage collected with its
 * timer, so the limit silently never fires once a collection runs (issue 28). Here the timer holds
 * the controller, so the limit fires whatever the collector does.
 */

/** A signal that aborts at a deadline or with its parent; `clear()` once the work is done. */
export interface Deadline {
  /** Aborted with the parent's reason, or with a `TimeoutError` DOMException when time is up. */
  readonly signal: AbortSignal;
  /** Stops the timer and lets go of the parent signal (a long-lived parent would otherwise keep us). */
  clear(): void;
}

/**
 * A signal that aborts when `parent` aborts or `ms` milliseconds have passed, whichever comes first.
 * The timer does not keep a Node process alive (like `AbortSignal.timeout`'s).
 */
export function deadline(parent: AbortSignal | undefined, ms: number, what = 'call'): Deadline {
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new DOMException(`${what} timed out after ${ms} ms`, 'TimeoutError')),
    ms,
  );
  (timer as { unref?: () => void }).unref?.();
  let onAbort: (() => void) | undefined;
  if (parent?.aborted) ctl.abort(parent.reason);
  else if (parent) {
    onAbort = () => ctl.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
  }
  ctl.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return {
    signal: ctl.signal,
    clear: () => {
      clearTimeout(timer);
      if (onAbort) parent!.removeEventListener('abort', onAbort);
    },
  };
}
