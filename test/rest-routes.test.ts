/**
 * HTTP+JSON binding at the HTTP level (§11): every route with and without a tenant, wrong verbs,
 * bodies, media types, size limits, query typing (§11.5), odd path values, answer media types.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { matchRoute } from '../src/server/bindings/rest-routes.js';
import { message, startAgent } from './rest-fixture.js';
import { restRouteTable } from '../src/server/bindings/rest-routes.js';

let origin = '';
let base = '';
let close: () => Promise<void>;
const V = { 'a2a-version': '1.0' };
const JSON_H = { ...V, 'content-type': 'application/a2a+json' };

before(async () => {
  const a = await startAgent('full', { maxBodyBytes: 2048 });
  origin = a.origin;
  base = `${origin}/a2a/rest`;
  close = a.close;
});
after(() => close());

async function send(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
) {
  const res = await fetch(base + path, {
    method,
    headers: init.headers ?? V,
    body: init.body ?? null,
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body:
      text && !text.startsWith('id:') && !text.startsWith('data:') ? JSON.parse(text) : undefined,
  };
}

function violation(body: any, field: string): string | undefined {
  const br = body.error.details.find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
  );
  return br?.fieldViolations.find((v: any) => v.field === field)?.description;
}

const reason = (body: any): string => body.error.details.find((d: any) => d.reason).reason;
/** A concrete path for a template; `{…}` filled with a value that needs no encoding. */
const fill = (template: string): string => template.replace(/\{\w+\}/g, 'x1');

const ROUTES = restRouteTable();
const TEMPLATES = [...new Set(ROUTES.map(([, p]) => p))];

