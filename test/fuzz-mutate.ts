/**
 * Value-level mutation for the fuzz suite: a seeded random source, a JSON writer that can emit what
 * JSON.stringify cannot (duplicate keys, out-of-range numbers, nesting thousands of levels deep), and
 * mutators that change one spot of a request tree and say what they did.
 */

/** A deterministic random source (mulberry32): the same seed gives the same requests on every machine. */
export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function rng(seed: number): Rng {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

/** JSON text written verbatim; `depth` is how deep it nests (the writer itself never recurses into it). */
export class Raw {
  constructor(
    readonly text: string,
    readonly depth = 0,
  ) {}
}

/** An object whose entries may repeat a key (JSON.parse keeps the last one). */
export class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

/** JSON text of a tree that may hold {@link Raw} and {@link Entries}. */
export function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Entries)
    return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object') return toJson(new Entries(Object.entries(v)));
  return v === undefined ? 'null' : JSON.stringify(v);
}

/** The deepest {@link Raw} nesting in a tree. */
export function deepest(v: unknown): number {
  if (v instanceof Raw) return v.depth;
  const kids =
    v instanceof Entries
      ? v.entries.map((e) => e[1])
      : v !== null && typeof v === 'object'
        ? Object.values(v)
        : [];
  return kids.reduce((m: number, k) => Math.max(m, deepest(k)), 0);
}

/** Nesting `depth` levels deep as JSON text: objects, arrays, or both in turn. */
export function deepJson(depth: number, shape: 'object' | 'array' | 'mixed'): Raw {
  const open = shape === 'object' ? '{"a":' : shape === 'array' ? '[' : '{"a":[';
  const close = shape === 'object' ? '}' : shape === 'array' ? ']' : ']}';
  const levels = shape === 'mixed' ? Math.ceil(depth / 2) : depth;
  return new Raw(
    open.repeat(levels) + '"bottom"' + close.repeat(levels),
    shape === 'mixed' ? levels * 2 : depth,
  );
}

/** Strings a peer may send that code often mishandles. */
export const NASTY_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud800y',
  '\udc00\ud800',
  '\u2028\u2029',
  '\u202e',
  '\ufeff',
  '\uffff',
  '\r\nX-Injected: 1',
  'line\nbreak',
  '../../etc/passwd',
  '%00',
  '%',
  '\\',
  '"',
  '<script>alert(1)</script>',
  '😀',
  '\u{10ffff}',
  ' ',
  '',
  'ROLE_USER',
  'TASK_STATE_COMPLETED',
  '__proto__',
  'constructor',
  'null',
  '0',
  'https://127.0.0.1:1/x',
  'urn:a2a:\u0000',
  'Bearer fuzz-good',
];

/** JSON number literals outside what the fields accept (or outside what a double holds). */
export const ODD_NUMBERS: readonly Raw[] = [
  '1e999',
  '-1e999',
  '1e-999',
  '-0',
  '0.5',
  '-1',
  '0',
  '101',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '4294967296',
  '123456789012345678901234567890',
  '1E2',
  '1.0',
  '-9223372036854775809',
].map((t) => new Raw(t));

/** Values of every JSON type, for wrong-type mutations. */
export const ODD_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  'x',
  [],
  {},
  [1, 'a', null],
  { x: { y: [] } },
  [[[]]],
  ...ODD_NUMBERS.slice(0, 3),
];

/** A fresh copy of one of {@link ODD_VALUES} (Raw values are immutable and shared). */
function oddValue(r: Rng): unknown {
  const v = r.pick(ODD_VALUES);
  return v instanceof Raw ? v : structuredClone(v);
}

const snakeName = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Members whose value is free-form JSON (google.protobuf.Struct / Value): their keys are data, not field names. */
const FREE_FORM = new Set(['metadata', 'data']);

/** The tree with every field name in the proto's snake_case spelling (free-form contents untouched). */
export function snakeCase(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeCase);
  if (v === null || typeof v !== 'object' || v instanceof Raw) return v;
  const entries = v instanceof Entries ? v.entries : Object.entries(v);
  return new Entries(entries.map(([k, x]) => [snakeName(k), FREE_FORM.has(k) ? x : snakeCase(x)]));
}

