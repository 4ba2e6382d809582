/**
 * The fuzz suite's request generator: a valid request for every operation, mutated one to a few
 * spots at a time (fuzz-mutate.ts), then written for either binding (fuzz-wire.ts); and a sweep of
 * deep nesting at every spot. Deterministic for a given seed.
 */
import { OPERATIONS, OPERATIONS_BY_NAME, type OperationName } from '../src/protocol/index.js';
import {
  MUTATORS,
  deepJson,
  deepest,
  rng,
  rootOf,
  snakeCase,
  spots,
  type Rng,
} from './fuzz-mutate.js';
import {
  UNKNOWN_ID,
  mutateBytes,
  mutateHeaders,
  writeJsonRpc,
  writeRest,
  type Binding,
  type FuzzCase,
} from './fuzz-wire.js';

export { UNKNOWN_ID, type Binding, type FuzzCase } from './fuzz-wire.js';

/** What exists on the server before fuzzing starts, so that valid requests can name real things. */
export interface FuzzWorld {
  hook: string;
  /** Completed tasks. */
  done: string[];
  /** Tasks waiting in input-required (subscribable). */
  waiting: string[];
  contexts: string[];
  /** Push configs that exist, on `done[0]`. */
  configs: string[];
}

let counter = 0;
const messageId = (): string => `fz-${++counter}`;

/** A valid request of `op` (camelCase, as the spec writes them). */
export function validRequest(op: OperationName, w: FuzzWorld, r: Rng): Record<string, unknown> {
  const msg = (text: string, extra: Record<string, unknown> = {}) => ({
    messageId: messageId(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...extra,
  });
  const task = r.pick([...w.done, ...w.waiting, UNKNOWN_ID]);
  switch (op) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return r.pick([
        () => ({ message: msg('echo hello') }),
        () => ({ message: msg('reply hi') }),
        () => ({ message: msg('ask') }),
        () => ({
          message: msg(
            r.pick(['later on', 'tick tock', 'soon now', 'chunks please', 'ext please']),
          ),
        }),
        () => ({ message: msg('boom') }),
        () => ({
          tenant: 'acme',
          message: msg('data x', {
            contextId: r.pick(w.contexts),
            metadata: { a: 1, b: [true, null, 'x'], c: { d: 'e' } },
            extensions: ['urn:fuzz:ext'],
            referenceTaskIds: [r.pick(w.done)],
          }),
          configuration: {
            acceptedOutputModes: ['text/plain'],
            historyLength: 2,
            returnImmediately: false,
          },
          metadata: { trace: 'abc' },
        }),
        () => ({
          message: msg('echo parts', {
            parts: [
              { text: 'a', mediaType: 'text/plain', filename: 'a.txt', metadata: { k: 'v' } },
              { data: { k: [1, 2, { z: null }] }, mediaType: 'application/json' },
              { url: 'https://files.example/x.png', mediaType: 'image/png', filename: 'x.png' },
              { raw: 'aGVsbG8=', mediaType: 'application/octet-stream' },
            ],
          }),
        }),
        () => ({
          message: msg('echo push'),
          configuration: {
            taskPushNotificationConfig: { url: w.hook, token: 'tok' },
            returnImmediately: true,
          },
        }),
        () => ({ message: msg('follow up', { taskId: r.pick(w.waiting) }) }),
      ])();
    case 'GetTask':
      return r.pick([{ id: task }, { id: task, historyLength: 1 }, { id: task, tenant: '' }]);
    case 'ListTasks':
      return r.pick([
        {},
        { contextId: r.pick(w.contexts), pageSize: 5, includeArtifacts: true, historyLength: 0 },
        {
          status: 'TASK_STATE_COMPLETED',
          statusTimestampAfter: '2020-01-01T00:00:00Z',
          pageToken: '',
        },
      ]);
    case 'CancelTask':
      return r.pick([{ id: task }, { id: task, metadata: { why: 'fuzz' } }]);
    case 'SubscribeToTask':
      return { id: r.pick([...w.waiting, ...w.waiting, w.done[0]!, UNKNOWN_ID]) };
    case 'CreateTaskPushNotificationConfig':
      return {
        taskId: w.done[0]!,
        id: r.pick(['cfg-a', 'cfg-b']),
        url: w.hook,
        token: 'tok',
        ...(r.chance(0.5) ? { authentication: { scheme: 'Bearer', credentials: 'c' } } : {}),
      };
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { taskId: r.pick([w.done[0]!, UNKNOWN_ID]), id: r.pick([...w.configs, 'cfg-none']) };
    case 'ListTaskPushNotificationConfigs':
      return { taskId: r.pick([w.done[0]!, UNKNOWN_ID]), pageSize: 10, pageToken: '' };
    case 'GetExtendedAgentCard':
      return {};
  }
}

/**
 * `broad` spreads requests over every operation and mutation. `streams` leans on what has crashed
 * servers before: streams, agents that emit many events in quick succession, deep nesting.
 */
export type Profile = 'broad' | 'streams';

const OP_WEIGHTS: Record<Profile, [OperationName, number][]> = {
  broad: OPERATIONS.map((o) => [o.name, o.name.startsWith('Send') ? 4 : 1]),
  streams: OPERATIONS.map((o) => [
    o.name,
    o.name === 'SendStreamingMessage' ? 8 : o.streaming || o.name === 'SendMessage' ? 3 : 1,
  ]),
};
const MUTATOR_WEIGHTS = (profile: Profile): [string, number][] => [
  ['drop', 2],
  ['wrongType', 3],
  ['hugeString', 0.4],
  ['deep', profile === 'streams' ? 5 : 1.5],
  ['nastyString', 3],
  ['nastyKey', 1],
  ['duplicateKey', 1.5],
  ['oddNumber', 1.5],
  ['oddEnum', 1],
  ['wideArray', 0.3],
  ['snake', 1.5],
  ['unknownField', 1],
];

