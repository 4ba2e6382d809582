/**
 * Our protobuf wire primitives against protobufjs's (a devDependency, used here only as the reference):
 * the same bytes for every value, each side reads what the other wrote, and broken input is a
 * ProtoError rather than a wrong value. The values are drawn from a seeded generator, so a failure
 * can be replayed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs/minimal.js';
import { ProtoReader, ProtoWriter, encodeWith } from '../src/protocol/grpc/wire.js';
import {
  ProtoError,
  decodeMessage,
  encodeFramed,
  encodeMessage,
} from '../src/protocol/grpc/index.js';

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INTS = [
  0,
  1,
  127,
  128,
  255,
  16383,
  16384,
  2 ** 21 - 1,
  2 ** 21,
  2 ** 28 - 1,
  2 ** 28,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 - 1,
];
const INT64S = [
  ...INTS,
  2 ** 32,
  2 ** 35 + 7,
  2 ** 53 - 1,
  -1,
  -2,
  -127,
  -128,
  -(2 ** 31),
  -(2 ** 32),
  -(2 ** 32) - 1,
  -(2 ** 53) + 1,
  1_700_000_000,
  -62_135_596_800,
];
const STRINGS = [
  '',
  'a',
  'hello',
  'x'.repeat(42),
  'x'.repeat(43),
  'y'.repeat(200),
  'é',
  'héllo ✓',
  '✓'.repeat(42),
  '✓'.repeat(43),
  '😀 emoji',
  'a\u0000b',
  '\ud800 lone',
  'ü'.repeat(70_000),
];

function ours(write: (w: ProtoWriter) => void): Buffer {
  return encodeWith(0, write);
}

function theirs(write: (w: protobuf.Writer) => void): Buffer {
  const w = protobuf.Writer.create();
  write(w);
  return Buffer.from(w.finish());
}

test('varints, doubles and bools are written byte for byte as protobufjs writes them', () => {
  for (const n of INTS)
    assert.deepEqual(
      ours((w) => w.uint32(n)),
      theirs((w) => w.uint32(n)),
      `uint32 ${n}`,
    );
  for (const n of [...INTS.map((x) => x | 0), -1, -300, -(2 ** 31)])
    assert.deepEqual(
      ours((w) => w.int32(n)),
      theirs((w) => w.int32(n)),
      `int32 ${n}`,
    );
  for (const n of INT64S)
    assert.deepEqual(
      ours((w) => w.int64(n)),
      theirs((w) => w.int64(n)),
      `int64 ${n}`,
    );
  for (const d of [
    0,
    -0,
    1.5,
    -2.25,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Infinity,
    -Infinity,
    NaN,
  ]) {
    assert.deepEqual(
      ours((w) => w.double(d)),
      theirs((w) => w.double(d)),
      `double ${d}`,
    );
  }
  assert.deepEqual(
    ours((w) => w.bool(true).bool(false)),
    theirs((w) => w.bool(true).bool(false)),
  );
});

test('strings and bytes: the same UTF-8 and length prefixes, short and long, ASCII or not', () => {
  for (const s of STRINGS) {
    const mine = ours((w) => w.string(s));
    // A lone surrogate is U+FFFD in both Buffer and our writer; protobufjs writes its raw code unit, so compare with Buffer.
    const expected = Buffer.concat([
      theirs((w) => w.uint32(Buffer.byteLength(s))),
      Buffer.from(s, 'utf8'),
    ]);
    assert.deepEqual(mine, expected, `string of ${s.length} chars`);
    assert.equal(new ProtoReader(mine).string(), Buffer.from(s, 'utf8').toString('utf8'));
    if (!/[\ud800-\udfff]/.test(s.replace(/\ud83d\ude00/g, '')))
      assert.equal(protobuf.Reader.create(mine).string(), s);
  }
  const bytes = Buffer.from([0, 1, 2, 250, 255]);
  assert.deepEqual(
    ours((w) => w.bytes(bytes)),
    theirs((w) => w.bytes(bytes)),
  );
  assert.deepEqual(
    ours((w) => w.bytes(new Uint8Array(0))),
    theirs((w) => w.bytes(new Uint8Array(0))),
  );
});

test('nested messages of every length class (1- to 3-byte lengths), nested several deep, match protobufjs', () => {
  const random = rng(17);
  for (let round = 0; round < 200; round++) {
    const sizes = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      Math.floor(random() ** 3 * 40_000),
    );
    const build = <
      W extends { uint32(n: number): W; string(s: string): W; fork(): W; ldelim(): W },
    >(
      w: W,
    ): void => {
      for (const size of sizes) w.uint32(10).fork().uint32(18).string('z'.repeat(size));
      for (let i = 0; i < sizes.length; i++) w.ldelim();
    };
    assert.deepEqual(ours(build), theirs(build), `sizes ${sizes.join(',')}`);
  }
});

test('the reader reads what protobufjs wrote, including negative and 64-bit varints', () => {
  for (const n of INT64S) {
    const r = new ProtoReader(
      theirs((w) =>
        w
          .int64(n)
          .int32(n | 0)
          .uint32(n >>> 0)
          .double(n),
      ),
    );
    assert.equal(r.int64(), n);
    assert.equal(r.int32(), n | 0);
    assert.equal(r.uint32(), n >>> 0);
    assert.equal(r.double(), n);
    assert.equal(r.pos, r.len);
  }
});

test('skipType passes over every wire type, groups included', () => {
  const buf = theirs((w) => {
    w.uint32((1 << 3) | 0).int64(-5);
    w.uint32((2 << 3) | 1).double(2.5);
    w.uint32((3 << 3) | 2).string('skip me');
    w.uint32((4 << 3) | 5).fixed32(7);
    w.uint32((5 << 3) | 3)
      .uint32((6 << 3) | 0)
      .uint32(1)
      .uint32((5 << 3) | 4);
    w.uint32((9 << 3) | 0).uint32(42);
  });
  const r = new ProtoReader(buf);
  for (;;) {
    const tag = r.uint32();
    if (tag >>> 3 === 9) break;
    r.skipType(tag & 7);
  }
  assert.equal(r.uint32(), 42);
});

test('truncated and malformed input is a ProtoError, never a wrong value', () => {
  const cut = (b: Buffer, n: number) => new ProtoReader(b.subarray(0, b.length - n));
  assert.throws(
    () =>
      cut(
        theirs((w) => w.uint32(300)),
        1,
      ).uint32(),
    ProtoError,
  );
  assert.throws(
    () =>
      cut(
        theirs((w) => w.double(1)),
        1,
      ).double(),
    ProtoError,
  );
  assert.throws(
    () =>
      cut(
        theirs((w) => w.string('hello')),
        1,
      ).string(),
    ProtoError,
  );
  assert.throws(
    () =>
      cut(
        theirs((w) => w.bytes(Buffer.alloc(3))),
        2,
      ).bytes(),
    ProtoError,
  );
  assert.throws(() => new ProtoReader(Buffer.alloc(11, 0xff)).int64(), /longer than ten bytes/);
  assert.throws(() => new ProtoReader(Buffer.alloc(11, 0xff)).uint32(), /longer than ten bytes/);
  assert.throws(() => new ProtoReader(Buffer.from([0])).skipType(7), /invalid wire type 7/);
});

test('encodeFramed is the gRPC length prefix followed by exactly encodeMessage', () => {
  const task = {
    id: 't',
    contextId: 'c',
    status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
    metadata: { big: 'q'.repeat(5000) },
  };
  const body = encodeMessage('Task', task);
  const framed = encodeFramed('Task', task);
  assert.equal(framed[0], 0);
  assert.equal(framed.readUInt32BE(1), body.length);
  assert.deepEqual(framed.subarray(5), body);
  assert.deepEqual(decodeMessage('Task', framed.subarray(5)), task);
});

test('an encoding started inside another (a nested encodeMessage) does not disturb the outer one', () => {
  const inner = encodeWith(0, (w) => w.uint32(8).uint32(1));
  const outer = encodeWith(0, (w) => {
    w.uint32(10).fork();
    w.uint32(18).bytes(encodeWith(0, (v) => v.uint32(8).uint32(2)));
    w.ldelim();
  });
  assert.deepEqual(inner, Buffer.from([8, 1]));
  assert.deepEqual(outer, Buffer.from([10, 4, 18, 2, 8, 2]));
});

test('a failed encoding leaves the shared writer usable', () => {
  assert.throws(
    () => encodeMessage('Task', { id: 't', status: { state: 'NOT_A_STATE' } }),
    ProtoError,
  );
  // contextId is filled with its default on decoding (a Task always has one in JSON).
  assert.deepEqual(decodeMessage('Task', encodeMessage('Task', { id: 'after' })), {
    id: 'after',
    contextId: '',
  });
});
