/**
 * The well-known types A2A uses, between protobuf and their ProtoJSON forms: `Struct` ↔ JSON object,
 * `Value` ↔ any JSON value, `ListValue` ↔ array, `Timestamp` ↔ RFC 3339 text in UTC (`…Z`).
 */
import type { ProtoReader as Reader, ProtoWriter as Writer } from './wire.js';
import { ProtoError } from './proto-error.js';

/** Nesting deeper than this (messages and JSON values together) is refused, not recursed into. */
export const MAX_DEPTH = 64;

/** Sets a key on a plain object; `__proto__` becomes an own member, as JSON.parse makes it. */
export function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else obj[key] = value;
}

/** Write a JSON object as the fields of a `google.protobuf.Struct`. */
export function writeStruct(w: Writer, obj: object, depth: number): void {
  if (depth > MAX_DEPTH) throw new ProtoError('', 'is nested too deeply');
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    throw new ProtoError('', 'must be a JSON object');
  for (const key of Object.keys(obj)) {
    const v = (obj as Record<string, unknown>)[key];
    if (v === undefined) continue;
    w.uint32(10).fork(); // fields: map<string, Value> = 1
    w.uint32(10).string(key);
    w.uint32(18).fork();
    try {
      writeValue(w, v, depth + 1);
    } catch (e) {
      throw e instanceof ProtoError ? e.within(key) : e;
    }
    w.ldelim();
    w.ldelim();
  }
}

/** Write any JSON value as the fields of a `google.protobuf.Value`. */
export function writeValue(w: Writer, v: unknown, depth: number): void {
  switch (typeof v) {
    case 'string':
      w.uint32(26).string(v);
      return;
    case 'number':
      w.uint32(17).double(v);
      return;
    case 'boolean':
      w.uint32(32).bool(v);
      return;
    case 'undefined':
      w.uint32(8).uint32(0);
      return;
    case 'object':
      if (v === null) {
        w.uint32(8).uint32(0);
      } else if (Array.isArray(v)) {
        if (depth > MAX_DEPTH) throw new ProtoError('', 'is nested too deeply');
        w.uint32(50).fork(); // list_value
        for (let i = 0; i < v.length; i++) {
          w.uint32(10).fork();
          try {
            writeValue(w, v[i], depth + 1);
          } catch (e) {
            throw e instanceof ProtoError ? e.within('', i) : e;
          }
          w.ldelim();
        }
        w.ldelim();
      } else {
        w.uint32(42).fork(); // struct_value
        writeStruct(w, v, depth + 1);
        w.ldelim();
      }
      return;
    default:
      throw new ProtoError('', `a ${typeof v} is not a JSON value`);
  }
}

/** Read a `google.protobuf.Struct` ending at `end` as a JSON object. */
export function readStruct(r: Reader, end: number, depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new ProtoError('', 'is nested too deeply');
  const out: Record<string, unknown> = {};
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag !== 10) {
      r.skipType(tag & 7);
      continue;
    }
    const entryEnd = r.end();
    let key = '';
    let value: unknown = null;
    while (r.pos < entryEnd) {
      const t = r.uint32();
      if (t === 10) key = r.string();
      else if (t === 18) value = readValue(r, r.end(), depth + 1);
      else r.skipType(t & 7);
    }
    put(out, key, value);
  }
  return out;
}

/** Read a `google.protobuf.Value` ending at `end` as a JSON value (an empty Value is null). */
export function readValue(r: Reader, end: number, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new ProtoError('', 'is nested too deeply');
  let value: unknown = null;
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 8:
        r.uint32();
        value = null;
        break;
      case 17:
        value = r.double();
        break;
      case 26:
        value = r.string();
        break;
      case 32:
        value = r.bool();
        break;
      case 42:
        value = readStruct(r, r.end(), depth + 1);
        break;
      case 50: {
        const listEnd = r.end();
        const list: unknown[] = [];
        while (r.pos < listEnd) {
          const t = r.uint32();
          if (t === 10) list.push(readValue(r, r.end(), depth + 1));
          else r.skipType(t & 7);
        }
        value = list;
        break;
      }
      default:
        r.skipType(tag & 7);
    }
  }
  return value;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** RFC 3339 text → seconds and nanoseconds since the epoch. */
export function parseTimestamp(text: unknown): { seconds: number; nanos: number } {
  const m = typeof text === 'string' ? RFC3339.exec(text) : null;
  if (!m)
    throw new ProtoError('', 'must be an RFC 3339 timestamp such as 2025-10-28T10:30:00.000Z');
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Number.isNaN(ms)) throw new ProtoError('', 'is not a valid date and time');
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (+m[10]! * 60 + +m[11]!) * 60;
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds: ms / 1000 - offset, nanos };
}

/** Write RFC 3339 text as the fields of a `google.protobuf.Timestamp`. */
export function writeTimestamp(w: Writer, text: unknown): void {
  // A task's timestamps repeat across its answer and its events: the last one parsed is kept.
  if (text !== lastTime) {
    const { seconds, nanos } = parseTimestamp(text);
    lastTime = text as string;
    lastSeconds = seconds;
    lastNanos = nanos;
  }
  if (lastSeconds !== 0) w.uint32(8).int64(lastSeconds);
  if (lastNanos !== 0) w.uint32(16).int32(lastNanos);
}

let lastTime: string | undefined;
let lastSeconds = 0;
let lastNanos = 0;

/** Seconds and nanoseconds → `YYYY-MM-DDTHH:mm:ss.sssZ` (more digits only when the nanoseconds need them). */
export function formatTimestamp(seconds: number, nanos: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos % 1_000_000 === 0) return `${base}.${String(nanos / 1_000_000).padStart(3, '0')}Z`;
  const digits = String(nanos).padStart(9, '0');
  return `${base}.${nanos % 1000 === 0 ? digits.slice(0, 6) : digits}Z`;
}

/** Read a `google.protobuf.Timestamp` ending at `end` as RFC 3339 text in UTC. */
export function readTimestamp(r: Reader, end: number): string {
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 8) {
      seconds = r.int64();
    } else if (tag === 16) {
      nanos = r.int32();
    } else {
      r.skipType(tag & 7);
    }
  }
  if (
    nanos < 0 ||
    nanos > 999_999_999 ||
    !Number.isFinite(seconds) ||
    Math.abs(seconds) > 253_402_300_799
  ) {
    throw new ProtoError('', 'is not a valid timestamp');
  }
  return formatTimestamp(seconds, nanos);
}
