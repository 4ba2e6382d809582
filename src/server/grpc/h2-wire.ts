/**
 * The gRPC-over-HTTP/2 wire as the server sees it: length-prefixed messages (a compressed flag and a
 * big-endian uint32 length before each protobuf message), `grpc-timeout` deadlines, the
 * percent-encoded `grpc-message`, and an error as status headers. Pure functions, no grpc-js.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  A2AError,
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  type ErrorDetail,
} from '../../protocol/index.js';
import {
  GRPC_CODES,
  STATUS_DETAILS_KEY,
  encodeGrpcMessage,
  encodeStatus,
} from '../../protocol/grpc/index.js';

/** Bytes before every message: the compressed flag, then the length. */
export const PREFIX_BYTES = 5;

/** The one request message of a unary or server-streaming call (`compressed`: gzip bytes still to inflate), or why there is none. */
export type RequestMessage =
  | { ok: true; bytes: Buffer; compressed?: boolean }
  | {
      ok: false;
      code: number;
      message: string;
      oversize?: { length: number | undefined; limit: number };
    };

/**
 * Read the single request message from the whole request body. A body that is not exactly one
 * message is a broken client (INTERNAL, or UNIMPLEMENTED for a second message, as grpc-js answers);
 * a set compressed flag without a negotiated encoding (`gzip`: the call said grpc-encoding gzip) is
 * INTERNAL (the gRPC spec's rule).
 */
export function requestMessage(body: Buffer, max: number, gzip = false): RequestMessage {
  if (body.length < PREFIX_BYTES) {
    return {
      ok: false,
      code: GRPC_CODES.INTERNAL,
      message:
        body.length === 0
          ? 'The request carries no message'
          : 'The request ends inside a message prefix',
    };
  }
  const flag = body[0]!;
  const length = body.readUInt32BE(1);
  if (length > max) return oversize(length, max);
  if (flag > 1 || (flag === 1 && !gzip)) {
    return {
      ok: false,
      code: GRPC_CODES.INTERNAL,
      message:
        'The request message is marked compressed, but no grpc-encoding was negotiated (send grpc-encoding: gzip with it)',
    };
  }
  const end = PREFIX_BYTES + length;
  if (body.length < end)
    return { ok: false, code: GRPC_CODES.INTERNAL, message: 'The request ends inside a message' };
  if (body.length > end)
    return {
      ok: false,
      code: GRPC_CODES.UNIMPLEMENTED,
      message: 'A second request message for a method that takes one',
    };
  const bytes = body.subarray(PREFIX_BYTES, end);
  return flag === 1 ? { ok: true, bytes, compressed: true } : { ok: true, bytes };
}

const gunzipAsync = promisify(gunzip);

/**
 * A gzip-compressed request message, inflated off the event loop and never past `max` bytes: the
 * limit is on the message, not on what travelled, so a small bomb is refused like a large message.
 */
export async function inflated(bytes: Buffer, max: number): Promise<RequestMessage> {
  try {
    return { ok: true, bytes: await gunzipAsync(bytes, { maxOutputLength: max }) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return {
        ok: false,
        code: GRPC_CODES.RESOURCE_EXHAUSTED,
        message: `The request message inflates to more than the limit of ${max} bytes`,
        oversize: { length: undefined, limit: max },
      };
    }
    return {
      ok: false,
      code: GRPC_CODES.INTERNAL,
      message: `The request message is marked gzip-compressed but does not inflate: ${(err as Error).message}`,
    };
  }
}

/** The refusal of a message over the limit; `length` is what its prefix announced. */
export function oversize(length: number, max: number): RequestMessage {
  return {
    ok: false,
    code: GRPC_CODES.RESOURCE_EXHAUSTED,
    message: `The request message is ${length} bytes, over the limit of ${max} bytes`,
    oversize: { length, limit: max },
  };
}

const UNIT_MS: Record<string, number> = {
  H: 3_600_000,
  M: 60_000,
  S: 1000,
  m: 1,
  u: 1e-3,
  n: 1e-6,
};

