/**
 * Our protobuf tables (src/protocol/grpc/messages.ts), the gRPC service and the HTTP+JSON routes are
 * typed in by hand from the specification. This suite reads the specification's own `a2a.proto`
 * (the shared reference copy, when it is present) and checks every message, field number, type,
 * label, oneof, enum value and method against ours, so a hand edit that drifts fails here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { A2A_ENUMS, A2A_MESSAGES } from '../src/protocol/grpc/messages.js';
import { GRPC_METHODS, GRPC_SERVICE } from '../src/protocol/grpc/service.js';
import { OPERATIONS } from '../src/protocol/operations.js';

// The proto is the specification's text, which we never copy into the repository: it is read where
// the workplace keeps it (next to the checkout, or A2A_SPEC_PROTO), and the suite says so when absent.
const PROTO = [
  process.env.A2A_SPEC_PROTO,
  fileURLToPath(new URL('../../shared/reference/a2a.proto', import.meta.url)),
  '/work/shared/reference/a2a.proto',
].find((p): p is string => !!p && existsSync(p));
const skip = PROTO
  ? false
  : "the specification's a2a.proto is not next to this checkout (../shared/reference) and A2A_SPEC_PROTO is unset: nothing to compare with";

interface ProtoField {
  name: string;
  number: number;
  type: string;
  repeated: boolean;
  optional: boolean;
  oneof?: string;
  map?: string;
}
interface ProtoRpc {
  name: string;
  request: string;
  response: string;
  streaming: boolean;
  http: { verb: string; path: string }[];
}
interface Proto {
  pkg: string;
  service: string;
  messages: Map<string, ProtoField[]>;
  enums: Map<string, { name: string; number: number }[]>;
  rpcs: ProtoRpc[];
}

/**
 * A line-oriented reader for the subset of proto3 the specification uses (messages without nesting,
 * oneofs, maps, enums, one service with HTTP annotations). Comments are dropped first; each line is
 * matched by anchored patterns, so the reading is linear in the file.
 */