describe('§11.3 routes', () => {
  for (const template of TEMPLATES) {
    const verbs = ROUTES.filter(([, p]) => p === template).map(([v]) => v);
    for (const prefix of ['', '/tenant-a']) {
      test(`wrong verb on ${prefix}${template} → 405 with Allow: ${verbs.join(', ')}`, async () => {
        for (const wrong of ['PUT', 'PATCH', 'GET', 'POST', 'DELETE'].filter(
          (v) => !verbs.includes(v as never),
        )) {
          const r = await send(wrong, prefix + fill(template));
          assert.equal(r.status, 405, `${wrong} ${template}`);
          assert.deepEqual(r.headers.get('allow')!.split(', ').sort(), [...verbs].sort());
          assert.equal(r.body.error.code, 405);
          assert.equal(reason(r.body), 'METHOD_NOT_FOUND');
        }
      });
    }
  }

  for (const [verb, template, op] of ROUTES.filter(([v]) => v === 'POST')) {
    test(`${verb} ${template} (${op}): bad JSON → 400, non-object → 400, wrong media type → 415, too large → 413`, async () => {
      const path = fill(template);
      const bad = await send('POST', path, { headers: JSON_H, body: '{"message": ' });
      assert.equal(bad.status, 400);
      assert.equal(reason(bad.body), 'PARSE_ERROR');
      const arr = await send('POST', path, { headers: JSON_H, body: '[1]' });
      assert.equal(arr.status, 400);
      assert.ok(violation(arr.body, '(body)'));
      const text = await send('POST', path, {
        headers: { ...V, 'content-type': 'text/plain' },
        body: '{}',
      });
      assert.equal(text.status, 415);
      assert.match(text.body.error.message, /application\/a2a\+json/);
      const none = await send('POST', path, { headers: V, body: '{}' });
      assert.equal(none.status, 415, 'a body without a content type');
      const latin = await send('POST', path, {
        headers: { ...V, 'content-type': 'application/json; charset=iso-8859-1' },
        body: '{}',
      });
      assert.equal(latin.status, 415);
      const big = await send('POST', path, {
        headers: JSON_H,
        body: JSON.stringify({ pad: 'x'.repeat(4096) }),
      });
      assert.equal(big.status, 413);
      assert.equal(big.body.error.code, 413);
    });
  }

  test('unknown routes → 404 in the google.rpc.Status form, not TaskNotFound', async () => {
    for (const path of [
      '/nope',
      '/tasks/x1/extra/y',
      '/tenant-a/tasks/x1/nope',
      '/message',
      '/message:fly',
      '/',
    ]) {
      const r = await send('GET', path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error.code, 404);
      assert.equal(reason(r.body), 'METHOD_NOT_FOUND');
    }
  });

  test('application/json with a UTF-8 charset is accepted; the answer is application/a2a+json', async () => {
    const r = await send('POST', '/message:send', {
      headers: { ...V, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ message: message('echo') }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/a2a+json');
  });

  test('a client that accepts only application/json gets application/json', async () => {
    const r = await send('GET', '/tasks', { headers: { ...V, accept: 'application/json' } });
    assert.equal(r.headers.get('content-type'), 'application/json');
  });

  test('CancelTask and SubscribeToTask (POST) need no body', async () => {
    const started = await send('POST', '/message:send', {
      headers: JSON_H,
      body: JSON.stringify({
        message: message('slow'),
        configuration: { returnImmediately: true },
      }),
    });
    const id = started.body.task.id;
    const sub = await fetch(`${base}/tasks/${id}:subscribe`, {
      method: 'POST',
      headers: V,
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(sub.status, 200);
    assert.equal(sub.headers.get('content-type'), 'text/event-stream');
    const canceled = await send('POST', `/tasks/${id}:cancel`);
    assert.equal(canceled.body.status.state, 'TASK_STATE_CANCELED');
    const events = (await sub.text()).split('\n\n').filter((e) => e.includes('data:'));
    assert.ok(
      events.every((e) => /^id: \S+\ndata: \{/.test(e)),
      'every event has an id and a bare JSON data line',
    );
    assert.equal(
      JSON.parse(events.at(-1)!.split('data: ')[1]!).statusUpdate.status.state,
      'TASK_STATE_CANCELED',
    );
  });

  test('a path value that contradicts the body is a 400 naming the field', async () => {
    const r = await send('POST', '/tasks/abc:cancel', {
      headers: JSON_H,
      body: JSON.stringify({ id: 'other' }),
    });
    assert.equal(r.status, 400);
    assert.match(violation(r.body, 'id')!, /path/);
  });
});

describe('§11.3 path values', () => {
  test('percent-encoded ids are decoded: an encoded slash or unicode id is simply not found', async () => {
    for (const id of ['a/b', 'ü-日本', 'a:cancel', 'x?y#z']) {
      const r = await send('GET', `/tasks/${encodeURIComponent(id)}`);
      assert.equal(r.status, 404, id);
      assert.equal(reason(r.body), 'TASK_NOT_FOUND');
      assert.equal(r.body.error.details[0].metadata.taskId, id);
    }
  });

  test('empty, malformed or control-character ids → 400 naming the parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/tasks/:cancel', 'id'],
      ['GET', '/tasks/', 'id'],
      ['GET', '/tasks//pushNotificationConfigs', 'taskId'],
      ['GET', '/tasks/x1/pushNotificationConfigs/', 'id'],
      ['GET', '/tasks/%E0%A4%A', 'id'],
      ['GET', '/tasks/a%00b', 'id'],
      ['GET', '/%ZZ/tasks', 'tenant'],
    ];
    for (const [verb, path, field] of cases) {
      const r = await send(verb, path);
      assert.equal(r.status, 400, `${verb} ${path}`);
      assert.ok(violation(r.body, field), `${path} names ${field}: ${r.text}`);
    }
  });

  test('a tenant named like a collection still reaches its operations where the path is unambiguous', async () => {
    const r = await send('POST', '/tasks/message:send', {
      headers: JSON_H,
      body: JSON.stringify({ message: message('echo') }),
    });
    assert.equal(r.status, 200);
    const id = r.body.task.id;
    assert.equal((await send('GET', `/tasks/tasks/${id}`)).body.id, id);
  });

  test('a body member named __proto__ stays a member: it never becomes the prototype of the request', async () => {
    // With the tenant from the path the binding copies the body to pin the tenant into it; a copy that set
    // the prototype would read "other" as the body's tenant and refuse the request as contradicting the path.
    const body = `{"__proto__":{"tenant":"other"},"message":${JSON.stringify(message('echo'))}}`;
    const r = await send('POST', '/acme/message:send', { headers: JSON_H, body });
    assert.equal(r.status, 200, r.text);
    assert.equal((await send('GET', `/acme/tasks/${r.body.task.id}`)).status, 200);
  });
});

describe('§11.5 query parameters', () => {
  test('numbers and booleans are parsed strictly; bad values → 400 naming the parameter', async () => {
    const bad: Array<[string, string]> = [
      ['/tasks?pageSize=ten', 'pageSize'],
      ['/tasks?pageSize=1.5', 'pageSize'],
      ['/tasks?pageSize=', 'pageSize'],
      ['/tasks?pageSize=1&pageSize=2', 'pageSize'],
      ['/tasks?pageSize=0', 'pageSize'],
      ['/tasks?historyLength=-1', 'historyLength'],
      ['/tasks?includeArtifacts=yes', 'includeArtifacts'],
      ['/tasks?includeArtifacts=TRUE', 'includeArtifacts'],
      ['/tasks?statusTimestampAfter=yesterday', 'statusTimestampAfter'],
      ['/tasks?status=DONE', 'status'],
      ['/tasks/x1?historyLength=abc', 'historyLength'],
      ['/tasks/x1/pushNotificationConfigs?pageSize=-', 'pageSize'],
    ];
    for (const [path, field] of bad) {
      const r = await send('GET', path);
      assert.equal(r.status, 400, path);
      assert.equal(r.body.error.status, 'INVALID_ARGUMENT');
      assert.ok(violation(r.body, field), `${path} names ${field}: ${r.text}`);
    }
  });

  test('camelCase filters work: contextId, status, pageSize, historyLength, includeArtifacts, statusTimestampAfter', async () => {
    const created = await send('POST', '/message:send', {
      headers: JSON_H,
      body: JSON.stringify({ message: message('echo q') }),
    });
    const { contextId } = created.body.task;
    const q = new URLSearchParams({
      contextId,
      status: 'TASK_STATE_COMPLETED',
      pageSize: '5',
      historyLength: '1',
      includeArtifacts: 'true',
      statusTimestampAfter: '2020-01-01T00:00:00Z',
      unknownParam: 'ignored',
    });
    const r = await send('GET', `/tasks?${q}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.tasks.length, 1);
    assert.equal(r.body.tasks[0].history.length, 1);
    assert.equal(r.body.tasks[0].artifacts[0].parts[0].text, 'echo q');
    assert.equal(r.body.pageSize, 5);
    const none = await send('GET', `/tasks?contextId=${contextId}&status=TASK_STATE_WORKING`);
    assert.deepEqual(none.body.tasks, []);
  });

  test('§3.6.1 A2A-Version may travel as a query parameter', async () => {
    const r = await fetch(`${base}/tasks?A2A-Version=1.0`);
    assert.equal(r.status, 200);
    const missing = await fetch(`${base}/tasks`);
    assert.equal(missing.status, 400);
    assert.equal((await missing.json()).error.details[0].reason, 'VERSION_NOT_SUPPORTED');
  });
});

describe('§11.7 streaming', () => {
  test('SubscribeToTask with Last-Event-ID replays what the client missed, on GET and POST', async () => {
    const res = await fetch(`${base}/message:stream`, {
      method: 'POST',
      headers: JSON_H,
      body: JSON.stringify({ message: message('echo again') }),
    });
    const events = (await res.text()).split('\n\n').filter((e) => e.startsWith('id:'));
    const parsed = events.map((e) => ({
      id: /^id: (\S+)/.exec(e)![1]!,
      data: JSON.parse(e.split('data: ')[1]!),
    }));
    assert.ok(parsed.length >= 3);
    const taskId = parsed[0]!.data.task.id;
    for (const method of ['GET', 'POST']) {
      const again = await fetch(`${base}/tasks/${taskId}:subscribe`, {
        method,
        headers: { ...V, 'last-event-id': parsed[0]!.id },
        signal: AbortSignal.timeout(5000),
      });
      assert.equal(again.status, 200, method);
      const replay = (await again.text()).split('\n\n').filter((e) => e.startsWith('id:'));
      assert.deepEqual(
        replay.map((e) => /^id: (\S+)/.exec(e)![1]),
        parsed.slice(1).map((e) => e.id),
        method,
      );
    }
  });
});

test('every route of fixed segments is found at its path, for each of its verbs, without and with a tenant', () => {
  const fixed = restRouteTable().filter(([, path]) => !path.includes('{'));
  assert.ok(fixed.length >= 4);
  for (const [verb, path, name] of fixed) {
    const plain = matchRoute(verb, path);
    assert.equal(plain.kind, 'found', `${verb} ${path}`);
    if (plain.kind !== 'found') continue;
    assert.equal(plain.op.name, name);
    assert.deepEqual(plain.params, {});
    assert.equal(plain.tenant, undefined);
    const tenanted = matchRoute(verb, `/acme${path}`);
    assert.ok(
      tenanted.kind === 'found' && tenanted.op.name === name && tenanted.tenant === 'acme',
      `${verb} /acme${path}`,
    );
  }
});
