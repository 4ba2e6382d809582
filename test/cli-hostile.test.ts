/**
 * `a2a` in front of a hostile agent (test/cli-hostile-agent.ts): whatever the agent puts in its card,
 * statuses, artifacts, errors or push notifications, no raw control character or bidi override reaches
 * the terminal, `--json` keeps the agent's bytes, and a card or answer without end, an endless stream
 * or silence ends the command with its own exit code instead of eating memory or hanging.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { a2a, a2aBackground, type Run } from './cli-fixture.js';
import { EVIL, RAW, startHostileAgent } from './cli-hostile-agent.js';

/** Neither stdout nor stderr carries a raw escape; the escapes are shown instead. */
function assertVisible(r: Run): void {
  assert.doesNotMatch(r.stdout, RAW, r.stdout);
  assert.doesNotMatch(r.stderr, RAW, r.stderr);
}

describe('a2a in front of a hostile agent', () => {
  let agent: Awaited<ReturnType<typeof startHostileAgent>>;
  before(async () => {
    agent = await startHostileAgent();
  });
  after(() => agent.close());

  it('card: every field shown with its escapes visible, with --verbose too', async () => {
    const r = await a2a(['card', agent.url('evil'), '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    assertVisible(r);
    assert.match(
      r.stdout,
      /Evil x\\x1b\]0;owned\\x07\\x1b\[2J\\x1b\[H\\x0dfake\\x9b31m\\x7f\\u202eevil\\u2066y/,
    );
  });

  it('card --json: the bytes as served (JSON escapes them already)', async () => {
    const r = await a2a(['card', agent.url('evil'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const card = JSON.parse(r.stdout) as { name: string };
    assert.equal(card.name, `Evil ${EVIL}`);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f]/);
  });

  it('send (streamed), send --no-stream (polled), get, subscribe: statuses, artifacts, history escaped', async () => {
    for (const args of [
      ['send', agent.url('evil'), 'hi', '--verbose'],
      ['send', agent.url('poll'), 'hi', '--verbose'],
      ['get', agent.url('evil'), 't1', '--history-length', '5'],
      ['subscribe', agent.url('evil'), 't1'],
    ]) {
      const r = await a2a(args);
      assert.equal(r.code, 0, `${args.join(' ')}\n${r.stderr}`);
      assertVisible(r);
      assert.match(r.stdout, /\\x1b\]0;owned/, args.join(' '));
    }
  });

  it("cancel: the agent's error message is escaped (exit 1)", async () => {
    const r = await a2a(['cancel', agent.url('evil'), 't1']);
    assert.equal(r.code, 1, r.stderr);
    assertVisible(r);
    assert.match(r.stderr, /cannot cancel x\\x1b/);
  });

  it('push listen: a notification full of escapes is printed escaped', async () => {
    const listener = a2aBackground(['push', 'listen', '--push-token', 'tok', '--count', '1']);
    const url = (await listener.waitFor('stderr', /at (http:\/\/127\.0\.0\.1:\d+\/)/))[1]!;
    const event = {
      statusUpdate: {
        taskId: `t${EVIL}`,
        contextId: 'c',
        status: {
          state: 'TASK_STATE_WORKING',
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: EVIL }] },
        },
      },
    };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-a2a-notification-token': 'tok' },
      body: JSON.stringify(event),
    });
    assert.ok(res.status < 300, String(res.status));
    const r = await listener.exit;
    assert.equal(r.code, 0, r.stderr);
    assertVisible(r);
    assert.match(r.stdout, /WORKING {2}x\\x1b\]0;owned/);
  });

  it('a card without end stops at the 10 MiB default (exit 11), or at --max-bytes', async () => {
    const r = await a2a(['card', agent.url('hugecard')]);
    assert.equal(r.code, 11, r.stderr);
    assert.match(r.stderr, /exceeds the limit of 10485760 bytes/);
    assert.match(r.stderr, /--max-bytes/);
    const small = await a2a(['send', agent.url('hugecard'), 'hi', '--max-bytes', '64KiB']);
    assert.equal(small.code, 11, small.stderr);
    assert.match(small.stderr, /exceeds the limit of 65536 bytes/);
  });

  it('an answer or a stream event without end stops at --max-bytes (exit 11)', async () => {
    for (const args of [
      ['get', agent.url('hugeanswer'), 't1'],
      ['send', agent.url('hugeanswer'), 'hi'],
      ['subscribe', agent.url('hugeanswer'), 't1'],
    ]) {
      const r = await a2a([...args, '--max-bytes', '1MiB']);
      assert.equal(r.code, 11, `${args.join(' ')}\n${r.stderr}`);
      assert.match(r.stderr, /exceeds the limit of 1048576/, args.join(' '));
    }
  });

  it('silence: card fetch and unary calls end at --timeout (exit 10)', async () => {
    for (const args of [
      ['card', agent.url('silentcard')],
      ['send', agent.url('silentcard'), 'hi'],
      ['get', agent.url('silent'), 't1'],
      ['cancel', agent.url('silent'), 't1'],
      ['send', agent.url('silent'), 'hi', '--no-stream'],
    ]) {
      const r = await a2a([...args, '--timeout', '300ms']);
      assert.equal(r.code, 10, `${args.join(' ')}\n${r.stderr}`);
      assert.match(r.stderr, /timed out|did not finish|timeout/i, args.join(' '));
    }
  });

  it('a stream with keep-alives and no event ends at --idle-timeout (exit 12)', async () => {
    for (const args of [
      ['send', agent.url('silent'), 'hi'],
      ['subscribe', agent.url('silent'), 't1'],
    ]) {
      const r = await a2a([...args, '--idle-timeout', '300ms']);
      assert.equal(r.code, 12, `${args.join(' ')}\n${r.stderr}`);
      assert.match(r.stderr, /nothing new from the agent for 300ms \(--idle-timeout\)/);
    }
  });

  it('a task polled without change ends at --idle-timeout (exit 12)', async () => {
    const r = await a2a(['send', agent.url('pollendless'), 'hi', '--idle-timeout', '1s']);
    assert.equal(r.code, 12, r.stderr);
    assertVisible(r);
  });

  it('an endless stream ends at --timeout (exit 10) with its output escaped', async () => {
    const r = await a2a(['send', agent.url('endless'), 'hi', '--timeout', '1s']);
    assert.equal(r.code, 10, r.stderr);
    assertVisible(r);
    assert.match(r.stdout, /step \d+ x\\x1b/);
  });
});