function readProto(text: string): Proto {
  const proto: Proto = { pkg: '', service: '', messages: new Map(), enums: new Map(), rpcs: [] };
  let message: ProtoField[] | undefined;
  let enumValues: { name: string; number: number }[] | undefined;
  let oneof: string | undefined;
  let rpc: ProtoRpc | undefined;
  let inService = false;
  const lines = text.split('\n').map((l) => {
    const cut = l.indexOf('//');
    return (cut >= 0 ? l.slice(0, cut) : l).trim();
  });
  for (const line of lines) {
    if (!line) continue;
    let m: RegExpMatchArray | null;
    if ((m = /^package ([\w.]+);$/.exec(line))) proto.pkg = m[1]!;
    else if ((m = /^service (\w+) \{$/.exec(line))) {
      proto.service = m[1]!;
      inService = true;
    } else if ((m = /^message (\w+) \{\s*\}?$/.exec(line))) {
      message = [];
      proto.messages.set(m[1]!, message);
      if (line.endsWith('}')) message = undefined;
    } else if ((m = /^enum (\w+) \{$/.exec(line))) {
      enumValues = [];
      proto.enums.set(m[1]!, enumValues);
    } else if (message && (m = /^oneof (\w+) \{$/.exec(line))) oneof = m[1]!;
    else if (
      message &&
      (m = /^(repeated |optional )?(map<\w+, ?[\w.]+>|[\w.]+) (\w+) = (\d+)( \[.*\])?;$/.exec(line))
    ) {
      const type = m[2]!;
      const map = /^map<\w+, ?([\w.]+)>$/.exec(type)?.[1];
      message.push({
        name: m[3]!,
        number: Number(m[4]),
        type: map ? 'map' : type,
        repeated: m[1] === 'repeated ',
        optional: m[1] === 'optional ',
        ...(oneof ? { oneof } : {}),
        ...(map ? { map } : {}),
      });
    } else if (enumValues && (m = /^(\w+) = (\d+);$/.exec(line)))
      enumValues.push({ name: m[1]!, number: Number(m[2]) });
    else if (
      inService &&
      (m = /^rpc (\w+)\((\w+)\) returns \((stream )?([\w.]+)\)( \{)?;?$/.exec(line))
    ) {
      rpc = { name: m[1]!, request: m[2]!, response: m[4]!, streaming: !!m[3], http: [] };
      proto.rpcs.push(rpc);
    } else if (rpc && (m = /^(get|post|put|patch|delete): "([^"]+)"$/.exec(line)))
      rpc.http.push({ verb: m[1]!.toUpperCase(), path: m[2]! });
    else if (line === '}') {
      if (oneof) oneof = undefined;
      else if (message) message = undefined;
      else if (enumValues) enumValues = undefined;
    }
  }
  return proto;
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The proto's type in our table's notation, without the marks (`?`, `[]`, `!`). */
function ourType(f: ProtoField): string {
  const name = (t: string) =>
    t
      .replace(/^google\.protobuf\.(Struct|Value|Timestamp|Empty)$/, '$1')
      .replace(/^lf\.a2a\.v1\./, '');
  return f.map ? `map<${name(f.map)}>` : name(f.type);
}

/** Our spec string split into its parts. */
function parseSpec(spec: string) {
  const m = /^(\?)?(.+?)(\[\])?(!)?$/.exec(spec);
  assert.ok(m, `unreadable field spec ${spec}`);
  return { presence: !!m[1], type: m[2]!, repeated: !!m[3] };
}

const proto = PROTO ? readProto(readFileSync(PROTO, 'utf8')) : undefined;

describe('protobuf tables against the specification’s a2a.proto', { skip }, () => {
  test('the proto was read: its package, service, messages, enums and methods', () => {
    assert.ok(proto);
    assert.equal(`${proto.pkg}.${proto.service}`, GRPC_SERVICE);
    assert.ok(proto.messages.size >= 40, `only ${proto.messages.size} messages read`);
    assert.ok(proto.rpcs.length === 11, `${proto.rpcs.length} methods read`);
    assert.deepEqual([...proto.enums.keys()].sort(), Object.keys(A2A_ENUMS).sort());
  });

  test('every message of the proto is in our table, and ours has no other', () => {
    assert.deepEqual(
      [...proto!.messages.keys()].sort(),
      Object.keys(A2A_MESSAGES)
        .filter((n) => n !== 'Empty') // google.protobuf.Empty, which the proto imports
        .sort(),
    );
  });

  for (const [name, fields] of proto?.messages ?? []) {
    test(`${name}: every field's name, number, type, label and oneof`, () => {
      const ours = A2A_MESSAGES[name]!;
      assert.deepEqual(
        Object.keys(ours).sort(),
        fields.map((f) => camel(f.name)).sort(),
        `${name}: field names`,
      );
      for (const f of fields) {
        const key = camel(f.name);
        const spec = ours[key]!;
        const { presence, type, repeated } = parseSpec(spec[1]);
        const where = `${name}.${key}`;
        assert.equal(spec[0], f.number, `${where}: field number`);
        assert.equal(type, ourType(f), `${where}: type`);
        assert.equal(repeated, f.repeated, `${where}: repeated`);
        assert.equal(presence, f.optional || !!f.oneof, `${where}: explicit presence`);
        assert.equal(spec[2], f.oneof, `${where}: oneof group`);
      }
    });
  }

  for (const [name, values] of proto?.enums ?? []) {
    test(`enum ${name}: every value name at its number`, () => {
      const ours = A2A_ENUMS[name]!;
      for (const v of values) assert.equal(ours[v.number], v.name, `${name} = ${v.number}`);
      assert.equal(ours.length, Math.max(...values.map((v) => v.number)) + 1, `${name}: length`);
    });
  }

  for (const rpc of proto?.rpcs ?? []) {
    test(`rpc ${rpc.name}: messages, streaming, and its HTTP+JSON route`, () => {
      const method = Object.values(GRPC_METHODS).find((m) => m.operation === rpc.name);
      assert.ok(method, `no method ${rpc.name}`);
      assert.equal(method.path, `/${GRPC_SERVICE}/${rpc.name}`);
      assert.equal(method.request, rpc.request);
      assert.equal(method.response, rpc.response.replace(/^google\.protobuf\./, ''));
      assert.equal(method.streaming, rpc.streaming);
      const op = OPERATIONS.find((o) => o.name === rpc.name)!;
      // The proto names each route twice: without and with a `/{tenant}` prefix.
      const [plain, tenant] = rpc.http;
      assert.ok(plain && tenant, `${rpc.name}: two HTTP bindings`);
      assert.equal(tenant.path, `/{tenant}${plain.path}`);
      assert.equal(op.rest.verbs[0], plain.verb, `${rpc.name}: verb`);
      // Path variables are proto field names (`task_id`); ours are their JSON names.
      const path = plain.path.replace(/\{(\w+)(=\*)?\}/g, (_, v: string) => `{${camel(v)}}`);
      assert.equal(op.rest.path, path, `${rpc.name}: path`);
    });
  }
});
