/**
 * Protobuf bytes ↔ ProtoJSON objects, driven by the message tables, with no generated classes in
 * between: the server decodes a request straight into the object its dispatcher validates, and
 * encodes the dispatcher's answer straight from the object it returned. The wire primitives
 * (varints, UTF-8, nested lengths) are our own (wire.ts): no dependency.
 *
 * ProtoJSON rules kept: a field without explicit presence that holds its default (``""``, 0, false,
 * the first enum value, an empty list) is not written and is absent after decoding; an unknown enum
 * number decodes as the number (the dispatcher then names the field in its error); unknown fields
 * are skipped; for a oneof the last member on the wire wins.
 */
import { ProtoReader as Reader, encodeWith, type ProtoWriter as Writer } from './wire.js';
import { A2A_ENUMS, A2A_MESSAGES, RPC_MESSAGES, type MessageSpec } from './messages.js';
import { ProtoError, asProtoError } from './proto-error.js';
import {
  MAX_DEPTH,
  put,
  readStruct,
  readTimestamp,
  readValue,
  writeStruct,
  writeTimestamp,
  writeValue,
} from './wkt.js';

const enum K {
  String,
  Bytes,
  Bool,
  Int32,
  Int64,
  Double,
  Enum,
  Message,
  Struct,
  Value,
  Timestamp,
}

interface Field {
  readonly name: string;
  readonly no: number;
  readonly kind: K;
  /** Tag of one element (field number and wire type). */
  readonly tag: number;
  readonly wire: number;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly presence: boolean;
  readonly fill: boolean;
  readonly oneof: string | undefined;
  readonly enumNames: readonly string[] | undefined;
  readonly enumIndex: ReadonlyMap<string, number> | undefined;
  /** The element type's name for messages; the value type for maps. */
  readonly ref: string | undefined;
  /** For maps: how a value is written and read. */
  readonly value: Field | undefined;
}

interface Msg {
  readonly name: string;
  readonly fields: Field[];
  readonly byNo: Array<Field | undefined>;
  readonly fills: Field[];
  readonly oneofs: Map<string, Field[]>;
}

const SCALARS: Record<string, K> = {
  string: K.String,
  bytes: K.Bytes,
  bool: K.Bool,
  int32: K.Int32,
  int64: K.Int64,
  double: K.Double,
  Struct: K.Struct,
  Value: K.Value,
  Timestamp: K.Timestamp,
};
const WIRE: Record<K, number> = {
  [K.String]: 2,
  [K.Bytes]: 2,
  [K.Bool]: 0,
  [K.Int32]: 0,
  [K.Int64]: 0,
  [K.Double]: 1,
  [K.Enum]: 0,
  [K.Message]: 2,
  [K.Struct]: 2,
  [K.Value]: 2,
  [K.Timestamp]: 2,
};

const SPECS: Record<string, MessageSpec> = { ...A2A_MESSAGES, ...RPC_MESSAGES };
const compiled = new Map<string, Msg>();

function fieldOf(name: string, no: number, type: string, oneof: string | undefined): Field {
  const presence = type.startsWith('?');
  const fill = type.endsWith('!');
  let t = type.replace(/^\?/, '').replace(/!$/, '');
  const repeated = t.endsWith('[]');
  if (repeated) t = t.slice(0, -2);
  const mapOf = /^map<(.+)>$/.exec(t)?.[1];
  if (mapOf !== undefined) {
    const value = fieldOf('value', 2, mapOf, undefined);
    return {
      name,
      no,
      kind: K.Message,
      tag: (no << 3) | 2,
      wire: 2,
      repeated: false,
      map: true,
      presence,
      fill,
      oneof,
      enumNames: undefined,
      enumIndex: undefined,
      ref: mapOf,
      value,
    };
  }
  const enumNames = A2A_ENUMS[t];
  const kind = SCALARS[t] ?? (enumNames ? K.Enum : K.Message);
  if (kind === K.Message && !SPECS[t])
    throw new Error(`protobuf table: ${name} refers to unknown type ${t}`);
  const wire = WIRE[kind];
  return {
    name,
    no,
    kind,
    tag: (no << 3) | wire,
    wire,
    repeated,
    map: false,
    presence,
    fill,
    oneof,
    enumNames,
    enumIndex: enumNames ? new Map(enumNames.map((n, i) => [n, i])) : undefined,
    ref: kind === K.Message ? t : undefined,
    value: undefined,
  };
}

