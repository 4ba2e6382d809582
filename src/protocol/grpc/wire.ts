/**
 * The protobuf wire format's primitives (varints, fixed 64-bit doubles, length-delimited bytes and
 * strings), which is all the message tables need: no dependency, and no object per field.
 *
 * The writer puts bytes straight into one buffer. A nested message reserves one byte for its length
 * and moves its bytes up only in the rare case that the length needs more (128 bytes or longer), so
 * an answer is encoded without the list of pending operations a two-pass writer builds per field.
 * One writer is reused for every encoding (they are synchronous); the result is copied out at its
 * exact size, which for small messages comes from Node's buffer pool.
 */
import { ProtoError } from './proto-error.js';

const TWO_32 = 4294967296;
const truncated = (): ProtoError =>
  new ProtoError('', 'the message is truncated (a length or value runs past its end)');

/** Bytes of `n` (an unsigned 32-bit integer) as a varint. */
function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Writes protobuf fields into one growing buffer. */
export class ProtoWriter {
  buf: Buffer;
  pos: number;
  /** Where each open nested message's length byte is (a stack of `#open` entries, kept between uses). */
  readonly #forks: number[] = [];
  #open = 0;

  /** `reserve` bytes at the start are left for the caller (e.g. a gRPC message prefix). */
  constructor(size = 1024, reserve = 0) {
    this.buf = Buffer.allocUnsafe(Math.max(size, reserve + 16));
    this.pos = reserve;
  }

  /** Start again at `reserve`, keeping the buffer. */
  reset(reserve: number): void {
    this.pos = reserve;
    this.#open = 0;
  }

