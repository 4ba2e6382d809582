/**
 * The fuzz suite's wire writer: a (mutated) request object becomes an HTTP request for the JSON-RPC
 * binding or for the operation's HTTP+JSON route (path fields in the path, the rest in the body or
 * the query), with the occasional broken envelope, path, verb, header or byte on the way.
 */
import { OPERATIONS_BY_NAME, type OperationName } from '../src/protocol/index.js';
import { FUZZ_REST_PATH, FUZZ_RPC_PATH, FUZZ_TOKEN } from './fuzz-server.js';
import { Entries, NASTY_STRINGS, Raw, rootOf, toJson, type Rng } from './fuzz-mutate.js';

export type Binding = 'jsonrpc' | 'rest';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** One generated HTTP request and what it is made of. */
export interface FuzzCase {
  n: number;
  binding: Binding;
  op: OperationName;
  /** What was done to the valid request, in order; empty for an untouched one. */
  mutations: string[];
  verb: string;
  /** Path and query, below the origin. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The JSON-RPC id the answer must echo, when the envelope was left intact. */
  rpcId?: string | number;
  streaming: boolean;
  /** The message asks the agent to fail (text `boom`): an internal error is then expected, not a fault. */
  onPurpose: boolean;
  /** The deepest nesting the request carries. */
  depth: number;
}

/** Fill in `c` as a JSON-RPC call with `params` (one in ten with a broken envelope). */
export function writeJsonRpc(c: FuzzCase, params: unknown, r: Rng): void {
  const id: string | number = r.chance(0.5) ? `req-${c.n}` : c.n;
  let envelope: unknown = { jsonrpc: '2.0', id, method: c.op, params };
  if (r.chance(0.1)) {
    const [label, e] = r.pick<[string, unknown]>([
      ['id is an object', { jsonrpc: '2.0', id: { a: 1 }, method: c.op, params }],
      ['id is an array', { jsonrpc: '2.0', id: [1], method: c.op, params }],
      ['id is 1e999', { jsonrpc: '2.0', id: new Raw('1e999'), method: c.op, params }],
      ['id is a nasty string', { jsonrpc: '2.0', id: r.pick(NASTY_STRINGS), method: c.op, params }],
      ['id is a huge string', { jsonrpc: '2.0', id: 'i'.repeat(200_000), method: c.op, params }],
      ['jsonrpc 1.0', { jsonrpc: '1.0', id, method: c.op, params }],
      ['no jsonrpc', { id, method: c.op, params }],
      ['method in lower case', { jsonrpc: '2.0', id, method: c.op.toLowerCase(), params }],
      [
        'method __proto__',
        {
          jsonrpc: '2.0',
          id,
          method: r.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty']),
          params,
        },
      ],
      ['method is a number', { jsonrpc: '2.0', id, method: 7, params }],
      ['params is an array', { jsonrpc: '2.0', id, method: c.op, params: [params] }],
      ['params is a string', { jsonrpc: '2.0', id, method: c.op, params: 'x' }],
      ['params is null', { jsonrpc: '2.0', id, method: c.op, params: null }],
      ['batch', [{ jsonrpc: '2.0', id, method: c.op, params }]],
      ['empty batch', []],
      ['notification (no id)', { jsonrpc: '2.0', method: c.op, params }],
      [
        'duplicate method',
        new Entries([
          ['jsonrpc', '2.0'],
          ['id', id],
          ['method', 'GetTask'],
          ['method', c.op],
          ['params', params],
        ]),
      ],
    ]);
    c.mutations.push(`envelope: ${label}`);
    envelope = e;
  } else {
    c.rpcId = id;
  }
  c.verb = 'POST';
  c.path = FUZZ_RPC_PATH;
  c.headers = { 'content-type': 'application/json' };
  c.body = Buffer.from(toJson(envelope));
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) becomes the three bytes a
 * careless encoder would produce for it (CESU-8), so the server still gets to see one.
 */
function percentEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const PATH_SEGMENTS = [
  '%00',
  '%ED%A0%80',
  '%',
  '%zz',
  'a%2Fb',
  '..',
  '.',
  '%0D%0AX:%201',
  '%E2%80%AE',
  'x'.repeat(20_000),
  '%C0%AF',
  'tasks',
];

