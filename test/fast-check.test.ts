/**
 * The fast request checks (src/protocol/fast-check.ts) against the zod schemas they shortcut:
 * a fast answer must be one zod would give too (success, output deep-equal to the input), and the
 * shapes real clients send must get the fast answer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { FAST_CHECKS, type FastCheck } from '../src/protocol/index.js';
import {
  CancelTaskRequestSchema,
  GetTaskRequestSchema,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
} from '../src/protocol/schemas.js';

const SCHEMA_OF = {
  SendMessage: SendMessageRequestSchema,
  SendStreamingMessage: SendMessageRequestSchema,
  GetTask: GetTaskRequestSchema,
  CancelTask: CancelTaskRequestSchema,
  SubscribeToTask: SubscribeToTaskRequestSchema,
} as const;
type Op = keyof typeof SCHEMA_OF;

function checkOf(op: Op): FastCheck {
  const c = FAST_CHECKS[op];
  assert.ok(c, `no fast check for ${op}`);
  return c;
}

/** Everything arrives through JSON.parse, so the fixtures do too. */
const wire = (v: unknown): any => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : JSON.parse(text);
};
const msg = (extra: object = {}) => ({
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [{ text: 'hello' }],
  ...extra,
});

const COMMON: Array<[Op, string, unknown]> = [
  ['SendMessage', 'minimal text message', { message: msg() }],
  [
    'SendMessage',
    'agent role, several text parts with mediaType/filename/metadata',
    {
      message: msg({
        role: 'ROLE_AGENT',
        parts: [
          { text: 'a', mediaType: 'text/plain', filename: 'a.txt', metadata: { k: 1 } },
          { text: '' },
        ],
      }),
    },
  ],
  [
    'SendMessage',
    'every common member',
    {
      tenant: 'acme',
      message: msg({
        contextId: 'ctx-1',
        taskId: 'task-1',
        metadata: { trace: 'abc', nested: { a: [1, null, 'x'] } },
        extensions: ['urn:ext:a'],
        referenceTaskIds: ['task-0'],
      }),
      configuration: {
        acceptedOutputModes: ['text/plain', 'application/json'],
        historyLength: 10,
        returnImmediately: true,
      },
      metadata: { origin: 'test', n: 1.5, flag: false, list: [{}] },
    },
  ],
  [
    'SendMessage',
    'empty tenant, configuration, metadata and lists',
    {
      tenant: '',
      message: msg({ contextId: '', metadata: {}, extensions: [], referenceTaskIds: [] }),
      configuration: {},
      metadata: {},
    },
  ],
  [
    'SendMessage',
    'historyLength 0 and returnImmediately false',
    { message: msg(), configuration: { historyLength: 0, returnImmediately: false } },
  ],
  [
    'SendMessage',
    'metadata whose own constructor member is data',
    { message: msg({ metadata: { constructor: 'x' } }) },
  ],
  [
    'SendStreamingMessage',
    'streaming, same shape',
    {
      message: msg({ contextId: 'ctx-1' }),
      configuration: { acceptedOutputModes: ['text/plain'] },
    },
  ],
  ['GetTask', 'id only', { id: 'task-1' }],
  ['GetTask', 'id, historyLength and tenant', { id: 'task-1', historyLength: 3, tenant: 'acme' }],
  ['GetTask', 'historyLength 0', { id: 'task-1', historyLength: 0 }],
  ['CancelTask', 'id only', { id: 'task-1' }],
  [
    'CancelTask',
    'id, tenant and metadata',
    { id: 'task-1', tenant: 'acme', metadata: { reason: 'user' } },
  ],
  ['SubscribeToTask', 'id only', { id: 'task-1' }],
  ['SubscribeToTask', 'id and tenant', { id: 'task-1', tenant: '' }],
];

describe('common request shapes take the fast path and zod agrees', () => {
  for (const [op, label, shape] of COMMON) {
    test(`${op}: ${label}`, () => {
      const input = wire(shape);
      assert.equal(checkOf(op)(input), input, 'the fast check returns the request itself');
      const parsed = SCHEMA_OF[op].safeParse(input);
      assert.ok(parsed.success);
      assert.deepStrictEqual(parsed.data, input);
    });
  }

  test('SendMessage and SendStreamingMessage share one check; other operations have none', () => {
    assert.equal(FAST_CHECKS.SendStreamingMessage, FAST_CHECKS.SendMessage);
    assert.deepEqual(Object.keys(FAST_CHECKS).sort(), Object.keys(SCHEMA_OF).sort());
  });
});

