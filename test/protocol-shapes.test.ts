/**
 * One shape, three descriptions: the TypeScript types (task.ts, requests.ts, push.ts, card.ts), the zod
 * schemas (schemas.ts, card-schema.ts) and the hand-written fast checks (fast-check.ts). This file proves
 * they agree, field by field:
 *
 * - at compile time (`tsc -p tsconfig.json`, part of `npm run lint`): for every shape, the schema's
 *   output type and the protocol type have the same members, each required or optional alike, with
 *   the same value types, all the way down;
 * - at run time: every member of every request the fast checks handle has values both accept (with
 *   zod's output equal to the input) and values both refuse, and the members each table lists are
 *   exactly the schema's (and, by the table's type, exactly the protocol type's).
 *
 * The schemas leave two things out of their types: a oneof (a part has exactly one content member, a
 * security scheme or OAuth flow set exactly one member) is a refinement, and a card's objects are loose
 * (unknown members pass through for signatures). So before comparing, a oneof union is read as the
 * object of all its members, optional, and index signatures of loose objects are dropped.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  FAST_CHECKS,
  OPERATIONS,
  type AgentCapabilities,
  type AgentCard,
  type AgentCardSignature,
  type AgentExtension,
  type AgentInterface,
  type AgentProvider,
  type AgentSkill,
  type APIKeySecurityScheme,
  type AuthenticationInfo,
  type CancelTaskRequest,
  type GetTaskRequest,
  type HTTPAuthSecurityScheme,
  type JsonObject,
  type JsonValue,
  type Message,
  type MutualTlsSecurityScheme,
  type OAuth2SecurityScheme,
  type OAuthFlows,
  type OpenIdConnectSecurityScheme,
  type OperationName,
  type OperationRequests,
  type Part,
  type SecurityRequirement,
  type SecurityScheme,
  type SendMessageConfiguration,
  type SendMessageRequest,
  type SubscribeToTaskRequest,
  type TaskPushNotificationConfig,
} from '../src/protocol/index.js';
import {
  CancelTaskRequestSchema,
  GetTaskRequestSchema,
  MessageSchema,
  PartSchema,
  PushConfigSchema,
  REQUEST_SCHEMAS,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
} from '../src/protocol/schemas.js';
import {
  AgentCapabilitiesSchema,
  AgentCardSchema,
  AgentCardSignatureSchema,
  AgentExtensionSchema,
  AgentInterfaceSchema,
  AgentProviderSchema,
  AgentSkillSchema,
  OAuthFlowsSchema,
  SecurityRequirementSchema,
  SecuritySchemeSchema,
} from '../src/protocol/card-schema.js';

// ---- compile time: schema output types ≡ protocol types -----------------------------------------

type Prim = string | number | boolean | null | undefined;
/** Named members only: the `[k: string]: unknown` of a loose object goes. */
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: 0;
};
type Members<U> = U extends unknown ? KnownKeys<U> : never;
type ValueIn<U, K extends PropertyKey> = U extends unknown
  ? K extends keyof U
    ? U[K]
    : never
  : never;
type RequiredIn<T> = {
  [K in KnownKeys<T>]-?: object extends Pick<T, K & keyof T> ? never : K;
}[KnownKeys<T>];
type RequiredInAll<U, All extends PropertyKey> = Exclude<
  All,
  U extends unknown ? Exclude<All, RequiredIn<U>> : never
>;
/** One object of every member of a union (required only where every branch requires it); also flattens intersections. */
type Merge<
  U,
  All extends PropertyKey = Members<U>,
  Req extends PropertyKey = RequiredInAll<U, All>,
> = Flat<
  { [K in Req]: Norm<Exclude<ValueIn<U, K>, undefined>> } & {
    [K in Exclude<All, Req>]?: Norm<Exclude<ValueIn<U, K>, undefined>>;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };
/**
 * A shape in a form both descriptions can be compared in. Brackets keep unions whole; free-form JSON
 * becomes a label; a map keeps its value type; an object (or a oneof union of objects) is merged.
 */
type Norm<T> = [T] extends [Prim]
  ? T
  : [JsonValue] extends [T]
    ? [T] extends [JsonValue]
      ? 'JsonValue'
      : 'unknown'
    : [T] extends [ReadonlyArray<infer E>]
      ? Array<Norm<E>>
      : [Members<T>] extends [never]
        ? { [k: string]: Norm<T[keyof T]> }
        : Merge<T>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * Mutually assignable at every level and with the same member names at every level (assignability
 * alone would let an extra optional member through). Optionality is compared by the level above.
 */
type Equals<A, B> =
  Same<A, B> extends false
    ? false
    : [A] extends [ReadonlyArray<infer E>]
      ? [B] extends [ReadonlyArray<infer F>]
        ? Equals<E, F>
        : false
      : [A] extends [object]
        ? Same<keyof A, keyof B> extends false
          ? false
          : false extends {
                [K in keyof A]-?: Equals<NonNullable<A[K]>, NonNullable<B[K & keyof B]>>;
              }[keyof A]
            ? false
            : true
        : true;