/** A spot in a tree: the container and the key or index of one member. */
export interface Spot {
  path: string;
  holder: Record<string, unknown> | unknown[];
  key: string | number;
}

/** Every member of every object and array in a plain tree, parents before children. */
export function spots(v: unknown, path = '', out: Spot[] = []): Spot[] {
  if (v instanceof Raw || v instanceof Entries || v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push({ path: `${path}[${i}]`, holder: v, key: i });
      spots(x, `${path}[${i}]`, out);
    });
  } else {
    for (const [k, x] of Object.entries(v)) {
      out.push({ path: path ? `${path}.${k}` : k, holder: v as Record<string, unknown>, key: k });
      spots(x, path ? `${path}.${k}` : k, out);
    }
  }
  return out;
}

const objects = (v: unknown): Array<{ path: string; obj: Record<string, unknown> }> => {
  const all = spots(v).filter((s) =>
    isPlain((s.holder as Record<string, unknown>)[s.key as string]),
  );
  const found = all.map((s) => ({
    path: s.path,
    obj: (s.holder as Record<string, unknown>)[s.key as string] as Record<string, unknown>,
  }));
  return isPlain(v) ? [{ path: '(root)', obj: v as Record<string, unknown> }, ...found] : found;
};
const isPlain = (v: unknown): boolean =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Raw) &&
  !(v instanceof Entries);

const set = (s: Spot, value: unknown): void => {
  (s.holder as Record<string | number, unknown>)[s.key] = value;
};

/** One structure-aware change to `tree` (mutated in place; the root stays an object). Returns its label. */
export type Mutator = (tree: Record<string, unknown>, r: Rng) => string | undefined;

function atSpot(tree: Record<string, unknown>, r: Rng, prefer?: RegExp): Spot | undefined {
  const all = spots(tree);
  const preferred = prefer ? all.filter((s) => prefer.test(s.path)) : [];
  const pool = preferred.length > 0 && r.chance(0.7) ? preferred : all;
  return pool.length > 0 ? r.pick(pool) : undefined;
}