  #room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** An unsigned 32-bit varint (a tag, a length, a uint32 field). */
  uint32(value: number): this {
    this.#room(5);
    const buf = this.buf;
    let v = value >>> 0;
    let p = this.pos;
    while (v > 127) {
      buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[p++] = v;
    this.pos = p;
    return this;
  }

  /** A signed 32-bit varint: negative numbers take ten bytes, sign-extended to 64 bits. */
  int32(value: number): this {
    return value >= 0 ? this.uint32(value) : this.int64(value);
  }

  /** A 64-bit varint from a safe integer (two's complement when negative). */
  int64(value: number): this {
    if (value >= 0 && value < TWO_32) return this.uint32(value);
    const m = Math.abs(value);
    let lo = m >>> 0;
    let hi = Math.floor(m / TWO_32) >>> 0;
    if (value < 0) {
      lo = (~lo + 1) >>> 0;
      hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
    }
    this.#room(10);
    const buf = this.buf;
    let p = this.pos;
    while (hi !== 0) {
      buf[p++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[p++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[p++] = lo;
    this.pos = p;
    return this;
  }

  bool(value: boolean): this {
    this.#room(1);
    this.buf[this.pos++] = value ? 1 : 0;
    return this;
  }

  /** A double as 8 little-endian bytes. */
  double(value: number): this {
    this.#room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  /** Length-delimited UTF-8 (a lone surrogate becomes U+FFFD, as everywhere in Node). */
  string(value: string): this {
    const n = value.length;
    if (n < 43) {
      // At most 126 bytes of UTF-8: the length fits in one byte, written after the text.
      this.#room(1 + n * 3);
      const buf = this.buf;
      const start = this.pos + 1;
      let p = start;
      for (let i = 0; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 128) {
          p = start + buf.write(value, start, 'utf8');
          break;
        }
        buf[p++] = c;
      }
      buf[start - 1] = p - start;
      this.pos = p;
      return this;
    }
    const len = Buffer.byteLength(value, 'utf8');
    this.uint32(len);
    this.#room(len);
    this.pos += this.buf.write(value, this.pos, len, 'utf8');
    return this;
  }

  /** Length-delimited bytes. */
  bytes(value: Uint8Array): this {
    this.uint32(value.length);
    this.#room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  /** Open a nested message; {@link ldelim} closes it and writes its length. */
  fork(): this {
    this.#room(1);
    this.#forks[this.#open++] = this.pos;
    this.pos += 1;
    return this;
  }

  ldelim(): this {
    const at = this.#forks[--this.#open]!;
    const len = this.pos - at - 1;
    if (len < 128) {
      this.buf[at] = len;
      return this;
    }
    const extra = varintSize(len) - 1;
    this.#room(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    const end = this.pos + extra;
    this.pos = at;
    this.uint32(len);
    this.pos = end;
    return this;
  }

  /** A copy of the bytes written from `from`, at its exact size. */
  copy(from = 0): Buffer {
    const out = Buffer.allocUnsafe(this.pos - from);
    this.buf.copy(out, 0, from, this.pos);
    return out;
  }
}

/** Reads protobuf fields from a buffer; every read past the end is a {@link ProtoError}. */
export class ProtoReader {
  pos = 0;
  readonly len: number;

  constructor(readonly buf: Buffer) {
    this.len = buf.length;
  }

  #byte(): number {
    if (this.pos >= this.len) throw truncated();
    return this.buf[this.pos++]!;
  }

  /** A varint's low 32 bits, unsigned (tags, lengths, uint32 fields). */
  uint32(): number {
    let b = this.#byte();
    let v = b & 127;
    if (b < 128) return v;
    b = this.#byte();
    v |= (b & 127) << 7;
    if (b < 128) return v;
    b = this.#byte();
    v |= (b & 127) << 14;
    if (b < 128) return v;
    b = this.#byte();
    v |= (b & 127) << 21;
    if (b < 128) return v;
    b = this.#byte();
    v = (v | ((b & 15) << 28)) >>> 0;
    // Bytes past the fifth only carry the upper half (of a sign-extended negative): skipped.
    for (let i = 0; b >= 128; i++) {
      if (i === 5)
        throw new ProtoError('', 'malformed protobuf: a varint is longer than ten bytes');
      b = this.#byte();
    }
    return v;
  }

  /** A signed 32-bit varint. */
  int32(): number {
    return this.uint32() | 0;
  }

  /** A 64-bit varint as a number (exact up to 2^53; larger values are rounded). */
  int64(): number {
    let lo = 0;
    let hi: number;
    let b: number;
    for (let shift = 0; shift < 28; shift += 7) {
      b = this.#byte();
      lo |= (b & 127) << shift;
      if (b < 128) return lo >>> 0;
    }
    b = this.#byte();
    lo |= (b & 127) << 28;
    hi = (b & 127) >> 4;
    for (let shift = 3; b >= 128; shift += 7) {
      if (shift > 31)
        throw new ProtoError('', 'malformed protobuf: a varint is longer than ten bytes');
      b = this.#byte();
      hi |= (b & 127) << shift;
    }
    lo >>>= 0;
    hi >>>= 0;
    if (hi >= 0x80000000) return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
    return hi * TWO_32 + lo;
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  double(): number {
    if (this.pos + 8 > this.len) throw truncated();
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Where a length-delimited value that starts here ends (checked against the buffer). */
  end(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.len) throw truncated();
    return end;
  }

  /** Length-delimited bytes, as a view of the buffer (no copy). */
  bytes(): Buffer {
    const end = this.end();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** Length-delimited UTF-8 text. */
  string(): string {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    return this.buf.toString('utf8', start, end);
  }

  /** Skip a field of wire type `wireType` (groups included, which proto3 no longer writes). */
  skipType(wireType: number, depth = 0): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.#skip(8);
        return;
      case 2:
        this.pos = this.end();
        return;
      case 3: {
        if (depth > 64) throw new ProtoError('', 'is nested too deeply');
        for (;;) {
          const tag = this.uint32();
          if ((tag & 7) === 4) return;
          this.skipType(tag & 7, depth + 1);
        }
      }
      case 5:
        this.#skip(4);
        return;
      default:
        throw new ProtoError(
          '',
          `malformed protobuf: invalid wire type ${wireType} at offset ${this.pos}`,
        );
    }
  }

  #skip(n: number): void {
    if (this.pos + n > this.len) throw truncated();
    this.pos += n;
  }
}

let shared: ProtoWriter | undefined;
let sharedBusy = false;

/**
 * Run `write` on a writer that starts at `reserve` and return a copy of what it wrote (from 0, so the
 * reserved bytes are the caller's to fill). The shared writer is used unless an encoding is already
 * under way on it; a writer that grew past 1 MiB is not kept.
 */
export function encodeWith(reserve: number, write: (w: ProtoWriter) => void): Buffer {
  if (sharedBusy) {
    const w = new ProtoWriter(1024, reserve);
    write(w);
    return w.copy();
  }
  const w = (shared ??= new ProtoWriter(16 * 1024));
  w.reset(reserve);
  sharedBusy = true;
  try {
    write(w);
    return w.copy();
  } finally {
    sharedBusy = false;
    if (w.buf.length > 1024 * 1024) shared = undefined;
  }
}
