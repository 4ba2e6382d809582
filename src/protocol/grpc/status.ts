/**
 * gRPC status codes and the `google.rpc.Status` carried in `grpc-status-details-bin` (§10.6):
 * its details are `Any` messages, given and returned in ProtoJSON form (`{"@type": …, …}`), the
 * same detail objects the JSON bindings send.
 */
import {
  A2AError,
  ERRORS,
  ERROR_INFO_TYPE,
  KIND_BY_REASON,
  type A2AErrorKind,
  type ErrorDetail,
  type ErrorInfoDetail,
} from '../errors.js';
import { decodeMessage, encodeMessage, isKnownMessage } from './codec.js';

/** gRPC status codes by name (google.rpc.Code). */
export const GRPC_CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** A gRPC status code name. */
export type GrpcCodeName = keyof typeof GRPC_CODES;

const NAMES = Object.fromEntries(Object.entries(GRPC_CODES).map(([k, v]) => [v, k])) as Record<
  number,
  GrpcCodeName
>;

/** The name of a numeric gRPC status code (`UNKNOWN` for codes outside the table). */
export function grpcCodeName(code: number): GrpcCodeName {
  return NAMES[code] ?? 'UNKNOWN';
}

/** `grpc-message` is percent-encoded: every byte outside printable ASCII, and `%` itself. */
export function encodeGrpcMessage(text: string): string {
  if (!/[^\x20-\x24\x26-\x7e]/.test(text)) return text;
  return text
    .replace(/\p{Cs}/gu, '\uFFFD')
    .replace(/[^\x20-\x24\x26-\x7e]+/gu, (s) => encodeURIComponent(s));
}

/** The text of a `grpc-message` (percent-encoded on the wire); one that is not valid percent-encoding is kept as it came. */
export function grpcMessageText(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return '';
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Metadata key of the binary google.rpc.Status. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** google.rpc.Status in ProtoJSON form. */
export interface RpcStatus {
  code: number;
  message: string;
  details: ErrorDetail[];
}

const TYPE_PREFIX = 'type.googleapis.com/';

/** The message name an `Any` type URL names (the part after the last `/`). */
function messageOfType(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
}

/** Encode a status; details of a type we do not know are passed on only if they carry raw `value` bytes. */
export function encodeStatus(status: RpcStatus): Uint8Array {
  const details: Array<{ typeUrl: string; value: Uint8Array | string }> = [];
  for (const d of status.details) {
    const { '@type': typeUrl, ...fields } = d as { '@type': string } & Record<string, unknown>;
    const name = messageOfType(typeUrl);
    if (isKnownMessage(name) && name.startsWith('google.rpc.'))
      details.push({ typeUrl, value: encodeMessage(name, fields) });
    else if (typeof fields['value'] === 'string') details.push({ typeUrl, value: fields['value'] });
  }
  return encodeMessage('google.rpc.Status', {
    code: status.code,
    message: status.message,
    details,
  });
}

/** Decode a status; details of an unknown type keep their bytes as base64 `value`. */
export function decodeStatus(bytes: Uint8Array): RpcStatus {
  const raw = decodeMessage('google.rpc.Status', bytes) as {
    code?: number;
    message?: string;
    details?: Array<{ typeUrl?: string; value?: string }>;
  };
  const details: ErrorDetail[] = [];
  for (const any of raw.details ?? []) {
    const typeUrl = any.typeUrl ?? '';
    const name = messageOfType(typeUrl);
    if (isKnownMessage(name) && name.startsWith('google.rpc.')) {
      try {
        details.push({
          '@type': typeUrl,
          ...decodeMessage(name, Buffer.from(any.value ?? '', 'base64')),
        });
        continue;
      } catch {
        // An unreadable detail is kept as bytes rather than failing the whole error.
      }
    }
    details.push({ '@type': typeUrl, value: any.value ?? '' });
  }
  return { code: raw.code ?? 0, message: raw.message ?? '', details };
}

/** `type.googleapis.com/` + a message name: the type URL of a detail. */
export function typeUrlOf(messageName: string): string {
  return TYPE_PREFIX + messageName;
}

/** The kind a status without a recognisable ErrorInfo most likely means. */
const BY_CODE: Partial<Record<number, A2AErrorKind>> = {
  [GRPC_CODES.NOT_FOUND]: 'TaskNotFound',
  [GRPC_CODES.INVALID_ARGUMENT]: 'InvalidParams',
  [GRPC_CODES.OUT_OF_RANGE]: 'InvalidParams',
  [GRPC_CODES.RESOURCE_EXHAUSTED]: 'InvalidRequest',
  [GRPC_CODES.FAILED_PRECONDITION]: 'UnsupportedOperation',
  [GRPC_CODES.UNIMPLEMENTED]: 'MethodNotFound',
  [GRPC_CODES.UNAUTHENTICATED]: 'Unauthenticated',
  [GRPC_CODES.PERMISSION_DENIED]: 'PermissionDenied',
  [GRPC_CODES.UNAVAILABLE]: 'Unavailable',
};

/**
 * Rebuild a typed error from a gRPC status: the kind from the ErrorInfo reason (§10.6), else from
 * the status code. Every detail is kept, in ProtoJSON form.
 */
export function a2aErrorOfStatus(code: number, message: string, details: ErrorDetail[]): A2AError {
  const info = details.find(
    (d): d is ErrorInfoDetail =>
      d['@type'] === ERROR_INFO_TYPE && typeof (d as ErrorInfoDetail).reason === 'string',
  );
  const kind = (info && KIND_BY_REASON.get(info.reason)) ?? BY_CODE[code] ?? 'Internal';
  return new A2AError(kind, message || ERRORS[kind].message, details);
}