type Agree<S extends z.ZodType, T> = Equals<Norm<z.output<S>>, Norm<T>>;
type Out<S extends z.ZodType> = z.output<S>;
type Member<S extends z.ZodType, K extends keyof Out<S>> = NonNullable<Out<S>[K]>;

// A `false` below fails `tsc` at the line of the shape that disagrees.
const shapesAgree: Record<string, true> = {
  Part: true satisfies Agree<typeof PartSchema, Part>,
  Message: true satisfies Agree<typeof MessageSchema, Message>,
  TaskPushNotificationConfig: true satisfies Agree<
    typeof PushConfigSchema,
    TaskPushNotificationConfig
  >,
  AuthenticationInfo: true satisfies Equals<
    Norm<Member<typeof PushConfigSchema, 'authentication'>>,
    Norm<AuthenticationInfo>
  >,
  SendMessageConfiguration: true satisfies Equals<
    Norm<Member<typeof SendMessageRequestSchema, 'configuration'>>,
    Norm<SendMessageConfiguration>
  >,
  AgentInterface: true satisfies Agree<typeof AgentInterfaceSchema, AgentInterface>,
  AgentProvider: true satisfies Agree<typeof AgentProviderSchema, AgentProvider>,
  AgentExtension: true satisfies Agree<typeof AgentExtensionSchema, AgentExtension>,
  AgentCapabilities: true satisfies Agree<typeof AgentCapabilitiesSchema, AgentCapabilities>,
  SecurityRequirement: true satisfies Agree<typeof SecurityRequirementSchema, SecurityRequirement>,
  AgentSkill: true satisfies Agree<typeof AgentSkillSchema, AgentSkill>,
  AgentCardSignature: true satisfies Agree<typeof AgentCardSignatureSchema, AgentCardSignature>,
  OAuthFlows: true satisfies Agree<typeof OAuthFlowsSchema, OAuthFlows>,
  APIKeySecurityScheme: true satisfies Equals<
    Norm<Member<typeof SecuritySchemeSchema, 'apiKeySecurityScheme'>>,
    Norm<APIKeySecurityScheme>
  >,
  HTTPAuthSecurityScheme: true satisfies Equals<
    Norm<Member<typeof SecuritySchemeSchema, 'httpAuthSecurityScheme'>>,
    Norm<HTTPAuthSecurityScheme>
  >,
  OAuth2SecurityScheme: true satisfies Equals<
    Norm<Member<typeof SecuritySchemeSchema, 'oauth2SecurityScheme'>>,
    Norm<OAuth2SecurityScheme>
  >,
  OpenIdConnectSecurityScheme: true satisfies Equals<
    Norm<Member<typeof SecuritySchemeSchema, 'openIdConnectSecurityScheme'>>,
    Norm<OpenIdConnectSecurityScheme>
  >,
  MutualTlsSecurityScheme: true satisfies Equals<
    Norm<Member<typeof SecuritySchemeSchema, 'mtlsSecurityScheme'>>,
    Norm<MutualTlsSecurityScheme>
  >,
  SecurityScheme: true satisfies Agree<typeof SecuritySchemeSchema, SecurityScheme>,
  AgentCard: true satisfies Agree<typeof AgentCardSchema, AgentCard>,
};

/** Every operation's validation schema (the dispatcher's table) against its request type. */
const requestsAgree: {
  [N in OperationName]: Agree<(typeof REQUEST_SCHEMAS)[N], OperationRequests[N]>;
} = {
  SendMessage: true,
  SendStreamingMessage: true,
  GetTask: true,
  ListTasks: true,
  CancelTask: true,
  SubscribeToTask: true,
  CreateTaskPushNotificationConfig: true,
  GetTaskPushNotificationConfig: true,
  ListTaskPushNotificationConfigs: true,
  DeleteTaskPushNotificationConfig: true,
  GetExtendedAgentCard: true,
};

// The comparison itself must be able to fail, or it proves nothing.
const normCanFail: Array<false> = [
  false satisfies Agree<z.ZodObject<{ a: z.ZodString }>, { a?: string }>,
  false satisfies Agree<z.ZodObject<{ a: z.ZodString }>, { a: string; b?: number }>,
  false satisfies Agree<z.ZodObject<{ a: z.ZodString }>, { a: 'x' | 'y' }>,
  false satisfies Equals<
    Norm<{ a: Array<{ list?: string[] }> }>,
    Norm<{ a: Array<{ list: string[] }> }>
  >,
  false satisfies Equals<
    Norm<{ a?: Record<string, { x?: string }> }>,
    Norm<{ a?: Record<string, { x?: string; y?: string }> }>
  >,
  false satisfies Equals<Norm<{ m: JsonObject }>, Norm<{ m: Record<string, unknown> }>>,
  false satisfies Equals<
    Norm<{ p: { text: string } | { url: string } }>,
    Norm<{ p: { text?: string; url?: string; raw?: string } }>
  >,
];

