/**
 * `a2a push listen` through the built binary: a local webhook that an a2a-kit agent delivers to
 * (registered by `a2a send --push-url`), printing each notification once its token or signature
 * checks out, refusing the others, and stopping with --count or --until-done.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { a2a, a2aBackground, ndjson, startAgents, type TestAgents } from './cli-fixture.js';

describe('a2a push listen', () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('prints token-verified deliveries of a task registered with send --push-url, until the task is done', async () => {
    const listener = a2aBackground(['push', 'listen', '--until-done']);
    const url = (
      await listener.waitFor(
        'stderr',
        /listening for push notifications at (http:\/\/127\.0\.0\.1:\d+\/)/,
      )
    )[1]!;
    const token = (await listener.waitFor('stderr', /^token: (\S+)$/m))[1]!;
    // Never read as a flag where the listener's hint puts it (CI once drew a token starting with "-").
    assert.match(token, /^[0-9a-f]{48}$/);
    await listener.waitFor(
      'stderr',
      new RegExp(`register it: a2a send <agent-url> "…" --push-url ${url} --push-token ${token}`),
    );

    // Someone without the token is turned away, and the listener says so.
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-a2a-notification-token': 'nope' },
      body: '{}',
    });
    assert.equal(forged.status, 401);
    await listener.waitFor('stderr', /refused POST \/ from 127\.0\.0\.1: HTTP 401/);

    const sent = await a2a([
      'send',
      agents.streaming.url,
      'work 2',
      '--push-url',
      url,
      '--push-token',
      token,
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    const r = await listener.exit;
    assert.equal(r.code, 0, r.stderr);
    const id = /task ([0-9a-f-]{36})/.exec(sent.stdout)![1]!;
    assert.ok(r.lines.length >= 4, r.stdout);
    assert.ok(
      r.lines.every((l) => l.startsWith('push ') && l.endsWith('  (token)')),
      r.stdout,
    );
    assert.ok(r.lines.includes(`push ${id}  WORKING  step 2 of 2  (token)`), r.stdout);
    assert.equal(r.lines.at(-1), `push ${id}  COMPLETED  did 2 steps  (token)`);
  });

  it('--jwks: only signed notifications; --json lines; --until-done exits with the final state (FAILED 6)', async () => {
    const listener = a2aBackground([
      'push',
      'listen',
      '--jwks',
      `${agents.plain.url}/.well-known/a2a-push-jwks.json`,
      '--until-done',
      '--json',
    ]);
    const url = (await listener.waitFor('stderr', /listening for push notifications at (\S+)/))[1]!;
    assert.doesNotMatch(listener.stderr(), /^token:/m, 'no token when signatures are required');
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(unsigned.status, 401);

    const sent = await a2a(['send', agents.plain.url, 'fail', '--push-url', url]);
    assert.equal(sent.code, 6, sent.stderr);
    const r = await listener.exit;
    assert.equal(r.code, 6, r.stderr);
    const lines = ndjson(r);
    assert.ok(lines.length >= 1);
    for (const l of lines) {
      assert.deepEqual(Object.keys(l), ['taskId', 'kind', 'notificationId', 'verifiedBy', 'event']);
      assert.equal(l.verifiedBy, 'signature ES256 kid push-key');
    }
    const last = lines.at(-1);
    const state = last.event.task?.status.state ?? last.event.statusUpdate?.status.state;
    assert.equal(state, 'TASK_STATE_FAILED');
  });

  it('--count stops after N notifications; a busy port is exit 13, as in the kit', async () => {
    const listener = a2aBackground([
      'push',
      'listen',
      '--count',
      '2',
      '--json',
      '--push-token',
      'fixed-token-0123456789',
    ]);
    const url = await listener.waitFor(
      'stderr',
      /listening for push notifications at (http:\/\/127\.0\.0\.1:(\d+)\/)/,
    );
    const busy = await a2a(['push', 'listen', '--port', url[2]!]);
    assert.equal(busy.code, 13, busy.stderr);
    assert.match(
      busy.stderr,
      /cannot listen, the port is already in use \(127\.0\.0\.1:\d+\); choose another with --port/,
    );
    assert.equal(
      (
        await a2a([
          'send',
          agents.streaming.url,
          'work 3',
          '--push-url',
          url[1]!,
          '--push-token',
          'fixed-token-0123456789',
        ])
      ).code,
      0,
    );
    const r = await listener.exit;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(ndjson(r).length, 2);
  });
});
