/**
 * `a2a card | get | list | cancel | subscribe` and the agent flags (--token, --header, --binding,
 * --tenant, --trust-jwks, --verbose) against a2a-kit agents on 127.0.0.1:0, through the built binary.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { a2a, a2aBackground, ndjson, startAgents, TOKEN, type TestAgents } from './cli-fixture.js';

/** Starts a task that runs until canceled; returns its id. */
async function waitingTask(url: string, extra: string[] = []): Promise<string> {
  const r = await a2a(['send', url, 'wait', '--no-wait', '--json', ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return ndjson(r)[0].task.id as string;
}

describe('a2a card', () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('shows interfaces with the chosen one and why, capabilities, skills, security, signature and cache headers', async () => {
    const r = await a2a(['card', agents.streaming.url]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    assert.match(out, /^streamer 1\.2\.3 {2}— the streamer test agent$/m);
    assert.match(
      out,
      new RegExp(
        `^  card +${agents.streaming.url}/\\.well-known/agent-card\\.json  \\(HTTP 200\\)$`,
        'm',
      ),
    );
    assert.match(out, /^ {2}→ \[0\] JSONRPC 1\.0 +http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc$/m);
    assert.match(
      out,
      /^ {4}\[1\] HTTP\+JSON 1\.0 +http:\/\/127\.0\.0\.1:\d+\/a2a\/rest {2}fallback$/m,
    );
    assert.match(out, /^ {2}why: chose \[0\] JSONRPC 1\.0 at /m);
    assert.match(out, /^ {2}streaming {11}yes$/m);
    assert.match(out, /^ {2}push notifications {2}yes$/m);
    assert.match(out, /^ {2}extended card {7}no$/m);
    assert.match(out, /^ {2}chat {2}Chat {2}\[test\]$/m);
    assert.match(out, /^ {2}none: anonymous calls$/m);
    assert.match(
      out,
      new RegExp(
        `^  signed, not verified  ES256 kid ${agents.kid} — no trusted keys given; pass --trust-jwks FILE\\|URL to check it$`,
        'm',
      ),
    );
    assert.match(out, /^ {2}Cache-Control {3}public, max-age=300$/m);
    assert.match(out, /^ {2}ETag {12}"[^"]+"$/m);
    assert.match(out, /a client may reuse it for 300 s, then revalidate with If-None-Match/);
  });

  it('--binding HTTP+JSON moves the choice to the REST interface; an agent without it: exit 4', async () => {
    const rest = await a2a(['card', agents.streaming.url, '--binding', 'http+json']);
    assert.match(rest.stdout, /^ {4}\[0\] JSONRPC 1\.0 .* binding not spoken$/m);
    assert.match(rest.stdout, /^ {2}→ \[1\] HTTP\+JSON 1\.0 /m);
    const none = await a2a(['send', agents.plain.url, 'hi', '--binding', 'rest']);
    assert.equal(none.code, 4, none.stderr);
    assert.match(none.stderr, /offers \[0\] JSONRPC 1\.0 .*this client speaks HTTP\+JSON/);
  });

  it('--trust-jwks: verified with the right key; with the wrong key, "does not verify" and exit 4', async () => {
    const good = await a2a(['card', agents.streaming.url, '--trust-jwks', agents.jwksFile]);
    assert.equal(good.code, 0, good.stderr);
    assert.match(
      good.stdout,
      new RegExp(`^  ✓ verified  ES256, key ${agents.kid} \\(trusted via --trust-jwks\\)$`, 'm'),
    );
    const bad = await a2a(['card', agents.streaming.url, '--trust-jwks', agents.wrongJwksFile]);
    assert.equal(bad.code, 4);
    assert.match(
      bad.stdout,
      /✗ does not verify {2}signatures\[0\].*the signature does not match the card content/,
    );
    assert.match(bad.stderr, /a2a: the card's signature is not accepted/);
    // Calls refuse such a card before sending anything.
    const send = await a2a([
      'send',
      agents.streaming.url,
      'hi',
      '--trust-jwks',
      agents.wrongJwksFile,
    ]);
    assert.equal(send.code, 4);
    assert.equal(send.stdout, '');
    // An unsigned card passes unless signatures are required.
    assert.equal((await a2a(['card', agents.plain.url, '--trust-jwks', agents.jwksFile])).code, 0);
    const required = await a2a(['card', agents.plain.url, '--require-signature']);
    assert.equal(required.code, 4);
    assert.match(required.stdout, /^ {2}unsigned$/m);
  });

  it('--json prints the card as served', async () => {
    const r = await a2a(['card', agents.streaming.url, '--json']);
    assert.equal(r.code, 0);
    const card = JSON.parse(r.stdout);
    assert.equal(card.name, 'streamer');
    assert.equal(card.signatures.length, 1);
    assert.equal(card.supportedInterfaces.length, 2);
  });

  it('--extended needs the token (exit 5 without), and shows what the extended card adds', async () => {
    const anonymous = await a2a(['card', agents.secured.url, '--extended']);
    assert.equal(anonymous.code, 5, anonymous.stderr);
    assert.match(anonymous.stderr, /pass a token with --token \(or set A2A_TOKEN\)/);
    const r = await a2a(['card', agents.secured.url, '--extended', '--token', TOKEN]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}card +extended card from GetExtendedAgentCard/m);
    assert.match(r.stdout, /^ {2}compared with the public card: adds skill\(s\) admin$/m);
    assert.match(r.stdout, /^ {2}bearer +HTTP Bearer$/m);
    const json = await a2a(['card', agents.secured.url, '--extended', '--json'], {
      env: { A2A_TOKEN: TOKEN },
    });
    assert.deepEqual(
      JSON.parse(json.stdout).skills.map((s: { id: string }) => s.id),
      ['chat', 'admin'],
    );
    const none = await a2a(['card', agents.streaming.url, '--extended']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /streamer declares no extended card/);
  });
});

describe('a2a get | list | cancel | subscribe', () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('get: the task with its artifacts and history; --json the Task; unknown id: exit 1', async () => {
    const sent = ndjson(await a2a(['send', agents.streaming.url, 'work 1', '--json']));
    const id = sent[0].task.id as string;
    const r = await a2a(['get', agents.streaming.url, id, '--history-length', '5']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0], `task ${id}  COMPLETED`);
    assert.ok(r.lines.includes('  status    did 1 steps'));
    assert.ok(r.lines.includes('  artifact story: once upon a time'));
    assert.ok(r.lines.includes('    user  work 1'));
    const json = JSON.parse((await a2a(['get', agents.streaming.url, id, '--json'])).stdout);
    assert.equal(json.id, id);
    assert.equal(json.status.state, 'TASK_STATE_COMPLETED');
    const missing = await a2a([
      'get',
      agents.streaming.url,
      '00000000-0000-4000-8000-000000000000',
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /TaskNotFound, -32001/);
  });

  it('list: filters by state and context, pages with --page-token', async () => {
    for (const n of [1, 2, 3])
      assert.equal(
        (await a2a(['send', agents.plain.url, `work ${n}`, '--context', 'ctx-list'])).code,
        0,
      );
    await a2a(['send', agents.plain.url, 'fail', '--context', 'ctx-list']);
    const page1 = await a2a([
      'list',
      agents.plain.url,
      '--context',
      'ctx-list',
      '--status',
      'completed',
      '--page-size',
      '2',
    ]);
    assert.equal(page1.code, 0, page1.stderr);
    assert.equal(page1.lines.length, 2);
    assert.ok(
      page1.lines.every((l) => /^[0-9a-f-]{36} {2}COMPLETED {6}/.test(l)),
      page1.stdout,
    );
    const token = /next page: --page-token (\S+)/.exec(page1.stderr)?.[1];
    assert.ok(token, page1.stderr);
    const page2 = JSON.parse(
      (
        await a2a([
          'list',
          agents.plain.url,
          '--context',
          'ctx-list',
          '--status',
          'COMPLETED',
          '--page-size',
          '2',
          '--page-token',
          token,
          '--json',
        ])
      ).stdout,
    );
    assert.equal(page2.tasks.length, 1);
    assert.equal(page2.totalSize, 3);
    const failed = await a2a([
      'list',
      agents.plain.url,
      '--context',
      'ctx-list',
      '--status',
      'failed',
    ]);
    assert.equal(failed.lines.length, 1);
    assert.match(failed.lines[0]!, /FAILED .*it broke$/);
  });

  it('cancel: the new state; a finished task cannot be canceled (exit 1)', async () => {
    const id = await waitingTask(agents.streaming.url);
    const r = await a2a(['cancel', agents.streaming.url, id]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0], `task ${id} CANCELED`);
    const again = await a2a(['cancel', agents.streaming.url, id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /TaskNotCancelable/);
  });

  it('subscribe: live events until the task ends, exit by state (CANCELED 7); a finished task is shown as it ended', async () => {
    const id = await waitingTask(agents.streaming.url);
    const sub = a2aBackground(['subscribe', agents.streaming.url, id]);
    await sub.waitFor('stdout', /WORKING {2}waiting until canceled/);
    assert.equal((await a2a(['cancel', agents.streaming.url, id])).code, 0);
    const r = await sub.exit;
    assert.equal(r.code, 7, r.stderr);
    assert.equal(r.lines.at(-1), 'CANCELED');
    const ended = await a2a(['subscribe', agents.streaming.url, id, '--json']);
    assert.equal(ended.code, 7);
    assert.equal(ndjson(ended)[0].task.status.state, 'TASK_STATE_CANCELED');
  });

  it('subscribe --last-event-id resumes after an event instead of starting with the task', async () => {
    const id = await waitingTask(agents.streaming.url);
    const first = a2aBackground(['subscribe', agents.streaming.url, id, '--json', '--verbose']);
    const eventId = (await first.waitFor('stderr', /event id (\S+)/))[1]!;
    first.kill('SIGINT');
    const interrupted = await first.exit;
    assert.equal(interrupted.code, 130);
    assert.match(
      interrupted.stderr,
      new RegExp(`resume with: a2a subscribe \\S+ ${id} --last-event-id ${eventId}`),
    );
    // Whether the cancel lands before or after the resumed subscription opens, the agent replays what came after eventId.
    const resumed = a2aBackground([
      'subscribe',
      agents.streaming.url,
      id,
      '--json',
      '--last-event-id',
      eventId,
    ]);
    assert.equal((await a2a(['cancel', agents.streaming.url, id])).code, 0);
    const r = await resumed.exit;
    assert.equal(r.code, 7, r.stderr);
    const events = ndjson(r);
    assert.ok(
      !events.some((e) => 'task' in e),
      'a resumed stream does not start over with the task',
    );
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_CANCELED');
  });

  it('subscribe to an agent that does not stream: polls GetTask', async () => {
    const id = await waitingTask(agents.plain.url);
    const sub = a2aBackground(['subscribe', agents.plain.url, id]);
    await sub.waitFor('stderr', /plain does not stream; polling GetTask/);
    await sub.waitFor('stdout', /WORKING {2}waiting until canceled/);
    assert.equal((await a2a(['cancel', agents.plain.url, id])).code, 0);
    const r = await sub.exit;
    assert.equal(r.code, 7);
    assert.equal(r.lines.at(-1), 'CANCELED');
  });
});

describe('a2a agent flags', () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('a bearer agent: exit 5 without a token; --token or A2A_TOKEN works; a wrong token is exit 5', async () => {
    const none = await a2a(['send', agents.secured.url, 'work 1']);
    assert.equal(none.code, 5);
    assert.match(none.stderr, /a2a: the agent refused the call: .*\(Unauthenticated\)/);
    assert.equal((await a2a(['send', agents.secured.url, 'work 1', '--token', TOKEN])).code, 0);
    assert.equal(
      (await a2a(['send', agents.secured.url, 'work 1'], { env: { A2A_TOKEN: TOKEN } })).code,
      0,
    );
    assert.equal(
      (await a2a(['send', agents.secured.url, 'work 1', '--token', 'wrong-token-0123456789'])).code,
      5,
    );
  });

  it('--verbose prints the exchanges on stderr with the credential masked; --header and --tenant go out', async () => {
    const r = await a2a([
      'send',
      agents.secured.url,
      'echo hi',
      '--verbose',
      '--token',
      TOKEN,
      '--header',
      'X-Trace: cli-1',
      '--tenant',
      'acme',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, ['message  hi'], 'stdout stays clean');
    assert.match(r.stderr, /^→ GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/m);
    assert.match(r.stderr, /^← HTTP 200 \d+ ms$/m);
    assert.match(
      r.stderr,
      /^→ SendStreamingMessage JSONRPC http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc$/m,
    );
    assert.match(r.stderr, /^ {2}X-Trace: cli-1$/m);
    assert.match(
      r.stderr,
      new RegExp(`^  [Aa]uthorization: Bearer ••••\\(${TOKEN.length} chars\\)$`, 'm'),
    );
    assert.ok(!r.stderr.includes(TOKEN), 'the token itself is never printed');
    assert.match(r.stderr, /"tenant":"acme"/);
    assert.match(r.stderr, /^← HTTP 200 SendStreamingMessage \d+ ms, 1 event\(s\), stream ended$/m);
  });

  it('--tenant scopes the tasks: a task made in one tenant is listed there only', async () => {
    const id = ndjson(
      await a2a(['send', agents.streaming.url, 'work 1', '--tenant', 'acme', '--json']),
    )[0].task.id;
    const inAcme = JSON.parse(
      (await a2a(['list', agents.streaming.url, '--tenant', 'acme', '--json'])).stdout,
    );
    assert.ok(inAcme.tasks.some((t: { id: string }) => t.id === id));
    const elsewhere = JSON.parse(
      (await a2a(['list', agents.streaming.url, '--tenant', 'globex', '--json'])).stdout,
    );
    assert.ok(!elsewhere.tasks.some((t: { id: string }) => t.id === id));
  });
});
