/**
 * Errors as gRPC statuses (§10.6, §5.4): the code from the error catalogue, the message as the
 * status message, and a google.rpc.Status with the same details the JSON bindings send (ErrorInfo
 * with reason and domain, BadRequest field violations) in `grpc-status-details-bin`.
 */
import type { StatusObject } from '@grpc/grpc-js';
import { Metadata } from './grpc.js';
import {
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  type A2AError,
  type ErrorDetail,
} from '../../protocol/index.js';
import {
  GRPC_CODES,
  GRPC_EXTENSIONS_KEY,
  STATUS_DETAILS_KEY,
  encodeStatus,
} from '../../protocol/grpc/index.js';
import type { GrpcCallContext } from './context.js';

/** Metadata echoing the extensions the agent activated (§3.2.6), or undefined when there are none. */
export function extensionMetadata(cc: GrpcCallContext | undefined): Metadata | undefined {
  const activated = cc?.activated;
  if (!activated || activated.size === 0) return undefined;
  const md = new Metadata();
  md.set(GRPC_EXTENSIONS_KEY, [...activated].join(','));
  return md;
}

/**
 * The status for `err`. Every status carries an ErrorInfo — the A2A domain for the spec's errors,
 * our own for the rest, as on HTTP+JSON — because one code stands for several kinds (INVALID_ARGUMENT
 * is a bad parameter, an unparseable request or an unaccepted media type). Unauthenticated answers
 * carry the challenge as `www-authenticate` metadata, as the HTTP bindings send it as a header
 * (§3.3.2: say which scheme is required).
 */
export function statusOf(
  err: A2AError,
  cc: GrpcCallContext | undefined,
  challenge: string | undefined,
): Partial<StatusObject> {
  const code = GRPC_CODES[err.spec.grpcStatus as keyof typeof GRPC_CODES] ?? GRPC_CODES.UNKNOWN;
  const metadata = extensionMetadata(cc) ?? new Metadata();
  let details: ErrorDetail[] = err.wireDetails();
  if (!details.some((d) => d['@type'] === ERROR_INFO_TYPE)) {
    details = [
      { '@type': ERROR_INFO_TYPE, reason: err.spec.reason, domain: KIT_ERROR_DOMAIN },
      ...details,
    ];
  }
  metadata.set(
    STATUS_DETAILS_KEY,
    Buffer.from(encodeStatus({ code, message: err.message, details })),
  );
  if (err.kind === 'Unauthenticated') metadata.set('www-authenticate', challenge ?? 'Bearer');
  return { code, details: err.message, metadata };
}
