/**
 * Allocation-free pre-checks for the requests that dominate traffic. Zod stays the single source of
 * truth for errors; these checks only answer "zod would accept this and hand back an equal value",
 * so the service can skip zod (and its per-object copies) for the common case.
 *
 * Every check is deliberately conservative: any doubt (an unknown member, a null, an undefined
 * value, a prototype other than the one JSON.parse gives, a rarely used member) means "ask zod".
 * The fuzz test in test/fast-check.test.ts holds them to that contract against schemas.ts.
 * Inputs are assumed to be JSON.parse output: symbol keys and accessors are not looked for.
 */
import type { OperationName } from './operations.js';
import type { Message } from './task.js';
import type {
  CancelTaskRequest,
  GetTaskRequest,
  OperationRequests,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
} from './requests.js';
import { BASE64_PATTERN, MAX_ID_LENGTH } from './request-rules.js';

/**
 * A fast check: returns `params` itself (same reference, no copy), typed as the request `T`, when
 * zod's `safeParse` would certainly succeed with an output deep-equal to it; `undefined` means "run zod".
 */
export type FastCheck<T extends object = object> = (params: unknown) => T | undefined;

const OBJECT_PROTO = Object.prototype;
const ARRAY_PROTO = Array.prototype;
const hasOwn = Object.prototype.hasOwnProperty;

// Zod builds every object output on a fresh `{}`, so anything but Object.prototype would not compare equal.
function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === OBJECT_PROTO;
}

function isArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && Object.getPrototypeOf(v) === ARRAY_PROTO;
}

/**
 * `struct` in schemas.ts is a zod record: it rejects objects whose `constructor` is a foreign
 * function and silently drops an own `__proto__` key, so both go to zod. Values are kept by
 * reference there, so they need no inspection here.
 */
function isStruct(v: unknown): boolean {
  if (!isPlain(v)) return false;
  const ctor = v.constructor;
  if (typeof ctor === 'function' && ctor !== Object) return false;
  return !hasOwn.call(v, '__proto__');
}

function isStringList(v: unknown): boolean {
  if (!isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

function isHistoryLength(v: unknown): boolean {
  // Zod's `.int()` is a safe-integer check: 2**53 and 1e300 fail there too.
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isNonEmptyString(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0;
}

/** A required id: non-empty and bounded like the schemas' (longer ones go to zod, which names the limit). */
function isId(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH;
}

/** An optional id, context id or tenant. */
function isOptionalId(v: unknown): boolean {
  return typeof v === 'string' && v.length <= MAX_ID_LENGTH;
}

function isPart(p: unknown): boolean {
  if (!isPlain(p)) return false;
  let content = 0;
  for (const k in p) {
    const v = p[k];
    switch (k) {
      case 'text':
      case 'filename':
      case 'mediaType':
        if (typeof v !== 'string') return false;
        if (k === 'text') content++;
        break;
      case 'raw':
        if (typeof v !== 'string' || !BASE64_PATTERN.test(v)) return false;
        content++;
        break;
      case 'url':
        if (!isNonEmptyString(v)) return false;
        content++;
        break;
      case 'data':
        // Zod takes any defined value here; null is left to it so the no-null rule stays uniform.
        if (v === undefined || v === null) return false;
        content++;
        break;
      case 'metadata':
        if (!isStruct(v)) return false;
        break;
      default:
        return false;
    }
  }
  return content === 1;
}

function isParts(v: unknown): boolean {
  if (!isArray(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!isPart(v[i])) return false;
  return true;
}

const isRole = (v: unknown): boolean => v === 'ROLE_USER' || v === 'ROLE_AGENT';
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';

/**
 * A check for a plain object whose members are all in `members` (each with its own check) and which
 * has every `required` one. Built once per object type; a Map, so keys like `__proto__` are never found.
 */
function objectCheck<T>(
  members: { [K in keyof T]-?: (v: unknown) => boolean },
  required: ReadonlyArray<keyof T & string>,
): (v: unknown) => boolean {
  const checks = new Map<string, (v: unknown) => boolean>(Object.entries(members));
  return (o) => {
    if (!isPlain(o)) return false;
    // for…in never yields a key twice, so counting the required keys proves all of them are present.
    let found = 0;
    for (const k in o) {
      const check = checks.get(k);
      if (check === undefined || !check(o[k])) return false;
      if ((required as readonly string[]).includes(k)) found++;
    }
    return found === required.length;
  };
}

const isMessage = objectCheck<Message>(
  {
    messageId: isId,
    role: isRole,
    parts: isParts,
    contextId: isOptionalId,
    taskId: isOptionalId,
    metadata: isStruct,
    extensions: isStringList,
    referenceTaskIds: isStringList,
  },
  ['messageId', 'role', 'parts'],
);

// An inline taskPushNotificationConfig needs URL parsing; it is rare enough to leave to zod.
const isSendConfiguration = objectCheck<
  Omit<SendMessageConfiguration, 'taskPushNotificationConfig'>
>(
  {
    acceptedOutputModes: isStringList,
    historyLength: isHistoryLength,
    returnImmediately: isBoolean,
  },
  [],
);

/**
 * A fast check for a request type: the request itself when it passes, else undefined ("ask zod").
 * `members` names every member of `T` the check accepts; test/protocol-shapes.test.ts holds each
 * one to the schema and the type.
 */
function requestCheck<T extends object>(
  members: { [K in keyof T]-?: (v: unknown) => boolean },
  required: keyof T & string,
): FastCheck<T> {
  const check = objectCheck(members, [required]);
  return (params) => (check(params) ? (params as T) : undefined);
}

/** Fast check for `SendMessageRequestSchema` (SendMessage and SendStreamingMessage). */
export const fastCheckSendMessageRequest = requestCheck<SendMessageRequest>(
  {
    message: isMessage,
    tenant: isOptionalId,
    configuration: isSendConfiguration,
    metadata: isStruct,
  },
  'message',
);

/** Fast check for `GetTaskRequestSchema`. */
export const fastCheckGetTaskRequest = requestCheck<GetTaskRequest>(
  { id: isId, tenant: isOptionalId, historyLength: isHistoryLength },
  'id',
);

/** Fast check for `CancelTaskRequestSchema`. */
export const fastCheckCancelTaskRequest = requestCheck<CancelTaskRequest>(
  { id: isId, tenant: isOptionalId, metadata: isStruct },
  'id',
);

/** Fast check for `SubscribeToTaskRequestSchema`. */
export const fastCheckSubscribeToTaskRequest = requestCheck<SubscribeToTaskRequest>(
  { id: isId, tenant: isOptionalId },
  'id',
);

/**
 * Fast checks by operation. An operation without an entry always goes through zod; an entry's
 * `undefined` answer means the same.
 */
export const FAST_CHECKS: { readonly [N in OperationName]?: FastCheck<OperationRequests[N]> } =
  Object.freeze({
    SendMessage: fastCheckSendMessageRequest,
    SendStreamingMessage: fastCheckSendMessageRequest,
    GetTask: fastCheckGetTaskRequest,
    CancelTask: fastCheckCancelTaskRequest,
    SubscribeToTask: fastCheckSubscribeToTaskRequest,
  });
