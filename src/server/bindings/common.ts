/** What both HTTP bindings share: options, authentication, the call context of a request. */
import { A2AError, PROTOCOL_VERSION } from '../../protocol/index.js';
import { v03Traits } from '../../protocol/v03/detect.js';
import type { Caller, CallContext } from '../dispatch/call-context.js';
import type { Logger } from '../logger.js';
import { withCaller, type Authenticator } from '../kernel/request.js';
import type { HttpExchange } from './exchange.js';
import { EXTENSIONS_HEADER, requestedExtensions, requestedVersionParam } from './http-util.js';
import type { SseOptions } from './sse.js';

/** How the HTTP bindings read requests and write answers: limits, streams, authentication, logging. */
export interface BindingOptions {
  /** Largest accepted request body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Deepest accepted nesting of a request body's JSON objects and arrays. Default 64. */
  maxJsonDepth?: number;
  /**
   * Bytes one stream subscriber (SSE, or gRPC when the server serves it) may leave unread before it
   * is dropped as a slow reader: its stream ends with an Unavailable error (reason SLOW_READER; gRPC
   * RESOURCE_EXHAUSTED), and its connection is destroyed if it still has not drained 10 s later.
   * One event always goes out, even one larger than this. Default 4 MiB; at least 1024.
   */
  maxStreamBufferBytes?: number;
  sse?: SseOptions;
  authenticate?: Authenticator;
  /** `WWW-Authenticate` challenge sent with 401 answers. Default `Bearer`. */
  challenge?: string;
  logger?: Logger;
}

/** The call context of one HTTP request; its abort signal and its activated extensions are made on first use. */
class HttpCallContext implements CallContext {
  caller?: Caller;
  version?: string;
  readonly #exchange: HttpExchange;
  #ac: AbortController | undefined;
  #activated: Set<string> | undefined;

  get activatedExtensions(): Set<string> {
    return (this.#activated ??= new Set());
  }

  /** The extensions activated so far, without making the set. */
  get activated(): ReadonlySet<string> | undefined {
    return this.#activated;
  }

  constructor(
    exchange: HttpExchange,
    readonly requestedExtensions: string[],
    readonly binding?: string,
  ) {
    this.#exchange = exchange;
  }

  header(name: string): string | undefined {
    return this.#exchange.header(name);
  }

  // Building and aborting a signal per request was ~13 % of a SendMessage; most agents never read it.
  get signal(): AbortSignal {
    if (!this.#ac) {
      const ac = (this.#ac = new AbortController());
      this.#exchange.onAbandoned(() => ac.abort());
    }
    return this.#ac.signal;
  }
}

/**
 * Build the call context: authenticate, read service parameters, tie the signal to the connection.
 * Synchronous unless the authenticator is not. A binding that has read the version already passes
 * it; the 0.3 layer passes `1.0` (the request it hands on is 1.0 by then) and the 0.3 extension list.
 */
export function contextOf(
  ex: HttpExchange,
  opts: BindingOptions,
  query?: URLSearchParams,
  binding?: string,
  version: string | undefined = requestedVersionParam(ex, query),
  extensions: string[] = requestedExtensions(ex.header(EXTENSIONS_HEADER)),
): CallContext | Promise<CallContext> {
  const cc = new HttpCallContext(ex, extensions, binding);
  if (version !== undefined) cc.version = version;
  if (EARLY.has(ex)) {
    const caller = EARLY.get(ex);
    if (caller) cc.caller = caller;
    return cc;
  }
  return withCaller(cc, opts.authenticate, () => ex.authRequest());
}

/** Callers established from the headers before the body was read, for {@link contextOf}. */
const EARLY = new WeakMap<HttpExchange, Caller | undefined>();

/**
 * Establish the caller from the headers alone, before the body is read (issue 28: a stranger's body
 * must not be buffered). Undefined when the request may go on (the caller is remembered for
 * {@link contextOf}); otherwise the reason to refuse it, e.g. `Unauthenticated`.
 */
export function authenticateEarly(
  ex: HttpExchange,
  opts: BindingOptions,
): unknown | Promise<unknown> {
  const authenticate = opts.authenticate;
  if (!authenticate) return undefined;
  const holder: { caller?: Caller } = {};
  try {
    const pending = withCaller(holder, authenticate, () => ex.authRequest());
    const remember = (): undefined => void EARLY.set(ex, holder.caller);
    return pending instanceof Promise ? pending.then(remember, (err: unknown) => err) : remember();
  } catch (err) {
    return err;
  }
}

/** Headers every A2A answer carries: activated extensions echoed back (§3.2.6; 0.3 names the header differently). */
export function answerHeaders(
  cc: CallContext | undefined,
  contentType: string,
  extensionsHeader = EXTENSIONS_HEADER,
): Record<string, string> {
  const h: Record<string, string> = { 'content-type': contentType };
  const activated = cc instanceof HttpCallContext ? cc.activated : cc?.activatedExtensions;
  if (activated && activated.size > 0) h[extensionsHeader] = [...activated].join(',');
  return h;
}

export { versionNotSupported } from '../../protocol/index.js';

/**
 * An InvalidParams error of a 1.0 request, told which 0.3 shapes the body carries when it carries
 * any: the usual cause of such a failure is a 0.3 client, or a mix of both versions. Error path only.
 */
export function withV03Hint(err: A2AError, params: unknown): A2AError {
  if (err.kind !== 'InvalidParams') return err;
  const traits = v03Traits(params);
  if (traits.length === 0) return err;
  const hint = `Read as A2A ${PROTOCOL_VERSION} (the version the request asked for), but it has A2A 0.3 shapes: ${traits.join('; ')}`;
  return new A2AError('InvalidParams', `${err.message}. ${hint}`, err.details);
}