export const MUTATORS: Record<string, Mutator> = {
  drop(tree, r) {
    const s = atSpot(tree, r);
    if (!s) return undefined;
    if (Array.isArray(s.holder)) s.holder.splice(s.key as number, 1);
    else delete s.holder[s.key as string];
    return `drop ${s.path}`;
  },
  wrongType(tree, r) {
    const s = atSpot(tree, r);
    if (!s) return undefined;
    set(s, oddValue(r));
    return `wrong type at ${s.path}`;
  },
  hugeString(tree, r) {
    const s = atSpot(tree, r, /text$|messageId$|id$|url$|contextId$|token$|tenant$/);
    if (!s) return undefined;
    const size = r.chance(0.05) ? 5_000_000 : r.pick([70_000, 300_000, 1_000_000]);
    set(s, r.chance(0.5) ? 'x'.repeat(size) : '\u00e9\u4e2d😀'.repeat(Math.ceil(size / 9)));
    return `huge string (${size} chars) at ${s.path}`;
  },
  deep(tree, r) {
    const depth = r.pick([100, 1000, 2000, 3000, 5000, 10_000, 100_000]);
    const shape = r.pick(['object', 'array', 'mixed'] as const);
    // Half the time into free-form JSON the server keeps and sends back (metadata, data parts), added if absent.
    const holders = objects(tree).filter((o) => /^\(root\)$|^message$|parts\[\d+\]$/.test(o.path));
    if (holders.length > 0 && r.chance(0.5)) {
      const { path, obj } = r.pick(holders);
      const key = /parts\[\d+\]$/.test(path) && 'data' in obj ? 'data' : 'metadata';
      obj[key] = deepJson(depth, shape === 'array' && key === 'metadata' ? 'object' : shape);
      return `nested ${depth} deep (${shape}) at ${path === '(root)' ? '' : `${path}.`}${key}`;
    }
    const s = atSpot(tree, r);
    if (!s) return undefined;
    set(s, r.chance(0.5) ? deepJson(depth, shape) : [deepJson(depth, shape)]);
    return `nested ${depth} deep (${shape}) at ${s.path}`;
  },
  nastyString(tree, r) {
    const s = atSpot(tree, r);
    if (!s) return undefined;
    const nasty = r.pick(NASTY_STRINGS);
    const current = (s.holder as Record<string | number, unknown>)[s.key];
    set(s, typeof current === 'string' && r.chance(0.5) ? current + nasty : nasty);
    return `string ${JSON.stringify(nasty)} at ${s.path}`;
  },
  nastyKey(tree, r) {
    const { path, obj } = r.pick(objects(tree));
    const key = r.pick([
      ...NASTY_STRINGS,
      '__proto__',
      'prototype',
      'toString',
      'hasOwnProperty',
      'then',
    ]);
    // Through Entries the key survives as an own member, as JSON.parse makes it on the server.
    const entries: [string, unknown][] = [...Object.entries(obj), [key, oddValue(r)]];
    replaceObject(tree, obj, new Entries(entries));
    return `key ${JSON.stringify(key)} in ${path}`;
  },
  duplicateKey(tree, r) {
    const candidates = objects(tree).filter((o) => Object.keys(o.obj).length > 0);
    if (candidates.length === 0) return undefined;
    const { path, obj } = r.pick(candidates);
    const key = r.pick(Object.keys(obj));
    const other = oddValue(r);
    const entries = Object.entries(obj);
    // Either the good value first and a bad one last (what JSON.parse keeps), or the other way round.
    const extra: [string, unknown] = [key, other];
    replaceObject(
      tree,
      obj,
      new Entries(r.chance(0.5) ? [...entries, extra] : [extra, ...entries]),
    );
    return `duplicate key ${key} in ${path}`;
  },
  oddNumber(tree, r) {
    const s = atSpot(tree, r, /historyLength$|pageSize$|returnImmediately$|includeArtifacts$/);
    if (!s) return undefined;
    const n = r.pick(ODD_NUMBERS);
    set(s, n);
    return `number ${n.text} at ${s.path}`;
  },
  oddEnum(tree, r) {
    const s = atSpot(tree, r, /role$|status$|state$/);
    if (!s) return undefined;
    const v = r.pick([
      'ROLE_UNSPECIFIED',
      'role_user',
      'USER',
      'user',
      1,
      0,
      99,
      -1,
      'TASK_STATE_UNSPECIFIED',
      'TASK_STATE_WORKING ',
      '',
    ]);
    set(s, v);
    return `enum ${JSON.stringify(v)} at ${s.path}`;
  },
  wideArray(tree, r) {
    const s = atSpot(tree, r, /parts$|acceptedOutputModes$|extensions$|referenceTaskIds$/);
    if (!s) return undefined;
    const current = (s.holder as Record<string | number, unknown>)[s.key];
    const item = Array.isArray(current) && current.length > 0 ? current[0] : oddValue(r);
    const n = r.pick([1000, 10_000, 50_000]);
    // Wide, not heavy: a big item (a huge string from another mutation) is swapped for a small one.
    const unit = toJson(item);
    set(
      s,
      new Raw(
        `[${Array<string>(n)
          .fill(unit.length <= 200 ? unit : '{"text":"x"}')
          .join(',')}]`,
        deepest(item),
      ),
    );
    return `array of ${n} at ${s.path}`;
  },
  snake(tree) {
    const renamed = snakeCase(rootOf(tree)) as Entries;
    for (const k of Object.keys(tree)) delete tree[k];
    tree.__entries = renamed;
    return 'snake_case field names';
  },
  unknownField(tree, r) {
    const { path, obj } = r.pick(objects(tree));
    obj[r.pick(['kind', 'extra', 'final', 'id', 'task', 'x-fuzz', 'message_id'])] = oddValue(r);
    return `unknown field in ${path}`;
  },
};

/** Swap `obj` (somewhere in `tree`) for `replacement`; the root is swapped through a marker member. */
function replaceObject(
  tree: Record<string, unknown>,
  obj: Record<string, unknown>,
  replacement: Entries,
): void {
  if (obj === tree) {
    for (const k of Object.keys(tree)) delete tree[k];
    tree.__entries = replacement;
    return;
  }
  const s = spots(tree).find((x) => (x.holder as Record<string | number, unknown>)[x.key] === obj);
  if (s) set(s, replacement);
}

/** The tree as the server will see it: a root swapped for {@link Entries} by a mutator is unwrapped. */
export function rootOf(tree: Record<string, unknown>): unknown {
  return tree.__entries instanceof Entries ? tree.__entries : tree;
}
