/**
 * gRPC statuses as the client's errors: a status the agent sent becomes an {@link A2AError} of the kind
 * its ErrorInfo names (§10.6); the statuses that speak of the call rather than the operation (the agent
 * is unavailable, the deadline passed, the call was cancelled) become an {@link A2AClientError} that
 * retries and resumption act on.
 */
import type { A2AError, ErrorDetail } from '../../protocol/index.js';
import {
  GRPC_CODES,
  STATUS_DETAILS_KEY,
  a2aErrorOfStatus,
  decodeStatus,
} from '../../protocol/grpc/index.js';
import { A2AClientError } from '../errors.js';
import type { GrpcStatus } from './call.js';

/** The details of `grpc-status-details-bin` (base64 text), or none when it is absent or unreadable. */
function detailsOf(raw: string | string[] | undefined): {
  details: ErrorDetail[];
  message: string | undefined;
} {
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (!text) return { details: [], message: undefined };
  try {
    const status = decodeStatus(Buffer.from(text, 'base64'));
    return { details: status.details, message: status.message || undefined };
  } catch {
    return { details: [], message: undefined };
  }
}

/** What a call that ended with a non-OK status means for the caller. `what` is the operation, `url` the interface. */
export function statusFailure(
  status: GrpcStatus,
  what: string,
  url: string,
): A2AError | A2AClientError {
  const { details, message } = detailsOf(status.metadata[STATUS_DETAILS_KEY]);
  const text = status.message || message || '';
  switch (status.code) {
    case GRPC_CODES.UNAVAILABLE:
      return new A2AClientError('UNAVAILABLE', `${what}: ${url} is unavailable: ${text}`, {
        cause: a2aErrorOfStatus(status.code, text, details),
      });
    case GRPC_CODES.DEADLINE_EXCEEDED:
      return new A2AClientError(
        'TIMEOUT',
        `${what} to ${url} timed out (the agent reported the gRPC deadline exceeded)`,
      );
    case GRPC_CODES.CANCELLED:
      return new A2AClientError(
        'NETWORK',
        `${what}: the agent at ${url} cancelled the gRPC call (${text})`,
      );
    default:
      return a2aErrorOfStatus(status.code, text, details);
  }
}
