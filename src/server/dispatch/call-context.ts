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
  /**
   * The `A2A-Version` service parameter as sent (may be empty); `'0.3'` for a call the 0.3
   * compatibility layer translated, whatever it sent (an absent header means 0.3, §3.6.2).
   */
  version?: string;
  /** Extension URIs from `A2A-Extensions`. */
  requestedExtensions: string[];
  /** Extension URIs the agent activated while handling the call (echoed in the response header). */
  activatedExtensions: Set<string>;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
  /** The binding the call came through (`JSONRPC`, `HTTP+JSON`, `GRPC`), for hooks and logs; unset outside a binding. */
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

/** Contexts of calls the 0.3 layer translated into 1.0 requests: the only ones admitted at version 0.3. */
const TRANSLATED_V03 = new WeakSet<CallContext>();

/**
 * Mark `cc` as a 0.3 call translated to 1.0 (the compat layer does, before it dispatches): it keeps
 * reporting version 0.3 to hooks and logs, and the dispatcher admits it. Not public: a context a
 * binding or an application builds cannot claim it.
 */
export function markTranslatedV03(cc: CallContext): CallContext {
  TRANSLATED_V03.add(cc);
  return cc;
}

/** Whether {@link markTranslatedV03} marked `cc`. */
export function isTranslatedV03(cc: CallContext): boolean {
  return TRANSLATED_V03.has(cc);
}