test('every shape and every operation request agrees with its schema (checked by tsc; listed here)', () => {
  assert.equal(Object.keys(shapesAgree).length, 20);
  assert.deepEqual(Object.keys(requestsAgree).sort(), OPERATIONS.map((o) => o.name).sort());
  assert.equal(normCanFail.length, 7);
});

// ---- run time: fast checks and zod accept and refuse the same values, member by member --------------

/** Values one member takes: both accept `good`, both refuse `bad`; `zodOnly` are valid values the fast check leaves to zod on purpose. */
interface FieldCase {
  good: unknown[];
  bad: unknown[];
  zodOnly?: unknown[];
  /** The rest of the object while this member is tried (default: the table's base). */
  base?: object;
}
/** One table per object: a case for every member of type `T` (the mapped type makes it exhaustive). */
interface Table<T> {
  name: string;
  fields: { [K in keyof T]-?: FieldCase };
  /** Schema members, to compare with the table's. */
  schemaKeys: string[];
  required: Array<keyof T & string>;
  base: object;
  /** The full request around an object of this shape, and the operation that validates it. */
  request: (o: object) => unknown;
  op: keyof typeof FAST_CHECKS;
  schema: z.ZodType;
}

const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const MSG = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const STRING = { good: ['', 'acme'], bad: [1, true, {}] };
const NON_EMPTY = { good: ['x-1'], bad: ['', 7] };
const STRUCT = { good: [{}, { k: 1, nested: { a: [1, null, 'x'] } }], bad: [[1], 'x', 3] };
const STRINGS = { good: [[], ['a', 'b']], bad: [[1], 'a', [null]] };
const HISTORY = { good: [0, 5], bad: [-1, 1.5, '3', 2 ** 53] };

const TABLES = [
  {
    name: 'SendMessageRequest',
    fields: {
      tenant: STRING,
      message: { good: [MSG], bad: ['x', {}, []], base: {} },
      configuration: { good: [{}, { historyLength: 2 }], bad: ['x', []] },
      metadata: STRUCT,
    },
    schemaKeys: Object.keys(SendMessageRequestSchema.shape),
    required: ['message'],
    base: { message: MSG },
    request: (o) => o,
    op: 'SendMessage',
    schema: SendMessageRequestSchema,
  } satisfies Table<SendMessageRequest>,
  {
    name: 'Message',
    fields: {
      messageId: NON_EMPTY,
      contextId: STRING,
      taskId: STRING,
      role: { good: ['ROLE_USER', 'ROLE_AGENT'], bad: ['user', 'ROLE_UNSPECIFIED', 1] },
      parts: { good: [[{ text: 'a' }], [{ text: 'a' }, { data: { b: 1 } }]], bad: [[], [{}], 'x'] },
      metadata: STRUCT,
      extensions: STRINGS,
      referenceTaskIds: STRINGS,
    },
    schemaKeys: Object.keys(MessageSchema.shape),
    required: ['messageId', 'role', 'parts'],
    base: MSG,
    request: (m) => ({ message: m }),
    op: 'SendStreamingMessage',
    schema: SendMessageRequestSchema,
  } satisfies Table<Message>,
  {
    name: 'Part',
    fields: {
      // The content members: each alone is a part; a second one makes it invalid.
      text: { good: ['', 'hello'], bad: [1, null], base: {} },
      raw: { good: ['aGVsbG8=', 'a-_b'], bad: ['not base64!', 1], base: {} },
      url: { good: ['https://x.test/f'], bad: ['', 2], base: {} },
      data: { good: [{ a: 1 }, [1], 'x', 0, false], bad: [], zodOnly: [null], base: {} },
      metadata: STRUCT,
      filename: { good: ['a.txt'], bad: [1] },
      mediaType: { good: ['text/plain'], bad: [1] },
    },
    schemaKeys: Object.keys(PartSchema.shape),
    required: [],
    base: { text: 't' },
    request: (p) => ({ message: { ...MSG, parts: [p] } }),
    op: 'SendMessage',
    schema: SendMessageRequestSchema,
  } satisfies Table<Part>,
  {
    name: 'SendMessageConfiguration',
    fields: {
      acceptedOutputModes: STRINGS,
      historyLength: HISTORY,
      returnImmediately: { good: [true, false], bad: ['true', 1] },
      // Needs URL parsing: rare, left to zod.
      taskPushNotificationConfig: {
        good: [],
        bad: [{}, { url: 'ftp://x.test/h' }, 'x'],
        zodOnly: [{ url: 'https://x.test/h', token: 't' }],
      },
    },
    schemaKeys: Object.keys(SendMessageRequestSchema.shape.configuration.unwrap().shape),
    required: [],
    base: {},
    request: (c) => ({ message: MSG, configuration: c }),
    op: 'SendMessage',
    schema: SendMessageRequestSchema,
  } satisfies Table<SendMessageConfiguration>,
  {
    name: 'GetTaskRequest',
    fields: { tenant: STRING, id: NON_EMPTY, historyLength: HISTORY },
    schemaKeys: Object.keys(GetTaskRequestSchema.shape),
    required: ['id'],
    base: { id: 't-1' },
    request: (o) => o,
    op: 'GetTask',
    schema: GetTaskRequestSchema,
  } satisfies Table<GetTaskRequest>,
  {
    name: 'CancelTaskRequest',
    fields: { tenant: STRING, id: NON_EMPTY, metadata: STRUCT },
    schemaKeys: Object.keys(CancelTaskRequestSchema.shape),
    required: ['id'],
    base: { id: 't-1' },
    request: (o) => o,
    op: 'CancelTask',
    schema: CancelTaskRequestSchema,
  } satisfies Table<CancelTaskRequest>,
  {
    name: 'SubscribeToTaskRequest',
    fields: { tenant: STRING, id: NON_EMPTY },
    schemaKeys: Object.keys(SubscribeToTaskRequestSchema.shape),
    required: ['id'],
    base: { id: 't-1' },
    request: (o) => o,
    op: 'SubscribeToTask',
    schema: SubscribeToTaskRequestSchema,
  } satisfies Table<SubscribeToTaskRequest>,
];

