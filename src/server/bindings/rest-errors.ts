/**
 * HTTP+JSON error answers (§11.6): a google.rpc.Status body whose `code` is the HTTP status, with the
 * catalogue's status name, and an ErrorInfo detail on every error — the A2A domain for the spec's
 * errors, our own domain for the rest, so a client can always tell a missing route from a missing task.
 */
import {
  A2A_MEDIA_TYPE,
  A2AError,
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  type ErrorDetail,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import { answerHeaders } from './common.js';
import type { HttpExchange } from './exchange.js';

/** The `{"error": …}` body of an error answered with `httpStatus`. */
export function statusBody(err: A2AError, httpStatus = err.spec.httpStatus) {
  let details: ErrorDetail[] = err.wireDetails();
  if (!details.some((d) => d['@type'] === ERROR_INFO_TYPE)) {
    details = [
      { '@type': ERROR_INFO_TYPE, reason: err.spec.reason, domain: KIT_ERROR_DOMAIN },
      ...details,
    ];
  }
  return {
    error: { code: httpStatus, status: err.spec.grpcStatus, message: err.message, details },
  };
}

/**
 * The JSON media type to answer with: `application/a2a+json` (§14.1) unless the client's Accept
 * names plain `application/json` and neither that nor a wildcard.
 */
export function jsonTypeFor(accept: string | undefined): string {
  if (!accept) return A2A_MEDIA_TYPE;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  if (types.includes(A2A_MEDIA_TYPE) || types.includes('*/*') || types.includes('application/*'))
    return A2A_MEDIA_TYPE;
  return types.includes('application/json') ? 'application/json' : A2A_MEDIA_TYPE;
}

export interface RestErrorOptions {
  cc?: CallContext | undefined;
  /** HTTP status when it is not the catalogue's (405, 413, 415). */
  httpStatus?: number;
  /** `WWW-Authenticate` value for 401 answers. */
  challenge?: string | undefined;
  headers?: Record<string, string>;
}

/** Answer with an error; once the answer has begun there is nothing left to do but drop it. */
export function sendRestError(ex: HttpExchange, err: A2AError, o: RestErrorOptions = {}): void {
  if (ex.answered) return ex.drop();
  const status = o.httpStatus ?? err.spec.httpStatus;
  const headers = { ...answerHeaders(o.cc, jsonTypeFor(ex.header('accept'))), ...o.headers };
  if (err.kind === 'Unauthenticated') headers['www-authenticate'] = o.challenge ?? 'Bearer';
  ex.reply(status, headers, JSON.stringify(statusBody(err, status)));
}
