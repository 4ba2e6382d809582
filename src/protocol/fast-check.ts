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

/**
 * A fast check: returns `params` itself (same reference, no copy) when zod's `safeParse` would
 * certainly succeed with an output deep-equal to it; `undefined` means "run zod".
 */
export type FastCheck = (params: unknown) => object | undefined;

const OBJECT_PROTO = Object.prototype;
const ARRAY_PROTO = Array.prototype;
const hasOwn = Object.prototype.hasOwnProperty;
// Must stay identical to the BASE64 pattern in schemas.ts; the fuzz test feeds both invalid base64.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

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
        if (typeof v !== 'string' || !BASE64.test(v)) return false;
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

function isMessage(m: unknown): boolean {
  if (!isPlain(m)) return false;
  // for…in never yields a key twice, so counting the required keys proves all three are present.
  let required = 0;
  for (const k in m) {
    const v = m[k];
    switch (k) {
      case 'messageId':
        if (!isNonEmptyString(v)) return false;
        required++;
        break;
      case 'role':
        if (v !== 'ROLE_USER' && v !== 'ROLE_AGENT') return false;
        required++;
        break;
      case 'parts':
        if (!isParts(v)) return false;
        required++;
        break;
      case 'contextId':
      case 'taskId':
        if (typeof v !== 'string') return false;
        break;
      case 'metadata':
        if (!isStruct(v)) return false;
        break;
      case 'extensions':
      case 'referenceTaskIds':
        if (!isStringList(v)) return false;
        break;
      default:
        return false;
    }
  }
  return required === 3;
}

// An inline taskPushNotificationConfig needs URL parsing; it is rare enough to leave to zod.
function isSendConfiguration(c: unknown): boolean {
  if (!isPlain(c)) return false;
  for (const k in c) {
    const v = c[k];
    switch (k) {
      case 'acceptedOutputModes':
        if (!isStringList(v)) return false;
        break;
      case 'historyLength':
        if (!isHistoryLength(v)) return false;
        break;
      case 'returnImmediately':
        if (typeof v !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Fast check for `SendMessageRequestSchema` (SendMessage and SendStreamingMessage). */
export function fastCheckSendMessageRequest(params: unknown): object | undefined {
  if (!isPlain(params)) return undefined;
  let hasMessage = false;
  for (const k in params) {
    const v = params[k];
    switch (k) {
      case 'message':
        if (!isMessage(v)) return undefined;
        hasMessage = true;
        break;
      case 'tenant':
        if (typeof v !== 'string') return undefined;
        break;
      case 'configuration':
        if (!isSendConfiguration(v)) return undefined;
        break;
      case 'metadata':
        if (!isStruct(v)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  return hasMessage ? params : undefined;
}

/** Fast check for `GetTaskRequestSchema`. */
export function fastCheckGetTaskRequest(params: unknown): object | undefined {
  if (!isPlain(params)) return undefined;
  let hasId = false;
  for (const k in params) {
    const v = params[k];
    switch (k) {
      case 'id':
        if (!isNonEmptyString(v)) return undefined;
        hasId = true;
        break;
      case 'tenant':
        if (typeof v !== 'string') return undefined;
        break;
      case 'historyLength':
        if (!isHistoryLength(v)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  return hasId ? params : undefined;
}

/** Fast check for `CancelTaskRequestSchema`. */
export function fastCheckCancelTaskRequest(params: unknown): object | undefined {
  if (!isPlain(params)) return undefined;
  let hasId = false;
  for (const k in params) {
    const v = params[k];
    switch (k) {
      case 'id':
        if (!isNonEmptyString(v)) return undefined;
        hasId = true;
        break;
      case 'tenant':
        if (typeof v !== 'string') return undefined;
        break;
      case 'metadata':
        if (!isStruct(v)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  return hasId ? params : undefined;
}

/** Fast check for `SubscribeToTaskRequestSchema`. */
export function fastCheckSubscribeToTaskRequest(params: unknown): object | undefined {
  if (!isPlain(params)) return undefined;
  let hasId = false;
  for (const k in params) {
    const v = params[k];
    switch (k) {
      case 'id':
        if (!isNonEmptyString(v)) return undefined;
        hasId = true;
        break;
      case 'tenant':
        if (typeof v !== 'string') return undefined;
        break;
      default:
        return undefined;
    }
  }
  return hasId ? params : undefined;
}

/**
 * Fast checks by operation. An operation without an entry always goes through zod; an entry's
 * `undefined` answer means the same.
 */
export const FAST_CHECKS: Readonly<Partial<Record<OperationName, FastCheck>>> = Object.freeze({
  SendMessage: fastCheckSendMessageRequest,
  SendStreamingMessage: fastCheckSendMessageRequest,
  GetTask: fastCheckGetTaskRequest,
  CancelTask: fastCheckCancelTaskRequest,
  SubscribeToTask: fastCheckSubscribeToTaskRequest,
});
