import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReport, parseHttpFile, replayHttpFile } from '../src/replay/index.js';
import type { Fixture } from './replay-fixture.js';
import { startFixture, STREAM_TASK_ID, TASK_ID } from './replay-fixture.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture();
});
after(() => fx.close());

const HAPPY = `@base = http://127.0.0.1:{{port}}
@rpc = {{base}}/a2a/jsonrpc
@token = from-the-file

### 1 · discover (Host-header form)
# @name card
# @expect status 200
# @expect header Content-Type contains application/json
# @expect header ETag exists
# @expect body $.name == "code-reviewer"
# @expect body $.capabilities.pushNotifications absent
GET /.well-known/agent-card.json HTTP/1.1
Host: 127.0.0.1:{{port}}
Accept: application/json

### 2 · revalidate with the captured ETag
# @expect status 304
# @expect body $ absent
GET {{base}}/.well-known/agent-card.json
If-None-Match: {{card.response.headers.ETag}}

### 3 · send
# @name send
# @expect body $.result.task.status.state in ["TASK_STATE_COMPLETED","TASK_STATE_WORKING"]
POST {{rpc}}
Content-Type: application/json
Authorization: Bearer {{token}}

{"jsonrpc":"2.0","id":"{{$guid}}","method":"SendMessage","params":{"message":{"messageId":"{{$uuid}}","parts":[{"text":"run {{$processEnv REPLAY_TEST_DIR}} at {{$timestamp}}"}]}}}

### 4 · poll with the captured task id
# @retry-until body $.result.status.state == "TASK_STATE_COMPLETED"
# @retry-max 10
# @wait 5
# @expect body $.result.id == "{{send.response.body.$.result.task.id}}"
POST {{rpc}}
Content-Type: application/json

{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"{{send.response.body.$.result.task.id}}"}}

### 5 · stream
# @name stream
# @expect header Content-Type contains text/event-stream
# @expect events count >= 2
# @expect body $.events[0].result.task.id exists
# @expect body $.events[-1].result.statusUpdate.status.state == "TASK_STATE_COMPLETED"
POST {{rpc}}
Content-Type: application/json

{"jsonrpc":"2.0","id":5,"method":"SendStreamingMessage","params":{}}

### 6 · CreateTaskPushNotificationConfig: not supported
# @expect status 200
# @expect body $.error.code == -32003
# @expect body $.error.data[0].reason == "PUSH_NOTIFICATION_NOT_SUPPORTED"
# @expect body $.error.message contains "not supported"
# @expect body $.result absent
POST {{rpc}}
Content-Type: application/json

{
  "jsonrpc": "2.0",
  "id": 6,
  "method": "CreateTaskPushNotificationConfig",
  "params": { "taskId": "{{stream.response.body.$.events[0].result.task.id}}" }
}

### 7 · redirects are reported, not followed
# @expect status 302
# @expect header Location == "http://example.com/"
GET {{base}}/redirect

### 8 · an open stream, read until two events
# @max-events 2
# @expect events count == 2
# @expect body $.events[1].n == 2
GET {{base}}/open-stream
`;