/** Fill in `c` as the operation's HTTP+JSON request for `tree` (sometimes with an odd path, tenant, verb or query). */
export function writeRest(c: FuzzCase, tree: Record<string, unknown>, r: Rng): void {
  const route = OPERATIONS_BY_NAME[c.op].rest;
  // Path fields come out of the request object; a renamed or swapped root keeps them in its entries.
  const root = rootOf(tree);
  const entries: [string, unknown][] =
    root instanceof Entries ? [...root.entries] : Object.entries(root as object);
  const take = (name: string): string => {
    const i = entries.findIndex(
      ([k]) => k === name || k === name.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`),
    );
    if (i < 0) return '';
    const [, v] = entries.splice(i, 1)[0]!;
    return percentEncode(typeof v === 'string' ? v : toJson(v));
  };
  let path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => take(name));
  if (r.chance(0.1)) {
    const seg = r.pick(PATH_SEGMENTS);
    path = path.replace(/\/[^/]*?(?=(:\w+)?$)/, (m) => (m === '/' ? m : `/${seg}`));
    c.mutations.push(`path segment ${seg.slice(0, 40)}`);
  }
  if (r.chance(0.15)) {
    const tenant = r.pick(['acme', '%00', 'x'.repeat(5000), 'tasks', 'message:send']);
    path = `/${tenant}${path}`;
    c.mutations.push(`tenant segment ${tenant.slice(0, 40)}`);
  }
  c.verb = route.verbs[r.int(route.verbs.length)]!;
  if (r.chance(0.05)) {
    c.verb = r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    c.mutations.push(`verb ${c.verb}`);
  }
  c.path = FUZZ_REST_PATH + path;
  c.headers = { 'content-type': 'application/a2a+json' };
  const rest = new Entries(entries);
  if (route.body || c.verb === 'POST') {
    c.body = Buffer.from(toJson(rest));
    return;
  }
  const q = new URLSearchParams();
  for (const [k, v] of entries)
    q.append(k, typeof v === 'string' ? v : v instanceof Raw ? v.text : toJson(v));
  if (r.chance(0.1)) {
    const [k, v] = r.pick<[string, string]>([
      ['historyLength', '1'],
      ['pageSize', '5'],
      ['history_length', '2'],
      ['page_size', '1e999'],
      ['tenant', 'acme'],
    ]);
    q.append(k, v);
    q.append(k, r.chance(0.5) ? v : '-1');
    c.mutations.push(`query ${k} twice`);
  }
  const qs = q.toString();
  if (qs) c.path += `?${qs}`;
}

/** The service headers, sometimes the one good credential, and now and then one header gone wrong. */
export function mutateHeaders(c: FuzzCase, r: Rng): void {
  c.headers['a2a-version'] = '1.0';
  if (r.chance(0.3)) c.headers.authorization = FUZZ_TOKEN;
  if (!r.chance(0.08)) return;
  const [label, apply] = r.pick<[string, () => void]>([
    ['no A2A-Version', () => delete c.headers['a2a-version']],
    [
      'A2A-Version garbage',
      () =>
        (c.headers['a2a-version'] = r.pick([
          '',
          '0.3',
          '2.0',
          '1',
          'abc',
          '1.0, 1.0',
          '1.0.999999999999',
        ])),
    ],
    ['content-type text/plain', () => (c.headers['content-type'] = 'text/plain')],
    [
      'content-type latin1',
      () => (c.headers['content-type'] = 'application/json; charset=iso-8859-1'),
    ],
    ['no content-type', () => delete c.headers['content-type']],
    [
      'A2A-Extensions garbage',
      () => (c.headers['a2a-extensions'] = r.pick([',,,', 'urn:a, urn:a', 'x'.repeat(8000), '\t'])),
    ],
    [
      'extensions from the query',
      () => (c.path += `${c.path.includes('?') ? '&' : '?'}A2A-Extensions=urn%3Aa%0Ab`),
    ],
    [
      'authorization garbage',
      () =>
        (c.headers.authorization = r.pick(['Bearer', 'Bearer ', 'Basic !!!', 'x'.repeat(7000)])),
    ],
    ['content-encoding gzip', () => (c.headers['content-encoding'] = 'gzip')],
  ]);
  apply();
  c.mutations.push(`header: ${label}`);
}

/** Now and then, damage the body at the byte level (after the JSON was written). */
export function mutateBytes(c: FuzzCase, r: Rng): void {
  if (!c.body || c.body.length === 0 || !r.chance(0.05)) return;
  const b = c.body;
  const at = r.int(b.length);
  const [label, body] = r.pick<[string, Buffer]>([
    ['truncated', b.subarray(0, at)],
    [
      'invalid UTF-8 (surrogate bytes)',
      Buffer.concat([b.subarray(0, at), Buffer.from([0xed, 0xa0, 0x80]), b.subarray(at)]),
    ],
    [
      'invalid UTF-8 (0xFF)',
      Buffer.concat([b.subarray(0, at), Buffer.from([0xff, 0xc0, 0xaf]), b.subarray(at)]),
    ],
    ['byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
    [
      'one byte replaced',
      Buffer.concat([b.subarray(0, at), Buffer.from([r.int(256)]), b.subarray(at + 1)]),
    ],
    ['empty body', Buffer.alloc(0)],
    ['trailing garbage', Buffer.concat([b, Buffer.from(' }{')])],
  ]);
  c.body = body;
  delete c.rpcId; // the changed byte may be in the id
  c.mutations.push(`bytes: ${label}`);
}
