/**
 * §5.1 functional equivalence: every scenario runs over JSON-RPC, HTTP+JSON and gRPC, with and
 * without a tenant, against real servers; all three bindings must reach the same outcome (same result
 * up to ids and timestamps, or the same error kind with each binding's own code and status).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../src/protocol/index.js';
import { GRPC_CODES } from '../src/protocol/grpc/index.js';
import { CASES, type Ctx } from './equivalence-cases.js';
import {
  closeRawClients,
  grpcCall,
  grpcOpen,
  startGrpcAgent,
  type GrpcOpened,
} from './grpc-fixture.js';
import type { OperationName } from '../src/protocol/index.js';
import {
  BINDINGS as HTTP_BINDINGS,
  call as httpCall,
  message,
  normalize,
  outcomeOf,
  request,
  type Binding as HttpBinding,
  type CallOptions,
  type Kind,
  type Outcome,
} from './rest-fixture.js';

type Binding = HttpBinding | 'grpc';
const BINDINGS: Binding[] = [...HTTP_BINDINGS, 'grpc'];

/** Where each agent listens: its HTTP origin and its gRPC target. */
const origins = {} as Record<Kind, { http: string; grpc: string }>;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  for (const kind of ['full', 'bare', 'ext'] as const) {
    const a = await startGrpcAgent(kind);
    origins[kind] = { http: a.origin, grpc: a.grpc.target };
    closers.push(a.close);
  }
});
after(async () => {
  closeRawClients();
  await Promise.all(closers.map((c) => c()));
});

/** Perform `op` on `binding` of the agent at `at`. */
function call(
  at: { http: string; grpc: string },
  binding: Binding,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions = {},
): Promise<Outcome> {
  return binding === 'grpc'
    ? grpcCall(at.grpc, op, params, o)
    : httpCall(at.http, binding, op, params, o);
}

function ctx(
  at: { http: string; grpc: string },
  binding: Binding,
  tenant: string | undefined,
): Ctx {
  const t = tenant !== undefined ? { tenant } : {};
  if (binding === 'grpc') {
    return {
      call: (op, params = {}, o = {}) => grpcCall(at.grpc, op, params, { ...t, ...o }),
      open: (op, params = {}, o = {}) => grpcOpen(at.grpc, op, params, { ...t, ...o }),
      read: (opened) => (opened as GrpcOpened).done,
    };
  }
  return {
    call: (op, params = {}, o = {}) => httpCall(at.http, binding, op, params, { ...t, ...o }),
    open: async (op, params = {}, o = {}) => {
      const res = await request(at.http, binding, op, params, { ...t, ...o });
      assert.equal(res.status, 200, `[${binding}] ${op} answered`);
      return res;
    },
    read: (res) => outcomeOf(binding, res as Response),
  };
}

/** What must match across bindings: the result or events, or the error kind, message and A2A details. */
function comparable(o: Outcome): unknown {
  if (o.error) {
    const details = o.error.details.filter((d: any) => d.domain !== 'a2a-kit');
    return normalize({ kind: o.error.kind, message: o.error.message, details });
  }
  return normalize(o.events ? { events: o.events } : { result: o.result });
}

describe('§5.1 the same scenario over JSON-RPC, HTTP+JSON and gRPC', () => {
  for (const c of CASES) {
    for (const tenant of [undefined, 'tenant-a']) {
      test(`${c.name}${tenant ? ' [tenant]' : ''} → ${c.expect}`, async () => {
        const outcomes = {} as Record<Binding, Outcome>;
        for (const b of BINDINGS) {
          const o = await c.run(ctx(origins[c.agent], b, tenant));
          outcomes[b] = o;
          if (c.expect === 'ok') {
            assert.equal(o.error, undefined, `[${b}] unexpected error ${JSON.stringify(o.error)}`);
          } else {
            assert.equal(
              o.error?.kind,
              c.expect,
              `[${b}] expected ${c.expect}, got ${JSON.stringify(o.error ?? o.result)}`,
            );
            const spec = ERRORS[c.expect];
            const wantStatus =
              b === 'grpc'
                ? GRPC_CODES[spec.grpcStatus as keyof typeof GRPC_CODES]
                : b === 'rest'
                  ? spec.httpStatus
                  : c.expect === 'Unauthenticated'
                    ? 401
                    : 200;
            assert.equal(o.status, wantStatus, `[${b}] ${b === 'grpc' ? 'gRPC' : 'HTTP'} status`);
            if (spec.a2a) {
              const info = o.error.details.find((d: any) => d.reason === spec.reason);
              assert.equal(
                info?.domain,
                'a2a-protocol.org',
                `[${b}] ErrorInfo with reason ${spec.reason}`,
              );
            }
            if (c.expect === 'Unauthenticated')
              assert.equal(o.headers.get('www-authenticate'), 'Bearer realm="test"');
          }
          c.check?.(o);
        }
        assert.deepEqual(
          comparable(outcomes.rest),
          comparable(outcomes.jsonrpc),
          'HTTP+JSON = JSON-RPC',
        );
        assert.deepEqual(
          comparable(outcomes.grpc),
          comparable(outcomes.jsonrpc),
          'gRPC = JSON-RPC',
        );
      });
    }
  }
});

