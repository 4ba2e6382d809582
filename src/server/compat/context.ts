/**
 * What every 0.3 request shares on its way to the dispatcher: why it was read as 0.3, and the call
 * context (the 0.3 extensions header, the version the dispatcher sees).
 */
import { V03 } from '../../protocol/v03/index.js';
import { markTranslatedV03, type CallContext } from '../dispatch/call-context.js';
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
 * The call context of a 0.3 request over `binding`: version `0.3` and the binding, as hooks, traces
 * and logs should report them, marked so that the dispatcher admits it at that version (the request
 * has been translated to 1.0 by then, and the agent behind it never sees a version).
 */
export function contextOfV03(
  ex: HttpExchange,
  opts: BindingOptions,
  query: URLSearchParams | undefined,
  binding: string,
): CallContext | Promise<CallContext> {
  const extensions = requestedExtensions(
    ex.header(V03_EXTENSIONS_HEADER) ?? ex.header('a2a-extensions'),
  );
  const cc = contextOf(ex, opts, query, binding, V03, extensions);
  return cc instanceof Promise ? cc.then(markTranslatedV03) : markTranslatedV03(cc);
}
