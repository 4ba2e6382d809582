/**
 * The error catalogue: every A2A error (spec §3.3.2, §5.4) and the JSON-RPC standard ones (§9.5),
 * with their code in each binding. Bindings never invent codes: they look them up here.
 */

import { MAX_ERROR_MESSAGE, boundViolations, clampText, violationsText } from './bounds.js';

/** The kind of an error, binding-independent. */
export type A2AErrorKind =
  | 'TaskNotFound'
  | 'TaskNotCancelable'
  | 'PushNotificationNotSupported'
  | 'UnsupportedOperation'
  | 'ContentTypeNotSupported'
  | 'InvalidAgentResponse'
  | 'ExtendedAgentCardNotConfigured'
  | 'ExtensionSupportRequired'
  | 'VersionNotSupported'
  | 'ParseError'
  | 'InvalidRequest'
  | 'MethodNotFound'
  | 'InvalidParams'
  | 'Internal'
  | 'Unauthenticated'
  | 'PermissionDenied'
  | 'Unavailable';

export interface ErrorSpec {
  /** JSON-RPC `error.code`. */
  jsonRpcCode: number;
  /** HTTP status on the HTTP+JSON binding (and for HTTP-level failures on JSON-RPC). */
  httpStatus: number;
  /** google.rpc.Code name, used as `error.status` on HTTP+JSON and as the gRPC status. */
  grpcStatus: string;
  /** ErrorInfo `reason` (UPPER_SNAKE_CASE, no "Error" suffix). */
  reason: string;
  /** Default human-readable message. */
  message: string;
  /** True for the nine errors the A2A spec defines (they carry an ErrorInfo detail in domain a2a-protocol.org). */
  a2a: boolean;
}

const spec = (
  jsonRpcCode: number,
  httpStatus: number,
  grpcStatus: string,
  reason: string,
  message: string,
  a2a = true,
): ErrorSpec => ({ jsonRpcCode, httpStatus, grpcStatus, reason, message, a2a });

/** The one table every binding maps errors through. */
export const ERRORS: Readonly<Record<A2AErrorKind, ErrorSpec>> = {
  TaskNotFound: spec(-32001, 404, 'NOT_FOUND', 'TASK_NOT_FOUND', 'Task not found'),
  TaskNotCancelable: spec(
    -32002,
    400,
    'FAILED_PRECONDITION',
    'TASK_NOT_CANCELABLE',
    'Task cannot be canceled',
  ),
  PushNotificationNotSupported: spec(
    -32003,
    400,
    'FAILED_PRECONDITION',
    'PUSH_NOTIFICATION_NOT_SUPPORTED',
    'Push notifications are not supported',
  ),
  UnsupportedOperation: spec(
    -32004,
    400,
    'FAILED_PRECONDITION',
    'UNSUPPORTED_OPERATION',
    'This operation is not supported',
  ),
  ContentTypeNotSupported: spec(
    -32005,
    400,
    'INVALID_ARGUMENT',
    'CONTENT_TYPE_NOT_SUPPORTED',
    'Content type not supported',
  ),
  InvalidAgentResponse: spec(
    -32006,
    500,
    'INTERNAL',
    'INVALID_AGENT_RESPONSE',
    'Invalid agent response',
  ),
  ExtendedAgentCardNotConfigured: spec(
    -32007,
    400,
    'FAILED_PRECONDITION',
    'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    'Extended agent card is not configured',
  ),
  ExtensionSupportRequired: spec(
    -32008,
    400,
    'FAILED_PRECONDITION',
    'EXTENSION_SUPPORT_REQUIRED',
    'Extension support required',
  ),
  VersionNotSupported: spec(
    -32009,
    400,
    'FAILED_PRECONDITION',
    'VERSION_NOT_SUPPORTED',
    'Protocol version not supported',
  ),
  ParseError: spec(-32700, 400, 'INVALID_ARGUMENT', 'PARSE_ERROR', 'Invalid JSON payload', false),
  InvalidRequest: spec(
    -32600,
    400,
    'INVALID_ARGUMENT',
    'INVALID_REQUEST',
    'Request payload validation error',
    false,
  ),
  MethodNotFound: spec(-32601, 404, 'UNIMPLEMENTED', 'METHOD_NOT_FOUND', 'Method not found', false),
  InvalidParams: spec(
    -32602,
    400,
    'INVALID_ARGUMENT',
    'INVALID_PARAMS',
    'Invalid parameters',
    false,
  ),
  Internal: spec(-32603, 500, 'INTERNAL', 'INTERNAL', 'Internal error', false),
  // Not defined by A2A: authentication happens at the HTTP layer (§7.4). JSON-RPC has no standard code,
  // so we use one from the implementation-defined server range (-32000 … -32099 minus A2A's own).
  Unauthenticated: spec(
    -32010,
    401,
    'UNAUTHENTICATED',
    'UNAUTHENTICATED',
    'Authentication required',
    false,
  ),
  PermissionDenied: spec(
    -32011,
    403,
    'PERMISSION_DENIED',
    'PERMISSION_DENIED',
    'Permission denied',
    false,
  ),
  // Not defined by A2A either: a dependency of the agent (its database, its event bus) is down for now.
  // The request may succeed if retried later; nothing was changed by the failed attempt.
  Unavailable: spec(
    -32012,
    503,
    'UNAVAILABLE',
    'UNAVAILABLE',
    'Service temporarily unavailable',
    false,
  ),
};