test('replays a scenario: Host form, 304, captured ids and headers, SSE, retry, error body', async () => {
  fx.seen.length = 0;
  const file = parseHttpFile(HAPPY, { path: 'happy.http' });
  const report = await replayHttpFile(file, {
    variables: { port: String(fx.port), token: 'secret-token' },
    env: { REPLAY_TEST_DIR: 'sample-change' },
  });
  assert.ok(report.passed, formatReport(report));
  assert.deepEqual(
    report.exchanges.map((e) => e.status),
    [200, 304, 200, 200, 200, 200, 302, 200],
  );
  assert.equal(report.exchanges[3]?.attempts, 3);
  assert.equal(
    report.exchanges[0]?.request,
    `GET http://127.0.0.1:${fx.port}/.well-known/agent-card.json`,
  );

  const rpc = fx.seen
    .filter((s) => s.url === '/a2a/jsonrpc')
    .map((s) => ({ s, body: JSON.parse(s.body) as Record<string, any> }));
  assert.equal(fx.seen[1]?.headers['if-none-match'], '"card-v1"');
  const send = rpc.find((r) => r.body.method === 'SendMessage');
  assert.equal(
    send?.s.headers.authorization,
    'Bearer secret-token',
    'programmatic variables override file variables',
  );
  assert.match(String(send?.body.id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  assert.match(send?.body.params.message.parts[0].text, /^run sample-change at \d{10}$/);
  const polls = rpc.filter((r) => r.body.method === 'GetTask');
  assert.deepEqual(
    polls.map((r) => r.body.params.id),
    [TASK_ID, TASK_ID, TASK_ID],
  );
  const push = rpc.find((r) => r.body.method === 'CreateTaskPushNotificationConfig');
  assert.equal(push?.body.params.taskId, STREAM_TASK_ID);
});

const FAILING = `@base = http://127.0.0.1:{{port}}

### f1 · wrong expectations
# @expect status 201
# @expect header Content-Type contains text/html
# @expect body $.name == "deployer"
# @expect body $.capabilities exists
# @expect body $.missing exists
# @expect events count >= 1
# @expect body $.name == "{{expectedName}}"
# @expect body $.name == "{{nope}}"
GET {{base}}/.well-known/agent-card.json

### f2 · refused absolute URL
# @name gone
# @expect status 200
GET http://example.com/

### f3 · refused Host form
GET /x HTTP/1.1
Host: example.org:80

### f4 · reference to a request that failed
GET {{base}}/tasks/{{gone.response.body.$.id}}

### f5 · unknown request and variable
GET {{base}}/{{nobody.response.headers.ETag}}/{{nope}}

### f6 · open stream times out
# @timeout 1 s
GET {{base}}/open-stream

### f7 · too big
GET {{base}}/big

### f8 · retry gives up
# @retry-until body $.result.status.state == "TASK_STATE_FAILED"
# @retry-max 2
POST {{base}}/a2a/jsonrpc

{"jsonrpc":"2.0","id":8,"method":"GetTask","params":{"id":"t"}}
`;

test('failures name the expectation with expected and actual; non-local targets are refused', async () => {
  const report = await replayHttpFile(parseHttpFile(FAILING), {
    variables: { port: String(fx.port), expectedName: 'test-runner' },
    maxBodyBytes: 1000,
    retryDelayMs: 1,
  });
  assert.equal(report.passed, false);
  const [f1, f2, f3, f4, f5, f6, f7, f8] = report.exchanges;
  assert.ok(f1 && f2 && f3 && f4 && f5 && f6 && f7 && f8);
  assert.deepEqual(
    f1.failures.map((f) => [f.expectation, f.expected, f.actual]),
    [
      ['status 201', '== 201', '200'],
      [
        'header Content-Type contains text/html',
        'contains "text/html"',
        '"application/json; charset=utf-8"',
      ],
      ['body $.name == "deployer"', '== "deployer"', '"code-reviewer"'],
      ['body $.missing exists', 'present', '(absent)'],
      ['events count >= 1', '>= 1', '(absent)'],
      ['body $.name == "test-runner"', '== "test-runner"', '"code-reviewer"'],
      ['body $.name == "{{nope}}"', undefined, undefined],
    ],
  );
  assert.equal(f1.failures[6]?.message, 'body $.name == "{{nope}}": undefined variable {{nope}}');
  assert.equal(f1.failures[0]?.line, 4);
  assert.equal(f1.status, 200);
  assert.equal(f2.status, undefined);
  assert.match(f2.failures[0]?.message ?? '', /^refused: example\.com is not localhost/);
  assert.match(f3.failures[0]?.message ?? '', /^refused: example\.org is not localhost/);
  assert.match(f4.failures[0]?.message ?? '', /request "gone" has no response yet/);
  assert.match(f5.failures[0]?.message ?? '', /no request named "nobody"/);
  assert.match(f6.failures[0]?.message ?? '', /^timed out after 1000 ms \(2 events so far/);
  assert.match(f7.failures[0]?.message ?? '', /larger than 1000 bytes/);
  assert.equal(f8.attempts, 2);
  assert.match(
    f8.failures[0]?.message ?? '',
    /still not true after 2 tries: expected == "TASK_STATE_FAILED", actual "TASK_STATE_/,
  );
  assert.match(
    formatReport(report),
    /^✘ f1 · wrong expectations · 200 · line 4: status 201: expected == 201, actual 200; /m,
  );
});

test('an undefined variable fails the exchange before anything is sent', async () => {
  fx.seen.length = 0;
  const report = await replayHttpFile(
    parseHttpFile('GET http://127.0.0.1:{{port}}/{{missing}}\n'),
    { variables: { port: String(fx.port) } },
  );
  assert.equal(report.exchanges[0]?.failures[0]?.message, 'undefined variable {{missing}}');
  assert.equal(fx.seen.length, 0);
});
