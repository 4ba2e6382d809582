/** Who is calling, and the per-call service parameters every operation sees. */

/** The authenticated identity behind a request; `undefined` for anonymous callers. */
export interface Caller {
  /** Stable identity: tasks are owned by it and invisible to other callers (§13.1). */
  id: string;
  /** Name of the security scheme that authenticated the caller. */
  scheme?: string;
  /** Whatever the authenticator learned (token claims, key name…). */
  claims?: Record<string, unknown>;
}

/** Binding-independent context of one call. */
export interface CallContext {
  caller?: Caller;
  /** The `A2A-Version` service parameter as sent (may be empty). */
  version?: string;
  /** Extension URIs from `A2A-Extensions`. */
  requestedExtensions: string[];
  /** Extension URIs the agent activated while handling the call (echoed in the response header). */
  activatedExtensions: Set<string>;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /** The binding the call came through (`JSONRPC`, `HTTP+JSON`), for hooks and logs; unset outside a binding. */
  binding?: string;
  /**
   * A request header (HTTP) or text metadata value (gRPC) by lower-case name, e.g. `traceparent`; set by
   * the built-in bindings. For tracing and similar concerns that read what the binding does not.
   */
  header?(name: string): string | undefined;
}

/** A fresh call context (tests and custom bindings). */
export function callContext(
  init: Partial<Omit<CallContext, 'activatedExtensions'>> = {},
): CallContext {
  return { requestedExtensions: [], ...init, activatedExtensions: new Set() };
}