/** The ErrorInfo `domain` of the errors the A2A specification defines. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
/** Domain of the ErrorInfo we attach to errors this implementation defines beyond the spec. */
export const KIT_ERROR_DOMAIN = 'a2a-kit';
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** A `google.rpc.ErrorInfo` detail: why (reason, UPPER_SNAKE_CASE) and in which domain. */
export interface ErrorInfoDetail {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: string;
  metadata?: Record<string, string>;
}
/** One bad field of a request: its path (`message.parts[0].text`) and what is wrong with it. */
export interface FieldViolation {
  field: string;
  description: string;
}
/** A `google.rpc.BadRequest` detail: every field that was wrong in the request. */
export interface BadRequestDetail {
  '@type': typeof BAD_REQUEST_TYPE;
  fieldViolations: FieldViolation[];
}
/** An error detail in ProtoJSON `Any` form: always has `@type`. */
export type ErrorDetail =
  ErrorInfoDetail | BadRequestDetail | ({ '@type': string } & Record<string, unknown>);

const byJsonRpcCode = new Map<number, A2AErrorKind>(
  (Object.keys(ERRORS) as A2AErrorKind[]).map((k) => [ERRORS[k].jsonRpcCode, k]),
);
/**
 * ErrorInfo reason of a stream the agent ended because its reader fell too far behind (more bytes
 * waiting to be sent than the server's bound): kind `Unavailable` on every binding, gRPC
 * RESOURCE_EXHAUSTED. Subscribing again continues from the task's current state.
 */
export const SLOW_READER_REASON = 'SLOW_READER';

/** The kind of every ErrorInfo reason we send: the catalogue's, and the few that refine one. */
export const KIND_BY_REASON: ReadonlyMap<string, A2AErrorKind> = new Map<string, A2AErrorKind>([
  ...(Object.keys(ERRORS) as A2AErrorKind[]).map((k): [string, A2AErrorKind] => [
    ERRORS[k].reason,
    k,
  ]),
  [SLOW_READER_REASON, 'Unavailable'],
]);
const byReason = KIND_BY_REASON;

/**
 * An error with a kind from the catalogue. Thrown by the service, mapped by each binding,
 * and rebuilt by the client from whatever the wire carried.
 */
export class A2AError extends Error {
  override readonly name = 'A2AError';
  readonly kind: A2AErrorKind;
  readonly details: ErrorDetail[];