const nullProto = (o: object) => Object.assign(Object.create(null), o);
const LEFT_TO_ZOD: Array<[Op, string, unknown]> = [
  ['SendMessage', 'unknown top-level member (zod strips it)', wire({ message: msg(), extra: 1 })],
  [
    'SendMessage',
    'unknown part member (zod strips it)',
    wire({ message: msg({ parts: [{ text: 'a', kind: 'text' }] }) }),
  ],
  ['SendMessage', 'null member', wire({ message: msg({ contextId: null }) })],
  [
    'SendMessage',
    'undefined-valued optional member',
    { message: msg({ parts: [{ text: 'a', mediaType: undefined }] }) },
  ],
  [
    'SendMessage',
    'inline taskPushNotificationConfig (rare; needs URL parsing)',
    wire({
      message: msg(),
      configuration: { taskPushNotificationConfig: { url: 'https://x.test/h' } },
    }),
  ],
  [
    'SendMessage',
    'metadata with an own __proto__ member (zod drops it)',
    { message: msg({ metadata: JSON.parse('{"__proto__":{"a":1}}') }) },
  ],
  [
    'SendMessage',
    'null-prototype message (zod output has Object.prototype)',
    { message: nullProto(msg()) },
  ],
  ['SendMessage', 'empty messageId', wire({ message: msg({ messageId: '' }) })],
  ['SendMessage', 'role in the wrong spelling', wire({ message: msg({ role: 'user' }) })],
  ['SendMessage', 'no parts', wire({ message: msg({ parts: [] }) })],
  [
    'SendMessage',
    'a part without content',
    wire({ message: msg({ parts: [{ mediaType: 'text/plain' }] }) }),
  ],
  [
    'SendMessage',
    'a part with two contents',
    wire({ message: msg({ parts: [{ text: 'a', url: 'https://x.test/f' }] }) }),
  ],
  [
    'SendMessage',
    'raw that is not base64',
    wire({ message: msg({ parts: [{ raw: 'not base64!' }] }) }),
  ],
  ['SendMessage', 'empty url', wire({ message: msg({ parts: [{ url: '' }] }) })],
  ['SendMessage', 'metadata as an array', wire({ message: msg({ metadata: [1] }) })],
  ['SendMessage', 'extensions with a number', wire({ message: msg({ extensions: ['a', 1] }) })],
  ['SendMessage', 'missing message', wire({ tenant: 'a' })],
  ['SendMessage', 'params are an array', []],
  ['SendMessage', 'params are null', null],
  ['GetTask', 'historyLength 1.5', wire({ id: 't', historyLength: 1.5 })],
  ['GetTask', 'historyLength -1', wire({ id: 't', historyLength: -1 })],
  ['GetTask', 'historyLength 2^53 (not a safe integer)', wire({ id: 't', historyLength: 2 ** 53 })],
  ['GetTask', 'historyLength 1e300', wire({ id: 't', historyLength: 1e300 })],
  ['GetTask', 'historyLength as a string', wire({ id: 't', historyLength: '3' })],
  ['GetTask', 'empty id', wire({ id: '' })],
  ['CancelTask', 'metadata null', wire({ id: 't', metadata: null })],
  [
    'SubscribeToTask',
    'historyLength is not a Subscribe member',
    wire({ id: 't', historyLength: 1 }),
  ],
];

describe('shapes that are left to zod (fast check answers undefined)', () => {
  for (const [op, label, input] of LEFT_TO_ZOD) {
    test(`${op}: ${label}`, () => {
      assert.equal(checkOf(op)(input), undefined);
    });
  }
});

/** mulberry32: small, seeded, deterministic. */
function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: Array<() => unknown> = [
  () => null,
  () => undefined,
  () => 0,
  () => -0,
  () => 3,
  () => 1.5,
  () => -1,
  () => 1e300,
  () => 2 ** 53,
  () => '',
  () => 'x',
  () => 'ROLE_USER',
  () => 'ROLE_AGENT',
  () => 'role_user',
  () => 'aGVsbG8=',
  () => 'not base64!',
  () => 'https://x.test/f',
  () => true,
  () => false,
  () => [],
  () => ['a'],
  () => [1],
  () => [null],
  () => ({}),
  () => ({ a: 1 }),
  () => ({ text: 't' }),
  () => [{ text: 't' }],
  () => ({ url: 'https://x.test/h' }),
  () => () => 1,
];
const KEYS = [
  'text',
  'raw',
  'url',
  'data',
  'metadata',
  'filename',
  'mediaType',
  'messageId',
  'role',
  'parts',
  'contextId',
  'taskId',
  'extensions',
  'referenceTaskIds',
  'tenant',
  'message',
  'configuration',
  'acceptedOutputModes',
  'historyLength',
  'returnImmediately',
  'taskPushNotificationConfig',
  'id',
  'unknownMember',
  'constructor',
  '0',
];