describe('multi-tenancy: the tenant scopes every lookup, on every binding', () => {
  for (const b of BINDINGS) {
    test(`[${b}] a task created under tenant A is TaskNotFound under tenant B and without a tenant`, async () => {
      const origin = origins.full;
      const created = await call(
        origin,
        b,
        'SendMessage',
        { message: message('echo scoped') },
        { tenant: 'tenant-a' },
      );
      const id = created.result.task.id;
      assert.equal(
        (await call(origin, b, 'GetTask', { id }, { tenant: 'tenant-a' })).result.id,
        id,
      );
      for (const o of [{ tenant: 'tenant-b' }, {}]) {
        assert.equal((await call(origin, b, 'GetTask', { id }, o)).error?.kind, 'TaskNotFound');
        assert.equal((await call(origin, b, 'CancelTask', { id }, o)).error?.kind, 'TaskNotFound');
        assert.equal(
          (await call(origin, b, 'SubscribeToTask', { id }, o)).error?.kind,
          'TaskNotFound',
        );
        const listed = await call(
          origin,
          b,
          'ListTasks',
          { contextId: created.result.task.contextId },
          o,
        );
        assert.deepEqual(listed.result.tasks, []);
      }
      // The other bindings see the same store: tenant A's task is there, under tenant A only.
      for (const other of BINDINGS.filter((x) => x !== b)) {
        assert.equal(
          (await call(origin, other, 'GetTask', { id }, { tenant: 'tenant-a' })).result.id,
          id,
        );
        assert.equal(
          (await call(origin, other, 'GetTask', { id }, { tenant: 'tenant-b' })).error?.kind,
          'TaskNotFound',
        );
      }
    });
  }

  test('[rest] a body tenant equal to the path tenant is fine; a different one is a 400 naming tenant', async () => {
    const base = `${origins.full.http}/a2a/rest/tenant-a/message:send`;
    const headers = { 'a2a-version': '1.0', 'content-type': 'application/a2a+json' };
    const same = await fetch(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tenant: 'tenant-a', message: message('echo') }),
    });
    assert.equal(same.status, 200);
    assert.equal((await same.json()).task.status.state, 'TASK_STATE_COMPLETED');
    const clash = await fetch(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tenant: 'tenant-b', message: message('echo') }),
    });
    assert.equal(clash.status, 400);
    const body = await clash.json();
    const violations = body.error.details.find((d: any) => d.fieldViolations).fieldViolations;
    assert.equal(violations[0].field, 'tenant');
  });

  test('[rest] without a path tenant the body tenant scopes the call (body-based routing)', async () => {
    const headers = { 'a2a-version': '1.0', 'content-type': 'application/a2a+json' };
    const res = await fetch(`${origins.full.http}/a2a/rest/message:send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tenant: 'tenant-c', message: message('echo') }),
    });
    const id = (await res.json()).task.id;
    assert.equal(
      (await call(origins.full, 'rest', 'GetTask', { id }, { tenant: 'tenant-c' })).result.id,
      id,
    );
    assert.equal(
      (await call(origins.full, 'jsonrpc', 'GetTask', { id })).error?.kind,
      'TaskNotFound',
    );
  });
});