function msgOf(name: string): Msg {
  let m = compiled.get(name);
  if (m) return m;
  const spec = SPECS[name];
  if (!spec) throw new Error(`unknown protobuf message ${name}`);
  const fields = Object.entries(spec).map(([n, [no, type, oneof]]) => fieldOf(n, no, type, oneof));
  const byNo: Array<Field | undefined> = [];
  const oneofs = new Map<string, Field[]>();
  for (const f of fields) {
    byNo[f.no] = f;
    if (f.oneof) oneofs.set(f.oneof, [...(oneofs.get(f.oneof) ?? []), f]);
  }
  m = { name, fields, byNo, fills: fields.filter((f) => f.fill), oneofs };
  compiled.set(name, m);
  return m;
}

/** Whether `name` is a message of the tables. */
export function isKnownMessage(name: string): boolean {
  return SPECS[name] !== undefined;
}

// ---------------------------------------------------------------------------------------------- encode

const bad = (what: string): ProtoError => new ProtoError('', what);

function writeScalar(w: Writer, f: Field, v: unknown, implicit: boolean, depth: number): void {
  switch (f.kind) {
    case K.String:
      if (typeof v !== 'string') throw bad('must be a string');
      if (!(implicit && v === '')) w.uint32(f.tag).string(v);
      return;
    case K.Bytes:
      if (typeof v === 'string') {
        if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw bad('must be base64');
        if (!(implicit && v === '')) w.uint32(f.tag).bytes(Buffer.from(v, 'base64'));
      } else if (v instanceof Uint8Array) {
        if (!(implicit && v.length === 0)) w.uint32(f.tag).bytes(v);
      } else {
        throw bad('must be base64 text');
      }
      return;
    case K.Bool:
      if (typeof v !== 'boolean') throw bad('must be true or false');
      if (!(implicit && !v)) w.uint32(f.tag).bool(v);
      return;
    case K.Int32:
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647)
        throw bad('must be a 32-bit integer');
      if (!(implicit && v === 0)) w.uint32(f.tag).int32(v);
      return;
    case K.Int64: {
      const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw bad('must be an integer');
      if (!(implicit && n === 0)) w.uint32(f.tag).int64(n);
      return;
    }
    case K.Double:
      if (typeof v !== 'number') throw bad('must be a number');
      if (!(implicit && v === 0)) w.uint32(f.tag).double(v);
      return;
    case K.Enum: {
      const n =
        typeof v === 'string'
          ? f.enumIndex!.get(v)
          : typeof v === 'number' && Number.isInteger(v)
            ? v
            : undefined;
      if (n === undefined) throw bad(`must be one of ${f.enumNames!.slice(1).join(', ')}`);
      if (!(implicit && n === 0)) w.uint32(f.tag).int32(n);
      return;
    }
    case K.Message:
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('must be an object');
      w.uint32(f.tag).fork();
      writeFields(w, msgOf(f.ref!), v as Record<string, unknown>, depth + 1);
      w.ldelim();
      return;
    case K.Struct:
      w.uint32(f.tag).fork();
      writeStruct(w, v as object, depth + 1);
      w.ldelim();
      return;
    case K.Value:
      w.uint32(f.tag).fork();
      writeValue(w, v, depth + 1);
      w.ldelim();
      return;
    case K.Timestamp:
      w.uint32(f.tag).fork();
      writeTimestamp(w, v);
      w.ldelim();
  }
}

function writeFields(w: Writer, msg: Msg, obj: Record<string, unknown>, depth: number): void {
  if (depth > MAX_DEPTH) throw bad('is nested too deeply');
  let f: Field | undefined;
  let at: number | string | undefined;
  try {
    for (f of msg.fields) {
      at = undefined;
      const v = obj[f.name];
      if (v === undefined || (v === null && f.kind !== K.Value)) continue;
      if (f.repeated) {
        if (!Array.isArray(v)) throw bad('must be an array');
        for (at = 0; at < v.length; at++) writeScalar(w, f, v[at], false, depth);
      } else if (f.map) {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('must be an object');
        for (at of Object.keys(v)) {
          const item = (v as Record<string, unknown>)[at];
          if (item === undefined) continue;
          w.uint32(f.tag).fork().uint32(10).string(at);
          writeScalar(w, f.value!, item, false, depth);
          w.ldelim();
        }
      } else {
        writeScalar(w, f, v, !f.presence, depth);
      }
    }
  } catch (e) {
    throw f && e instanceof ProtoError ? e.within(f.name, at) : e;
  }
}