function weighted<T>(r: Rng, items: [T, number][]): T {
  let x = r.next() * items.reduce((s, [, w]) => s + w, 0);
  for (const [item, w] of items) if ((x -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/** `count` requests from `seed`: each a valid request with 0–3 structural changes, on either binding. */
export function* generate(
  seed: number,
  count: number,
  w: FuzzWorld,
  profile: Profile = 'broad',
): Generator<FuzzCase> {
  const r = rng(seed);
  for (let n = 0; n < count; n++) yield one(n, r, w, profile);
}

function one(n: number, r: Rng, w: FuzzWorld, profile: Profile): FuzzCase {
  const op = weighted(r, OP_WEIGHTS[profile]);
  const binding: Binding = r.chance(0.5) ? 'jsonrpc' : 'rest';
  const tree = validRequest(op, w, r);
  const message = tree.message as { parts?: Array<{ text?: string }> } | undefined;
  if (profile === 'streams' && message?.parts?.[0] && r.chance(0.5))
    message.parts[0].text = 'chunks please';
  const onPurpose = JSON.stringify(tree).includes('"text":"boom"');
  const mutations: string[] = [];
  const times = r.chance(0.08) ? 0 : 1 + r.int(3);
  const picked = Array.from({ length: times }, () => weighted(r, MUTATOR_WEIGHTS(profile)));
  // Renaming once is enough, and it goes last, so the other changes still find the camelCase names they look for.
  const names = [
    ...picked.filter((m) => m !== 'snake'),
    ...(picked.includes('snake') ? ['snake'] : []),
  ];
  for (const name of names) {
    const label = MUTATORS[name]!(tree, r);
    if (label) mutations.push(label);
  }
  const c: FuzzCase = {
    n,
    binding,
    op,
    mutations,
    verb: 'POST',
    path: '',
    headers: {},
    streaming: OPERATIONS_BY_NAME[op].streaming,
    onPurpose,
    depth: deepest(rootOf(tree)),
  };
  if (binding === 'jsonrpc') writeJsonRpc(c, rootOf(tree), r);
  else writeRest(c, tree, r);
  mutateHeaders(c, r);
  mutateBytes(c, r);
  return c;
}

/** A random source that never mutates: requests written from it are plain encodings. */
const CALM: Rng = {
  next: () => 0.999,
  int: () => 0,
  pick: (items) => items[0]!,
  chance: () => false,
};

/**
 * Deep nesting at every spot of a valid request of every operation, on both bindings: each member
 * replaced, and a `metadata` added to every object that may carry one. Messages ask the agent for a
 * burst of events (`chunks`), which is when a failed write used to take the process down.
 */
export function* deepSweep(w: FuzzWorld, depth: number): Generator<FuzzCase> {
  let n = 0;
  const r = rng(1);
  for (const op of OPERATIONS) {
    const variants = op.name.startsWith('Send') ? 3 : 1;
    for (let v = 0; v < variants; v++) {
      const base = validRequest(op.name, w, r);
      const message = base.message as { parts?: Array<{ text?: string }> } | undefined;
      if (message?.parts?.[0]?.text !== undefined) message.parts[0].text = 'chunks sweep';
      const places = spots(base).map((s) => s.path);
      const holders = [
        '(root)',
        ...places.filter((p) => p === 'message' || /parts\[\d+\]$/.test(p)),
      ];
      for (const target of [
        ...places,
        ...holders.map((h) => `${h === '(root)' ? '' : `${h}.`}metadata`),
      ]) {
        for (const binding of ['jsonrpc', 'rest'] as const) {
          const tree = structuredClone(base);
          const nested = deepJson(depth, 'object');
          const parentPath =
            target.includes('.') || target.includes('[')
              ? target.replace(/(\.[^.[]+|\[\d+\])$/, '')
              : '';
          const key = target
            .slice(parentPath.length)
            .replace(/^\./, '')
            .replace(/^\[(\d+)\]$/, '$1');
          const parent = parentPath === '' ? tree : spots(tree).find((s) => s.path === parentPath);
          const holder = (
            parent === tree
              ? tree
              : (parent as { holder: Record<string, unknown> }).holder[
                  (parent as { key: string }).key
                ]
          ) as Record<string, unknown>;
          if (holder === null || typeof holder !== 'object') continue;
          holder[key] = nested;
          const c: FuzzCase = {
            n: n++,
            binding,
            op: op.name,
            mutations: [`nested ${depth} deep at ${target}`],
            verb: 'POST',
            path: '',
            headers: {},
            streaming: op.streaming,
            onPurpose: false,
            depth,
          };
          if (binding === 'jsonrpc') writeJsonRpc(c, tree, CALM);
          else writeRest(c, tree, CALM);
          mutateHeaders(c, CALM);
          yield c;
        }
      }
    }
  }
}

/**
 * A valid request that uses as many fields as the operation has (and does not ask the agent to fail),
 * with camelCase names and with the proto's snake_case names, for the spelling check.
 */
export function spellings(
  op: OperationName,
  w: FuzzWorld,
): { camel: Record<string, unknown>; snake: unknown } {
  let camel: Record<string, unknown> = {};
  for (let seed = 1; seed <= 64; seed++) {
    const candidate = validRequest(op, w, rng(seed));
    const text = JSON.stringify(candidate);
    if (
      !text.includes('"boom"') &&
      text.length > JSON.stringify(camel).length &&
      !text.includes(UNKNOWN_ID)
    )
      camel = candidate;
  }
  return { camel, snake: snakeCase(camel) };
}