const BASES: Array<[Op, unknown]> = [
  ...COMMON.filter(([op]) => op !== 'SendStreamingMessage').map(([op, , s]): [Op, unknown] => [
    op,
    s,
  ]),
  [
    'SendMessage',
    {
      message: msg({
        parts: [
          { url: 'https://x.test/f', mediaType: 'image/png' },
          { raw: 'aGVsbG8=' },
          { data: { a: [1] } },
        ],
      }),
    },
  ],
  [
    'SendMessage',
    {
      message: msg(),
      configuration: { taskPushNotificationConfig: { url: 'https://x.test/h', token: 't' } },
    },
  ],
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function containers(v: unknown, out: any[], depth = 0): any[] {
  if (typeof v === 'object' && v !== null && depth < 8) {
    out.push(v);
    for (const k in v) containers((v as any)[k], out, depth + 1);
  }
  return out;
}

/** One random edit somewhere in the tree; returns a short description for failure messages. */
function mutate(rand: () => number, root: any): string {
  const c = pick(rand, containers(root, []));
  if (Array.isArray(c)) {
    const kind = Math.floor(rand() * 4);
    if (kind === 0) c.push(pick(rand, VALUES)());
    else if (kind === 1 && c.length > 0) c[Math.floor(rand() * c.length)] = pick(rand, VALUES)();
    else if (kind === 2) c.length = 0;
    else if (c.length > 0) c.push(wire(c[0]));
    return `array#${kind}`;
  }
  const keys = Object.keys(c);
  const kind = Math.floor(rand() * 6);
  if (kind === 0 && keys.length > 0) c[pick(rand, keys)] = pick(rand, VALUES)();
  else if (kind === 1 && keys.length > 0) delete c[pick(rand, keys)];
  else if (kind === 2) c[pick(rand, KEYS)] = pick(rand, VALUES)();
  else if (kind === 3)
    Object.defineProperty(c, '__proto__', {
      value: {},
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else if (kind === 4) Object.setPrototypeOf(c, null);
  else c[pick(rand, KEYS)] = undefined;
  return `object#${kind}`;
}

/** What a client can put on the wire, minus the rare members the checks leave to zod on purpose. */
function commonWireShape(input: any): boolean {
  if (!isDeepStrictEqual(wire(input), input)) return false;
  if (input?.configuration?.taskPushNotificationConfig !== undefined) return false;
  const parts: unknown = input?.message?.parts;
  return !Array.isArray(parts) || !parts.some((p) => p?.data === null);
}

describe('fast check never disagrees with zod (seeded mutation fuzz, 20 000 cases)', () => {
  test('a fast answer implies zod success with an equal output; every clean common shape is fast', (t) => {
    const rand = prng(0xa2a101);
    const counts = { cases: 0, fast: 0, zodOk: 0, clean: 0, cleanCommon: 0 };
    for (let i = 0; i < 20_000; i++) {
      const [op, base] = pick(rand, BASES);
      const input = wire(base);
      const steps = 1 + Math.floor(rand() * 3);
      const log: string[] = [];
      for (let s = 0; s < steps; s++) log.push(mutate(rand, input));
      const where = `case ${i} (${op}, ${log.join(', ')})`;

      const fast = checkOf(op)(input);
      const parsed = SCHEMA_OF[op].safeParse(input);
      const clean = parsed.success && isDeepStrictEqual(parsed.data, input);
      counts.cases++;
      if (parsed.success) counts.zodOk++;
      if (clean) counts.clean++;
      if (fast !== undefined) {
        counts.fast++;
        assert.equal(fast, input, `${where}: the fast check must return its input`);
        assert.ok(
          parsed.success,
          `${where}: fast path taken but zod refuses: ${parsed.error?.message}`,
        );
        assert.deepStrictEqual(
          parsed.data,
          input,
          `${where}: fast path taken but zod reshapes the request`,
        );
      }
      if (clean && commonWireShape(input)) {
        counts.cleanCommon++;
        assert.notEqual(
          fast,
          undefined,
          `${where}: a clean common shape missed the fast path: ${JSON.stringify(input)}`,
        );
      }
    }
    t.diagnostic(JSON.stringify(counts));
    assert.equal(counts.cases, 20_000);
    // The fuzz must reach both sides of the line, or it proves nothing.
    assert.ok(counts.cleanCommon > 1_000, `only ${counts.cleanCommon} clean common cases`);
    assert.ok(counts.cases - counts.zodOk > 5_000, 'too few refused cases');
    assert.ok(counts.zodOk - counts.clean > 500, 'too few accepted-but-reshaped cases');
  });
});
