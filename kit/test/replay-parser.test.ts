import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bindExpectation,
  HttpFileParseError,
  parseExpectation,
  parseHttpFile,
  parseJsonPath,
} from '../src/replay/index.js';

const FILE = `# Scenario header comment
@port = 41242
@base = http://localhost:{{port}}
// another comment style

### 1 · discover code-reviewer
# @name card
# @expect status 200
# @expect header Content-Type contains application/json
GET /.well-known/agent-card.json HTTP/1.1
Host: localhost:{{port}}
Accept: application/json

### 6 · CreateTaskPushNotificationConfig: not supported
# @note editors show this; replay ignores it
# @expect body $.error.code == -32003
# @expect body $.error.data[0].reason == "PUSH_NOTIFICATION_NOT_SUPPORTED"
# @expect body $.error.message contains "not supported"
# @wait 200
POST {{base}}/a2a/jsonrpc
Content-Type: application/json
// a comment between headers
If-None-Match: {{card.response.headers.ETag}}

{
  "jsonrpc": "2.0",
  "id": 6,
  # a comment: REST Client drops it
  "method": "CreateTaskPushNotificationConfig",
  "params": { "taskId": "00000000-0000-4000-8000-000000000000" }
}


###
# @retry-until body $.result.status.state == "TASK_STATE_COMPLETED"
# @retry-max 5
# @timeout 500 ms
# @max-events 3
GET http://localhost:41241/tasks/{{card.response.body.$.name}}
    ?a=1
    &b=2
`;

test('parses variables, titles, names, headers, bodies and directives', () => {
  const file = parseHttpFile(FILE, { path: 'x.http' });
  assert.deepEqual([...file.variables.keys()], ['port', 'base']);
  assert.equal(file.variables.get('base')?.value, 'http://localhost:{{port}}');
  assert.equal(file.requests.length, 3);

  const [one, six, poll] = file.requests;
  assert.ok(one && six && poll);
  assert.equal(one.title, '1 · discover code-reviewer');
  assert.equal(one.name, 'card');
  assert.equal(one.method, 'GET');
  assert.equal(one.target, '/.well-known/agent-card.json');
  assert.equal(one.line, 10);
  assert.deepEqual(one.headers, [
    { name: 'Host', value: 'localhost:{{port}}' },
    { name: 'Accept', value: 'application/json' },
  ]);
  assert.equal(one.body, undefined);
  assert.deepEqual(
    one.expectations.map((e) => e.subject.kind),
    ['status', 'header'],
  );

  assert.equal(six.title, '6 · CreateTaskPushNotificationConfig: not supported');
  assert.equal(six.target, '{{base}}/a2a/jsonrpc');
  assert.equal(six.waitMs, 200);
  assert.deepEqual(
    six.headers.map((h) => h.name),
    ['Content-Type', 'If-None-Match'],
  );
  assert.ok(six.body?.startsWith('{\n  "jsonrpc": "2.0"'));
  assert.ok(
    !six.body?.includes('# not a comment'),
    'comment lines are dropped from the body, as REST Client does',
  );
  assert.ok(six.body?.includes('"id": 6,\n  "method"'));
  assert.ok(six.body?.endsWith('}'), 'trailing blank lines are dropped');
  assert.equal(six.expectations.length, 3);
  assert.deepEqual(six.expectations[1]?.subject, {
    kind: 'body',
    path: ['error', 'data', 0, 'reason'],
    pathText: '$.error.data[0].reason',
  });
  assert.deepEqual(six.expectations[1]?.check, {
    op: '==',
    value: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  });

  assert.equal(
    poll.title,
    'GET http://localhost:41241/tasks/{{card.response.body.$.name}}?a=1&b=2',
  );
  assert.equal(poll.retry?.maxTries, 5);
  assert.equal(poll.retry?.until.source, 'body $.result.status.state == "TASK_STATE_COMPLETED"');
  assert.equal(poll.timeoutMs, 500);
  assert.equal(poll.maxEvents, 3);
  assert.deepEqual(file.warnings, []);
});

test('a bare URL line is a GET, HTTP/1.1 is optional, response blocks are skipped', () => {
  const saved =
    '### a saved response is skipped, as editors do\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{}\n';
  const file = parseHttpFile(
    `http://127.0.0.1:1/a HTTP/1.1\n\n${saved}###\nDELETE http://127.0.0.1:1/b\n`,
  );
  assert.deepEqual(
    file.requests.map((r) => [r.method, r.target]),
    [
      ['GET', 'http://127.0.0.1:1/a'],
      ['DELETE', 'http://127.0.0.1:1/b'],
    ],
  );
});

