/**
 * The protobuf codec and the gRPC helpers without a network: ProtoJSON ↔ protobuf round trips, the
 * ProtoJSON rules that matter on the wire (defaults, presence, oneofs, unknown enum values and
 * fields), errors that name the field, and the card checks for GRPC interfaces.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCard } from '../src/protocol/index.js';
import {
  ProtoError,
  decodeMessage,
  decodeStatus,
  encodeMessage,
  encodeStatus,
  grpcAuthority,
} from '../src/protocol/grpc/index.js';
import {
  assertGrpcInterfacesServed,
  unservedGrpcInterfaces,
} from '../src/server/mount/grpc-interfaces.js';

const roundTrip = (type: string, v: object) => decodeMessage(type, encodeMessage(type, v));

test('a task with every kind of part, Struct metadata and a timestamp survives the round trip', () => {
  const task = {
    id: 't',
    contextId: 'c',
    status: {
      state: 'TASK_STATE_INPUT_REQUIRED',
      timestamp: '2025-10-28T10:30:00.123Z',
      message: { messageId: 'q', role: 'ROLE_AGENT', parts: [{ text: 'which?' }] },
    },
    artifacts: [
      {
        artifactId: 'a',
        name: 'n',
        parts: [
          { text: 'héllo ✓', mediaType: 'text/plain' },
          { raw: Buffer.from([0, 1, 2, 250]).toString('base64'), filename: 'f.bin' },
          { url: 'https://x.test/f' },
          { data: { n: 1.5, s: 's', b: false, z: null, list: [1, [2], { deep: {} }] } },
          { data: [1, 'two'] },
          { data: null },
        ],
        metadata: { k: { nested: ['v'] } },
      },
    ],
    history: [
      {
        messageId: 'm',
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }],
        referenceTaskIds: ['r1'],
        extensions: ['https://e'],
      },
    ],
    metadata: { tag: 'x' },
  };
  assert.deepEqual(roundTrip('Task', task), task);
});

test('§5.6.1 timestamps: UTC with Z and milliseconds; finer precision kept; offsets normalised', () => {
  const ts = (t: string) =>
    (roundTrip('TaskStatus', { state: 'TASK_STATE_WORKING', timestamp: t }) as any).timestamp;
  assert.equal(ts('2025-10-28T10:30:00Z'), '2025-10-28T10:30:00.000Z');
  assert.equal(ts('2025-10-28T10:30:00.5Z'), '2025-10-28T10:30:00.500Z');
  assert.equal(ts('2025-10-28T10:30:00.123456Z'), '2025-10-28T10:30:00.123456Z');
  assert.equal(ts('2025-10-28T12:30:00+02:00'), '2025-10-28T10:30:00.000Z');
  assert.throws(
    () => encodeMessage('TaskStatus', { timestamp: 'yesterday' }),
    (e: unknown) => e instanceof ProtoError && e.field === 'timestamp',
  );
});

test('ProtoJSON defaults: implicit fields at their default are absent; optional ones keep presence', () => {
  assert.deepEqual(
    roundTrip('SendMessageConfiguration', {
      returnImmediately: false,
      historyLength: 0,
      acceptedOutputModes: [],
    }),
    { historyLength: 0 },
  );
  assert.deepEqual(roundTrip('GetTaskRequest', { tenant: '', id: 'x' }), { id: 'x' });
  assert.deepEqual(
    roundTrip('ListTasksRequest', { status: 'TASK_STATE_UNSPECIFIED', includeArtifacts: false }),
    { includeArtifacts: false },
  );
  // Members a JSON answer always has are filled in.
  assert.deepEqual(
    roundTrip('ListTasksResponse', { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 }),
    { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 },
  );
  assert.deepEqual(roundTrip('Empty', {}), {});
});

test('oneofs: the member name in ProtoJSON; on the wire the last member wins', () => {
  const scheme = {
    oauth2SecurityScheme: {
      flows: {
        deviceCode: {
          deviceAuthorizationUrl: 'https://d',
          tokenUrl: 'https://t',
          scopes: { read: 'r' },
        },
      },
    },
  };
  assert.deepEqual(roundTrip('SecurityScheme', scheme), scheme);
  const both = Buffer.concat([
    encodeMessage('Part', { text: 'first' }),
    encodeMessage('Part', { url: 'https://second' }),
  ]);
  assert.deepEqual(decodeMessage('Part', both), { url: 'https://second' });
});

test('maps: security schemes and requirements keep their keys', () => {
  const card = {
    name: 'n',
    description: 'd',
    version: '1',
    supportedInterfaces: [{ url: 'https://a', protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: true,
      extensions: [{ uri: 'https://e', required: true, params: { a: 1 } }],
    },
    securitySchemes: {
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
      tls: { mtlsSecurityScheme: {} },
    },
    securityRequirements: [
      { schemes: { key: { list: [] } } },
      { schemes: { tls: { list: ['s1', 's2'] } } },
    ],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'does', tags: ['t'] }],
    signatures: [{ protected: 'p', signature: 's', header: { kid: 'k' } }],
    iconUrl: 'https://i',
  };
  assert.deepEqual(roundTrip('AgentCard', card), card);
});

test('unknown fields are skipped; an unknown enum number decodes as the number', () => {
  const known = encodeMessage('GetTaskRequest', { id: 'x' });
  const withUnknown = Buffer.concat([Buffer.from([0x7a, 0x02, 0x68, 0x69]), known]); // field 15, "hi"
  assert.deepEqual(decodeMessage('GetTaskRequest', withUnknown), { id: 'x' });
  assert.deepEqual(roundTrip('ListTasksRequest', { status: 42 }), { status: 42 });
});

test('encoding errors name the field and say what it must be', () => {
  const check = (type: string, v: object, field: string) =>
    assert.throws(
      () => encodeMessage(type, v),
      (e: unknown) => e instanceof ProtoError && e.field === field,
      field,
    );
  check('SendMessageRequest', { message: { messageId: 1 } }, 'message.messageId');
  check(
    'SendMessageRequest',
    { message: { parts: [{ text: 'a' }, { raw: '***' }] } },
    'message.parts[1].raw',
  );
  check('SendMessageRequest', { message: { role: 'ROLE_ROBOT' } }, 'message.role');
  check('GetTaskRequest', { historyLength: 1.5 }, 'historyLength');
  check('Task', { metadata: { a: [1, () => 0] } }, 'metadata.a[1]');
});

test('nesting is bounded: a deeply nested Struct is refused, not recursed into until the stack breaks', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200; i++) deep = { d: deep };
  assert.throws(
    () => encodeMessage('Task', { id: 't', metadata: deep as object }),
    /nested too deeply/,
  );
});

test('§10.6 google.rpc.Status with ErrorInfo and BadRequest details survives the round trip', () => {
  const status = {
    code: 3,
    message: 'bad',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'INVALID_PARAMS',
        domain: 'a2a-kit',
        metadata: { taskId: 't' },
      },
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'message.parts', description: 'at least one part is required' }],
      },
      {
        '@type': 'type.googleapis.com/acme.Custom',
        value: Buffer.from('opaque').toString('base64'),
      },
    ],
  };
  assert.deepEqual(decodeStatus(encodeStatus(status)), status);
});

test('GRPC interface URLs: URL forms and bare host:port; the card check compares ports', () => {
  assert.deepEqual(grpcAuthority('https://agent.example.com/a2a/grpc'), {
    host: 'agent.example.com',
    port: 443,
    tls: true,
  });
  assert.deepEqual(grpcAuthority('http://127.0.0.1:50051'), {
    host: '127.0.0.1',
    port: 50051,
    tls: false,
  });
  assert.deepEqual(grpcAuthority('localhost:50051'), {
    host: 'localhost',
    port: 50051,
    tls: undefined,
  });
  assert.deepEqual(grpcAuthority('grpcs://[::1]:9'), { host: '::1', port: 9, tls: true });
  assert.equal(grpcAuthority('ftp://x:1'), undefined);
  const card = {
    supportedInterfaces: [
      { url: 'https://localhost:7000/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ],
  } as AgentCard;
  assert.deepEqual(unservedGrpcInterfaces(card, ['http://127.0.0.1:50051']), []);
  assert.deepEqual(unservedGrpcInterfaces(card, ['http://127.0.0.1:50052']), [
    { index: 1, url: 'http://localhost:50051' },
  ]);
  assert.throws(
    () => assertGrpcInterfacesServed(card, undefined),
    /supportedInterfaces\[1\] .*gRPC is not configured/,
  );
  assert.doesNotThrow(() => assertGrpcInterfacesServed(card, 'http://0.0.0.0:50051'));
});