/** Milliseconds of a `grpc-timeout` value (up to 8 digits and a unit), or undefined if there is none or it is unreadable. */
export function timeoutMs(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (!m) return undefined;
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/**
 * Most characters of `grpc-message` and of `grpc-status-details-bin`. A status is one HTTP/2 header
 * block, which nothing else on the connection may interleave with: a 242 KB one (a validation error
 * listing 1,000 violations) never completed and wedged every call on the connection (issue 28).
 */
const MAX_STATUS_TEXT = 8 * 1024;

/** The headers of a status: code, message, and the google.rpc.Status in `grpc-status-details-bin`. */
export function statusHeaders(
  code: number,
  message: string,
  details: ErrorDetail[],
): Record<string, string> {
  let encoded = encodeGrpcMessage(message);
  if (encoded.length > MAX_STATUS_TEXT) {
    // Cut before a percent escape, never inside one.
    const cut = encoded.lastIndexOf('%', MAX_STATUS_TEXT);
    encoded = encoded.slice(0, cut > MAX_STATUS_TEXT - 12 ? cut : MAX_STATUS_TEXT);
  }
  const headers: Record<string, string> = { 'grpc-status': String(code), 'grpc-message': encoded };
  if (details.length === 0) return headers;
  let bin = Buffer.from(encodeStatus({ code, message, details })).toString('base64');
  if (bin.length > 2 * MAX_STATUS_TEXT) {
    // Errors bound their own details; this is the last guard: the ErrorInfo alone still names the kind.
    const info = details.filter((d) => d['@type'] === ERROR_INFO_TYPE);
    bin = Buffer.from(encodeStatus({ code, message: '', details: info })).toString('base64');
  }
  headers[STATUS_DETAILS_KEY] = bin;
  return headers;
}

/**
 * The status headers of an A2A error (§10.6): the catalogue's code, the message, and the same details
 * the JSON bindings send. Every status carries an ErrorInfo (our domain when the spec has none for the
 * kind), because one code stands for several kinds.
 */
export function errorHeaders(err: A2AError): Record<string, string> {
  const code = GRPC_CODES[err.spec.grpcStatus as keyof typeof GRPC_CODES] ?? GRPC_CODES.UNKNOWN;
  let details: ErrorDetail[] = err.wireDetails();
  if (!details.some((d) => d['@type'] === ERROR_INFO_TYPE)) {
    details = [
      { '@type': ERROR_INFO_TYPE, reason: err.spec.reason, domain: KIT_ERROR_DOMAIN },
      ...details,
    ];
  }
  return statusHeaders(code, err.message, details);
}

/**
 * The status of a request that broke the wire rules. Oversize requests are an invalid request with a
 * field violation naming the limit (RESOURCE_EXHAUSTED, as gRPC servers answer them).
 */
export function wireErrorHeaders(
  refused: Extract<RequestMessage, { ok: false }>,
): Record<string, string> {
  const info = { '@type': ERROR_INFO_TYPE, reason: 'INVALID_REQUEST', domain: KIT_ERROR_DOMAIN };
  if (refused.oversize === undefined) return statusHeaders(refused.code, refused.message, [info]);
  const { length, limit } = refused.oversize;
  const violation = {
    field: '(request)',
    description:
      length === undefined
        ? `inflates to more than the limit of ${limit} bytes`
        : `is ${length} bytes, over the limit of ${limit} bytes`,
  };
  return statusHeaders(refused.code, refused.message, [
    info,
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [violation] },
  ]);
}

/** A status that is not an A2A error (shutdown, a slow reader, a passed deadline): the code and message, with an ErrorInfo. */
export function plainStatusHeaders(
  code: number,
  message: string,
  reason: string,
): Record<string, string> {
  return statusHeaders(code, message, [
    { '@type': ERROR_INFO_TYPE, reason, domain: KIT_ERROR_DOMAIN },
  ]);
}
