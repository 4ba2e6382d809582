/**
 * gRPC failures as the client's errors: a status the agent sent becomes an {@link A2AError} of the
 * kind its ErrorInfo names (§10.6); transport trouble (no connection, a passed deadline, a stream the
 * agent asked to be re-opened) becomes an {@link A2AClientError} that retries and resumption act on.
 */
import { Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import type { A2AError, ErrorDetail } from '../../protocol/index.js';
import { STATUS_DETAILS_KEY, a2aErrorOfStatus, decodeStatus } from '../../protocol/grpc/index.js';
import { A2AClientError } from '../errors.js';

/** Socket errors in grpc-js's UNAVAILABLE text that mean the request never reached a listener. */
const UNREACHED = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/;
/** UNAVAILABLE texts grpc-js writes itself when a connection fails or breaks (not sent by the agent). */
const CONNECTION = /No connection established|Connection dropped|connect E|ECONNRESET|socket hang up|Stream refused|Failed to connect|DNS resolution failed|getaddrinfo/i;

/** The details of `grpc-status-details-bin`, or none when it is absent or unreadable. */
function detailsOf(md: Metadata | undefined): { details: ErrorDetail[]; message: string | undefined } {
  const raw = md?.get(STATUS_DETAILS_KEY)[0];
  if (raw === undefined) return { details: [], message: undefined };
  try {
    const status = decodeStatus(typeof raw === 'string' ? Buffer.from(raw, 'binary') : raw);
    return { details: status.details, message: status.message || undefined };
  } catch {
    return { details: [], message: undefined };
  }
}

/** What a failed gRPC call means for the caller. `what` is the operation, `url` the interface. */
export function grpcFailure(err: ServiceError, what: string, url: string): A2AError | A2AClientError {
  const text = err.details ?? '';
  switch (err.code) {
    case Status.UNAVAILABLE: {
      if (CONNECTION.test(text)) {
        const code = UNREACHED.exec(text)?.[1];
        const hint = code === 'ECONNREFUSED' ? ' — is the agent running and is the URL right?' : '';
        return new A2AClientError('NETWORK', `${what}: could not reach ${url} over gRPC (${text})${hint}`, {
          cause: code ? Object.assign(new Error(text), { code }) : err,
        });
      }
      return new A2AClientError('UNAVAILABLE', `${what}: ${url} is unavailable: ${text}`, { cause: err });
    }
    case Status.DEADLINE_EXCEEDED:
      return new A2AClientError('TIMEOUT', `${what} to ${url} timed out (gRPC deadline exceeded)`, { cause: err });
    case Status.CANCELLED:
      return new A2AClientError('NETWORK', `${what}: the gRPC call to ${url} was cancelled (${text})`, { cause: err });
    case Status.RESOURCE_EXHAUSTED:
      if (/Received message larger than max/i.test(text)) {
        return new A2AClientError('RESPONSE_TOO_LARGE', `${what}: the answer from ${url} exceeds the size limit (${text}); raise maxResponseBytes if this is expected`);
      }
      break;
    default:
      break;
  }
  const { details, message } = detailsOf(err.metadata);
  return a2aErrorOfStatus(err.code, text || message || '', details);
}

/** True for errors grpc-js raises (they carry a numeric `code` and a `details` text). */
export function isServiceError(e: unknown): e is ServiceError {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number' && 'details' in e;
}