/** Encode a ProtoJSON object as the protobuf message `type`; throws ProtoError naming the field. */
export function encodeMessage(type: string, value: object): Buffer {
  const msg = msgOf(type);
  return encodeWith(0, (w) => writeFields(w, msg, value as Record<string, unknown>, 0));
}

/**
 * Encode as {@link encodeMessage}, as one gRPC length-prefixed message (an uncompressed flag and the
 * big-endian length, then the bytes): what a call writes, without a second copy.
 */
export function encodeFramed(type: string, value: object): Buffer {
  const msg = msgOf(type);
  const out = encodeWith(5, (w) => writeFields(w, msg, value as Record<string, unknown>, 0));
  out[0] = 0;
  out.writeUInt32BE(out.length - 5, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------- decode

function readScalar(r: Reader, f: Field, depth: number): unknown {
  switch (f.kind) {
    case K.String:
      return r.string();
    case K.Bytes:
      return r.bytes().toString('base64');
    case K.Bool:
      return r.bool();
    case K.Int32:
      return r.int32();
    case K.Int64:
      return r.int64();
    case K.Double:
      return r.double();
    case K.Enum: {
      const n = r.int32();
      return f.enumNames![n] ?? n;
    }
    case K.Message:
      return readFields(r, msgOf(f.ref!), r.end(), depth + 1);
    case K.Struct:
      return readStruct(r, r.end(), depth + 1);
    case K.Value:
      return readValue(r, r.end(), depth + 1);
    case K.Timestamp:
      return readTimestamp(r, r.end());
  }
}

function isDefault(f: Field, v: unknown): boolean {
  return v === '' || v === 0 || v === false || (f.kind === K.Enum && v === f.enumNames![0]);
}

function defaultOf(f: Field): unknown {
  if (f.repeated) return [];
  if (f.map || f.kind === K.Message || f.kind === K.Struct) return {};
  if (f.kind === K.String || f.kind === K.Bytes) return '';
  if (f.kind === K.Bool) return false;
  return f.kind === K.Enum ? f.enumNames![0] : 0;
}

function readMapEntry(
  r: Reader,
  f: Field,
  end: number,
  depth: number,
  into: Record<string, unknown>,
): void {
  let key = '';
  let value: unknown;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 10) key = r.string();
    else if (tag === f.value!.tag) value = readScalar(r, f.value!, depth);
    else r.skipType(tag & 7);
  }
  put(into, key, value ?? defaultOf(f.value!));
}

function readFields(r: Reader, msg: Msg, end: number, depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw bad('is nested too deeply');
  const out: Record<string, unknown> = {};
  let f: Field | undefined;
  let count = 0;
  try {
    while (r.pos < end) {
      const tag = r.uint32();
      const no = tag >>> 3;
      f = msg.byNo[no];
      if (f === undefined) {
        f = undefined;
        if (no === 0) throw bad('has a field numbered 0');
        r.skipType(tag & 7);
        continue;
      }
      if ((tag & 7) !== f.wire)
        throw bad(`arrived with wire type ${tag & 7}, but its type needs ${f.wire}`);
      if (f.repeated) {
        const list = (out[f.name] ??= []) as unknown[];
        count = list.length;
        list.push(readScalar(r, f, depth));
      } else if (f.map) {
        readMapEntry(r, f, r.end(), depth + 1, (out[f.name] ??= {}) as Record<string, unknown>);
      } else {
        const v = readScalar(r, f, depth);
        // Deletes only when there is something to delete: a delete turns the object into a slow dictionary.
        if (f.oneof)
          for (const o of msg.oneofs.get(f.oneof)!)
            if (o !== f && out[o.name] !== undefined) delete out[o.name];
        if (!f.presence && isDefault(f, v)) {
          if (out[f.name] !== undefined) delete out[f.name];
        } else {
          out[f.name] = v;
        }
      }
    }
    f = undefined;
    if (r.pos !== end) throw bad('the message is truncated');
  } catch (e) {
    const err = asProtoError(e);
    throw f ? err.within(f.name, f.repeated ? count : undefined) : err;
  }
  for (const fill of msg.fills) if (out[fill.name] === undefined) out[fill.name] = defaultOf(fill);
  return out;
}

/** Decode protobuf bytes of message `type` into its ProtoJSON object; throws ProtoError naming the field. */
export function decodeMessage(type: string, bytes: Uint8Array): Record<string, unknown> {
  // A Buffer view (no copy) so that strings are read by the native UTF-8 decoder.
  const buf = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new Reader(buf);
  return readFields(r, msgOf(type), r.len, 0);
}
