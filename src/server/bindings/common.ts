/** What both HTTP bindings share: options, authentication, the call context of a request. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, HEADER_EXTENSIONS, isA2AError } from '../../protocol/index.js';
import { callContext, type Caller, type CallContext } from '../caller.js';
import type { Logger } from '../logger.js';
import { requestedExtensions, requestedVersionParam } from './http-util.js';
import type { SseOptions } from './sse.js';

/**
 * Establishes who is calling. Return undefined for an anonymous caller; throw
 * `new A2AError('Unauthenticated', …)` for missing or bad credentials when they are required.
 */
export type Authenticator = (req: IncomingMessage) => Caller | undefined | Promise<Caller | undefined>;

export interface BindingOptions {
  /** Largest accepted request body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  sse?: SseOptions;
  authenticate?: Authenticator;
  /** `WWW-Authenticate` challenge sent with 401 answers. Default `Bearer`. */
  challenge?: string;
  logger?: Logger;
}

/** Build the call context: authenticate, read service parameters, tie the signal to the connection. */
export async function contextOf(
  req: IncomingMessage,
  res: ServerResponse,
  opts: BindingOptions,
  query?: URLSearchParams,
): Promise<CallContext> {
  const caller = opts.authenticate ? await opts.authenticate(req) : undefined;
  const version = requestedVersionParam(req, query);
  const cc = callContext({
    ...(caller ? { caller } : {}),
    ...(version !== undefined ? { version } : {}),
    requestedExtensions: requestedExtensions(req),
  });
  // The signal is made on first use: building and aborting one per request was ~13 % of a SendMessage.
  let ac: AbortController | undefined;
  Object.defineProperty(cc, 'signal', {
    enumerable: true,
    get(): AbortSignal {
      if (!ac) {
        ac = new AbortController();
        if (res.closed) ac.abort();
        else res.once('close', () => void (res.writableFinished || ac!.abort()));
      }
      return ac.signal;
    },
  });
  return cc;
}

/** Headers every A2A answer carries: activated extensions echoed back (§3.2.6). */
export function answerHeaders(cc: CallContext | undefined, contentType: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': contentType };
  if (cc && cc.activatedExtensions.size > 0) h[HEADER_EXTENSIONS.toLowerCase()] = [...cc.activatedExtensions].join(',');
  return h;
}

/** Any thrown value as an A2AError; unknown failures are logged and hidden behind Internal. */
export function asA2AError(err: unknown, logger: Logger | undefined): A2AError {
  if (isA2AError(err)) return err;
  logger?.error({ err }, 'unexpected failure while handling a request');
  return new A2AError('Internal');
}
