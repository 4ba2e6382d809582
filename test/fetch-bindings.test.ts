/**
 * The Web `Request → Response` path, with no node:http server in the loop: every §5.1 equivalence
 * scenario (every operation, every error kind the service produces, streams) runs over both bindings
 * through `toFetchHandler` called with `new Request(…)`, and must reach the same outcome as the same
 * scenario over a real node:http server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../src/protocol/index.js';
import { createAgentServer } from '../src/server/index.js';
import { toFetchHandler, type FetchHandler } from '../src/server/adapters/fetch.js';
import { CASES, type Ctx } from './equivalence-cases.js';
import { WEB, webRequest } from './fetch-fixture.js';
import {
  BINDINGS,
  call,
  message,
  normalize,
  optionsFor,
  outcomeOf,
  request,
  startAgent,
  type Binding,
  type Kind,
  type Outcome,
} from './rest-fixture.js';

const KINDS = ['full', 'bare', 'ext'] as const;
const handlers = {} as Record<Kind, FetchHandler>;
const origins = {} as Record<Kind, string>;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  for (const kind of KINDS) {
    const web = createAgentServer(optionsFor(kind));
    handlers[kind] = toFetchHandler(web, { origin: WEB });
    closers.push(() => web.close(100));
    const node = await startAgent(kind);
    origins[kind] = node.origin;
    closers.push(node.close);
  }
});
after(async () => {
  await Promise.all(closers.map((c) => c()));
});

function webCtx(handle: FetchHandler, binding: Binding, tenant: string | undefined): Ctx {
  const t = tenant !== undefined ? { tenant } : {};
  return {
    call: async (op, params = {}, o = {}) =>
      outcomeOf(binding, await webRequest(handle, binding, op, params, { ...t, ...o })),
    open: (op, params = {}, o = {}) => webRequest(handle, binding, op, params, { ...t, ...o }),
    read: (res) => outcomeOf(binding, res as Response),
  };
}

function nodeCtx(origin: string, binding: Binding, tenant: string | undefined): Ctx {
  const t = tenant !== undefined ? { tenant } : {};
  return {
    call: (op, params = {}, o = {}) => call(origin, binding, op, params, { ...t, ...o }),
    open: (op, params = {}, o = {}) => request(origin, binding, op, params, { ...t, ...o }),
    read: (res) => outcomeOf(binding, res as Response),
  };
}

/** What must match: status, the A2A-Extensions echo, and the result, events or error (ids and times aside). */
function comparable(o: Outcome): unknown {
  const body = o.error
    ? { kind: o.error.kind, message: o.error.message, details: o.error.details }
    : o.events
      ? { events: o.events }
      : { result: o.result };
  return normalize({
    status: o.status,
    extensions: o.headers.get('a2a-extensions'),
    challenge: o.headers.get('www-authenticate'),
    ...body,
  });
}

describe('every operation over the fetch handler matches node:http, on both bindings', () => {
  for (const c of CASES) {
    for (const tenant of [undefined, 'tenant-w']) {
      test(`${c.name}${tenant ? ' [tenant]' : ''} → ${c.expect}`, async () => {
        for (const b of BINDINGS) {
          const web = await c.run(webCtx(handlers[c.agent], b, tenant));
          if (c.expect === 'ok') {
            assert.equal(
              web.error,
              undefined,
              `[${b}] unexpected error ${JSON.stringify(web.error)}`,
            );
          } else {
            assert.equal(
              web.error?.kind,
              c.expect,
              `[${b}] expected ${c.expect}, got ${JSON.stringify(web.error ?? web.result)}`,
            );
            const spec = ERRORS[c.expect];
            const want =
              b === 'rest' ? spec.httpStatus : c.expect === 'Unauthenticated' ? 401 : 200;
            assert.equal(web.status, want, `[${b}] HTTP status`);
          }
          c.check?.(web);
          const node = await c.run(nodeCtx(origins[c.agent], b, tenant));
          assert.deepEqual(
            comparable(web),
            comparable(node),
            `[${b}] the Web answer differs from the node:http one`,
          );
        }
      });
    }
  }
});

describe('multi-tenancy over the fetch handler', () => {
  for (const b of BINDINGS) {
    test(`[${b}] a task created under tenant A is TaskNotFound under tenant B`, async () => {
      const h = handlers.full;
      const created = await outcomeOf(
        b,
        await webRequest(
          h,
          b,
          'SendMessage',
          { message: message('echo scoped') },
          { tenant: 'tenant-a' },
        ),
      );
      const id = created.result.task.id;
      assert.equal(
        (await outcomeOf(b, await webRequest(h, b, 'GetTask', { id }, { tenant: 'tenant-a' })))
          .result.id,
        id,
      );
      assert.equal(
        (await outcomeOf(b, await webRequest(h, b, 'GetTask', { id }, { tenant: 'tenant-b' })))
          .error?.kind,
        'TaskNotFound',
      );
    });
  }
});
