/**
 * What every 0.3 request shares on its way to the dispatcher: why it was read as 0.3, and the call
 * context (the 0.3 extensions header, the version the dispatcher sees).
 */
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import { contextOf, type BindingOptions } from '../bindings/common.js';
import type { HttpExchange } from '../bindings/exchange.js';
import { requestedExtensions } from '../bindings/http-util.js';

/** 0.3's name of the extensions header; its 1.0 name is read too. */
export const V03_EXTENSIONS_HEADER = 'x-a2a-extensions';

/** Why a request is handled as 0.3, for error messages. */
export function whyV03(sent: string | undefined): string {
  return sent === undefined || sent.trim() === ''
    ? 'because it has no A2A-Version header, §3.6.2'
    : `because it says A2A-Version ${sent.slice(0, 20)}`;
}

/**
 * The call context of a 0.3 request. The dispatcher sees version 1.0: by the time the request
 * reaches it, it has been translated, and the agent behind it never sees a version.
 */
export function contextOfV03(
  ex: HttpExchange,
  opts: BindingOptions,
  query: URLSearchParams | undefined,
): CallContext | Promise<CallContext> {
  const extensions = requestedExtensions(
    ex.header(V03_EXTENSIONS_HEADER) ?? ex.header('a2a-extensions'),
  );
  return contextOf(ex, opts, query, undefined, PROTOCOL_VERSION, extensions);
}
