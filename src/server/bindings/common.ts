/** What both HTTP bindings share: options, authentication, the call context of a request. */
import type { IncomingMessage } from 'node:http';
import { A2AError, isA2AError } from '../../protocol/index.js';
import type { Caller, CallContext } from '../dispatch/call-context.js';
import type { Logger } from '../logger.js';
import type { HttpExchange } from './exchange.js';
import { EXTENSIONS_HEADER, requestedExtensions, requestedVersionParam } from './http-util.js';
import type { SseOptions } from './sse.js';

/**
 * Establishes who is calling. Return undefined for an anonymous caller; throw
 * `new A2AError('Unauthenticated', …)` for missing or bad credentials when they are required.
 * Behind the Web `fetch` adapter `req` carries only `method`, `url` and lower-case `headers`.
 */
export type Authenticator = (req: IncomingMessage) => Caller | undefined | Promise<Caller | undefined>;

/** How the HTTP bindings read requests and write answers: limits, streams, authentication, logging. */
export interface BindingOptions {
  /** Largest accepted request body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Deepest accepted nesting of a request body's JSON objects and arrays. Default 64. */
  maxJsonDepth?: number;
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
 * Synchronous unless the authenticator is not.
 */
export function contextOf(ex: HttpExchange, opts: BindingOptions, query?: URLSearchParams, binding?: string): CallContext | Promise<CallContext> {
  const cc = new HttpCallContext(ex, requestedExtensions(ex.header(EXTENSIONS_HEADER)), binding);
  const version = requestedVersionParam(ex, query);
  if (version !== undefined) cc.version = version;
  if (!opts.authenticate) return cc;
  const caller = opts.authenticate(ex.authRequest());
  if (caller && typeof (caller as Promise<Caller | undefined>).then === 'function') {
    return (caller as Promise<Caller | undefined>).then((c) => {
      if (c) cc.caller = c;
      return cc;
    });
  }
  if (caller) cc.caller = caller as Caller;
  return cc;
}

/** Headers every A2A answer carries: activated extensions echoed back (§3.2.6). */
export function answerHeaders(cc: CallContext | undefined, contentType: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': contentType };
  const activated = cc instanceof HttpCallContext ? cc.activated : cc?.activatedExtensions;
  if (activated && activated.size > 0) h[EXTENSIONS_HEADER] = [...activated].join(',');
  return h;
}

/** Any thrown value as an A2AError; unknown failures are logged and hidden behind Internal. */
export function asA2AError(err: unknown, logger: Logger | undefined): A2AError {
  if (isA2AError(err)) return err;
  logger?.error({ err }, 'unexpected failure while handling a request');
  return new A2AError('Internal');
}