test('every problem is reported with its line, and editor-only directives are tolerated', () => {
  const bad = [
    '### a',
    '# @expect body $.state == TASK_STATE_COMPLETED',
    '# @expect body state exists',
    '# @name dup',
    'GET http://localhost/a',
    '',
    '{}',
    '# @expect status 200',
    '### b',
    '# @name dup',
    '# @wait 999999',
    '# @frobnicate yes',
    'POST http://localhost/b',
    'not a header',
    '',
    'HTTP/1.1 200 OK',
  ].join('\n');
  let err: unknown;
  try {
    parseHttpFile(bad, { path: 'bad.http' });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof HttpFileParseError);
  const lines = err.diagnostics.map((d) => d.line).sort((a, b) => a - b);
  assert.deepEqual(lines, [2, 3, 8, 11, 13, 14, 16]);
  assert.match(err.message, /bad\.http:2: @expect: value is not a JSON literal/);
  assert.match(err.message, /bad\.http:8: @expect after the blank line that starts the body/);
  assert.match(err.message, /duplicate @name dup/);
  assert.match(err.message, /response status line/);

  const ok = parseHttpFile('# @no-redirect\n# @frobnicate\nGET http://localhost/\n', {
    path: 'w.http',
  });
  assert.deepEqual(ok.warnings, ['w.http:2: unknown directive @frobnicate (ignored)']);
  assert.deepEqual(
    parseHttpFile('@a = 1\n### only comments\n# nothing\n', { path: 'e.http' }).warnings,
    ['e.http: no requests in this file'],
  );
});

test('expectations parse into typed predicates', () => {
  assert.deepEqual(parseExpectation('status 200', 1).check, { op: '==', value: 200 });
  assert.deepEqual(parseExpectation('status in [200, 304]', 1).check, {
    op: 'in',
    value: [200, 304],
  });
  assert.deepEqual(parseExpectation('header ETag exists', 1), {
    source: 'header ETag exists',
    line: 1,
    subject: { kind: 'header', name: 'ETag' },
    check: { op: 'exists' },
  });
  assert.deepEqual(parseExpectation('header Content-Type contains application/json', 1).check, {
    op: 'contains',
    value: 'application/json',
  });
  assert.deepEqual(
    parseExpectation(
      'body $.result.task.status.state in ["TASK_STATE_COMPLETED","TASK_STATE_WORKING"]',
      1,
    ).check,
    { op: 'in', value: ['TASK_STATE_COMPLETED', 'TASK_STATE_WORKING'] },
  );
  assert.deepEqual(parseExpectation('body $.x absent', 1).check, { op: 'absent' });
  assert.deepEqual(parseExpectation('body $.n>=2', 1).check, { op: '>=', value: 2 });
  assert.deepEqual(parseExpectation('events count >= 2', 1), {
    source: 'events count >= 2',
    line: 1,
    subject: { kind: 'eventsCount' },
    check: { op: '>=', value: 2 },
  });
  const dyn = parseExpectation('body $.result.id == "{{send.response.body.$.id}}"', 1);
  assert.equal(dyn.dynamic, true);
  assert.deepEqual(bindExpectation(dyn, (t) => t.replace(/\{\{.*\}\}/, 'abc')).check, {
    op: '==',
    value: 'abc',
  });
  assert.equal(parseExpectation('status 200', 1).dynamic, undefined);
  assert.equal(parseExpectation('body $.id matches "^[0-9a-f-]{36}$"', 1).check.op, 'matches');
  for (const bad of [
    'status',
    'status exists',
    'body $.x',
    'body $.x < "a"',
    'body $.x in 3',
    'events 2',
    'cookie x == 1',
    'status == "200"',
  ]) {
    assert.throws(() => parseExpectation(bad, 1), Error, bad);
  }
});

test('JSONPath subset', () => {
  assert.deepEqual(parseJsonPath('$'), []);
  assert.deepEqual(parseJsonPath('$.events[-1].result[\'task\']["id"]'), [
    'events',
    -1,
    'result',
    'task',
    'id',
  ]);
  assert.throws(() => parseJsonPath('$..a'));
  assert.throws(() => parseJsonPath('$.a[*]'));
  assert.throws(() => parseJsonPath('a.b'));
});