  constructor(
    kind: A2AErrorKind,
    message?: string,
    details: ErrorDetail[] = [],
    options?: { cause?: unknown },
  ) {
    // Clamped: a message may quote a peer's text, and it travels in every binding's answer.
    super(clampText(message ?? ERRORS[kind].message, MAX_ERROR_MESSAGE), options);
    this.kind = kind;
    this.details = details;
  }

  get spec(): ErrorSpec {
    return ERRORS[this.kind];
  }

  /** Details as sent on the wire: an ErrorInfo first (for every A2A error), then the rest. */
  wireDetails(): ErrorDetail[] {
    const s = ERRORS[this.kind];
    if (this.details.some((d) => d['@type'] === ERROR_INFO_TYPE)) return this.details;
    if (!s.a2a && this.kind !== 'Unauthenticated' && this.kind !== 'PermissionDenied')
      return this.details;
    const info: ErrorInfoDetail = {
      '@type': ERROR_INFO_TYPE,
      reason: s.reason,
      domain: s.a2a ? A2A_ERROR_DOMAIN : KIT_ERROR_DOMAIN,
    };
    return [info, ...this.details];
  }

  /** The TaskNotFound error for `taskId`, with its ErrorInfo. */
  static taskNotFound(taskId: string): A2AError {
    return new A2AError('TaskNotFound', `Task not found: ${taskId}`, [
      {
        '@type': ERROR_INFO_TYPE,
        reason: 'TASK_NOT_FOUND',
        domain: A2A_ERROR_DOMAIN,
        metadata: { taskId },
      },
    ]);
  }

  /**
   * A validation failure naming the offending fields (google.rpc.BadRequest): the first 20 of them,
   * each clamped, with the rest (and `omitted` ones a reader stopped collecting) counted in the message.
   */
  static invalidParams(violations: FieldViolation[], message?: string, omitted = 0): A2AError {
    const { listed, more } = boundViolations(violations, omitted);
    const text = message ?? `Invalid parameters: ${violationsText(listed, more)}`;
    return new A2AError('InvalidParams', text, [
      { '@type': BAD_REQUEST_TYPE, fieldViolations: listed },
    ]);
  }

  /** Rebuild a typed error from a JSON-RPC error object. */
  static fromJsonRpc(error: { code: number; message?: string; data?: unknown }): A2AError {
    const kind = byJsonRpcCode.get(error.code) ?? 'Internal';
    return new A2AError(kind, error.message, asDetails(error.data));
  }

  /** Rebuild a typed error from an HTTP+JSON google.rpc.Status body and HTTP status. */
  static fromHttp(httpStatus: number, body: unknown): A2AError {
    const err = (body as { error?: { message?: string; details?: unknown } } | undefined)?.error;
    const details = asDetails(err?.details);
    const info = details.find((d) => d['@type'] === ERROR_INFO_TYPE) as ErrorInfoDetail | undefined;
    const kind =
      (info && byReason.get(info.reason)) ??
      (httpStatus === 404
        ? 'TaskNotFound'
        : httpStatus === 401
          ? 'Unauthenticated'
          : httpStatus === 403
            ? 'PermissionDenied'
            : httpStatus === 503
              ? 'Unavailable'
              : httpStatus >= 500
                ? 'Internal'
                : 'InvalidParams');
    return new A2AError(kind, err?.message ?? `HTTP ${httpStatus}`, details);
  }
}

function asDetails(data: unknown): ErrorDetail[] {
  if (!Array.isArray(data)) return [];
  return data.filter(
    (d): d is ErrorDetail => typeof d === 'object' && d !== null && typeof d['@type'] === 'string',
  );
}

/** True when `e` is an A2AError (also across module copies). */
export function isA2AError(e: unknown): e is A2AError {
  return (
    e instanceof A2AError ||
    (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'A2AError')
  );
}