function verdicts(table: (typeof TABLES)[number], shape: object) {
  const input = wire(table.request(shape));
  const fast = FAST_CHECKS[table.op]!(input);
  const parsed = table.schema.safeParse(input);
  return { input, fast, parsed };
}

for (const table of TABLES) {
  describe(`${table.name}: types, schema and fast check agree member by member`, () => {
    test('the table lists exactly the schema members (and, by its type, exactly the type members)', () => {
      assert.deepEqual(Object.keys(table.fields).sort(), [...table.schemaKeys].sort());
    });

    test('the base shape is taken fast and zod returns it unchanged', () => {
      const { input, fast, parsed } = verdicts(table, table.base);
      assert.equal(fast, input);
      assert.ok(parsed.success);
      assert.deepStrictEqual(parsed.data, input);
    });

    for (const [field, c] of Object.entries(table.fields) as Array<[string, FieldCase]>) {
      const at = (value: unknown) => ({ ...(c.base ?? table.base), [field]: value });
      test(`${field}: ${c.good.length} accepted by both, ${c.bad.length} refused by both`, () => {
        for (const value of c.good) {
          const { input, fast, parsed } = verdicts(table, at(value));
          const what = `${field} = ${JSON.stringify(value)}`;
          assert.equal(fast, input, `${what}: the fast check must take it`);
          assert.ok(parsed.success, `${what}: zod must take it`);
          assert.deepStrictEqual(parsed.data, input, `${what}: zod must not reshape it`);
        }
        for (const value of c.zodOnly ?? []) {
          const { fast, parsed } = verdicts(table, at(value));
          assert.equal(fast, undefined, `${field} = ${JSON.stringify(value)} is left to zod`);
          assert.ok(parsed.success, `${field} = ${JSON.stringify(value)}: zod must take it`);
        }
        for (const value of c.bad) {
          const { fast, parsed } = verdicts(table, at(value));
          assert.equal(
            fast,
            undefined,
            `${field} = ${JSON.stringify(value)}: the fast check must not take it`,
          );
          assert.equal(
            parsed.success,
            false,
            `${field} = ${JSON.stringify(value)}: zod must refuse it`,
          );
        }
      });
    }

    if (table.required.length > 0) {
      test(`required members (${table.required.join(', ')}): without any one of them, both refuse`, () => {
        for (const field of table.required) {
          const shape: Record<string, unknown> = { ...table.base };
          delete shape[field];
          const { fast, parsed } = verdicts(table, shape);
          assert.equal(fast, undefined, `without ${field}`);
          assert.equal(parsed.success, false, `without ${field}`);
        }
      });
    }
  });
}

test('Part: two content members are refused by both; none is refused by both', () => {
  const part = TABLES.find((t) => t.name === 'Part')!;
  for (const shape of [
    { text: 'a', url: 'https://x.test/f' },
    { raw: 'AAAA', data: 1 },
    { mediaType: 'text/plain' },
  ]) {
    const { fast, parsed } = verdicts(part, shape);
    assert.equal(fast, undefined, JSON.stringify(shape));
    assert.equal(parsed.success, false, JSON.stringify(shape));
  }
});
