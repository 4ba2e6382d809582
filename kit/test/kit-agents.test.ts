/**
 * The kit's three agents over real HTTP (KIT.md): cards as the manual describes them, the real work
 * behind each skill, refusals, and the seed's error exchange 6. Deployer flows: kit-agents-deployer.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  AUTH,
  UNKNOWN_TASK,
  artifactData,
  processGone,
  rest,
  rpc,
  send,
  startKit,
  statusText,
  stream,
  waitTask,
  type KitFixture,
} from './kit-agents-fixture.js';
import type { KitAgentName } from '../src/agents/cards.js';

let f: KitFixture;
before(async () => {
  f = await startKit();
});
after(async () => {
  await f?.close();
});

async function card(agent: KitAgentName): Promise<any> {
  const r = await fetch(`${f.kit.agents[agent].origin}/.well-known/agent-card.json`, {
    headers: { 'a2a-version': '1.0' },
  });
  assert.equal(r.status, 200);
  return r.json();
}

describe('cards (KIT.md agents table)', () => {
  test('each card lists JSON-RPC 1.0 then HTTP+JSON 1.0 on its own port, at localhost, with no tenant', async () => {
    for (const agent of ['test-runner', 'code-reviewer', 'deployer'] as const) {
      const c = await card(agent);
      const port = new URL(f.kit.agents[agent].origin).port;
      assert.equal(c.name, agent);
      // test-runner also lists JSON-RPC at 0.3, first (KIT.md: an entry a JSON-RPC 1.0 client skips).
      const v03 =
        agent === 'test-runner'
          ? [
              {
                url: `http://localhost:${port}/a2a/jsonrpc`,
                protocolBinding: 'JSONRPC',
                protocolVersion: '0.3',
              },
            ]
          : [];
      // The test-runner's GRPC entry is on a port of its own (the test below).
      assert.deepEqual(
        c.supportedInterfaces.filter((i: any) => i.protocolBinding !== 'GRPC'),
        [
          ...v03,
          {
            url: `http://localhost:${port}/a2a/jsonrpc`,
            protocolBinding: 'JSONRPC',
            protocolVersion: '1.0',
          },
          {
            url: `http://localhost:${port}/a2a/rest`,
            protocolBinding: 'HTTP+JSON',
            protocolVersion: '1.0',
          },
        ],
      );
      for (const s of c.skills)
        assert.ok(s.examples?.length > 0, `${agent} skill ${s.id} lists examples`);
    }
  });

  test('test-runner lists a GRPC 1.0 entry first, served by its own gRPC port; the others list none', async () => {
    const c = await card('test-runner');
    const grpc = f.kit.agents['test-runner'].server.grpc;
    assert.ok(grpc, 'the test-runner serves gRPC');
    assert.deepEqual(c.supportedInterfaces[0], {
      url: `http://localhost:${grpc.port}`,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
    for (const agent of ['code-reviewer', 'deployer'] as const) {
      assert.ok(
        !(await card(agent)).supportedInterfaces.some((i: any) => i.protocolBinding === 'GRPC'),
        agent,
      );
      assert.equal(f.kit.agents[agent].server.grpc, undefined);
    }
  });

  test('test-runner: run-tests, streaming and push', async () => {
    const c = await card('test-runner');
    assert.deepEqual(
      c.skills.map((s: any) => s.id),
      ['run-tests'],
    );
    assert.equal(c.capabilities.streaming, true);
    assert.equal(c.capabilities.pushNotifications, true);
    assert.equal(c.securitySchemes, undefined);
  });

  test('code-reviewer: review-code, streaming, and pushNotifications absent (not false)', async () => {
    const c = await card('code-reviewer');
    assert.deepEqual(
      c.skills.map((s: any) => s.id),
      ['review-code'],
    );
    assert.equal(c.capabilities.streaming, true);
    assert.equal('pushNotifications' in c.capabilities, false);
  });

  test('deployer: deploy only, no streaming, push, extended card, bearer required; the card itself is public', async () => {
    const c = await card('deployer');
    assert.deepEqual(
      c.skills.map((s: any) => s.id),
      ['deploy'],
    );
    assert.equal(c.capabilities.streaming, false);
    assert.equal(c.capabilities.pushNotifications, true);
    assert.equal(c.capabilities.extendedAgentCard, true);
    assert.deepEqual(c.securitySchemes, {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    });
    assert.deepEqual(c.securityRequirements, [{ schemes: { bearer: { list: [] } } }]);
  });

  test('deployer extended card adds rollback for an authenticated caller and is refused without a token', async () => {
    const ok = await rpc(f, 'deployer', 'GetExtendedAgentCard', {}, AUTH);
    assert.deepEqual(
      ok.body.result.skills.map((s: any) => s.id),
      ['deploy', 'rollback'],
    );
    const anon = await rpc(f, 'deployer', 'GetExtendedAgentCard', {});
    assert.equal(anon.status, 401);
    assert.match(anon.headers.get('www-authenticate') ?? '', /^Bearer\b/);
  });
});

describe('A2A 0.3 (issue 16)', () => {
  const v03Rpc = async (
    agent: KitAgentName,
    method: string,
    params: object,
    accept = 'application/json',
  ) => {
    const url = `${f.kit.agents[agent].origin}/a2a/jsonrpc`;
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
  };
  const v03Message = (text: string) => ({
    message: {
      kind: 'message',
      messageId: `m-${Math.random()}`,
      role: 'user',
      parts: [{ kind: 'text', text }],
    },
  });

  test('test-runner card fetched as curl does (no A2A-Version): supportedInterfaces and the 0.3 members in one card', async () => {
    const r = await fetch(`${f.kit.agents['test-runner'].origin}/.well-known/agent-card.json`);
    assert.match(r.headers.get('vary') ?? '', /A2A-Version/);
    const c = await r.json();
    const port = new URL(f.kit.agents['test-runner'].origin).port;
    const { protocolVersion, url, preferredTransport, additionalInterfaces, ...v10 } = c;
    assert.deepEqual(
      v10,
      await card('test-runner'),
      'every 1.0 member, supportedInterfaces included',
    );
    assert.ok(c.supportedInterfaces.some((i: any) => i.protocolVersion === '1.0'));
    assert.equal(protocolVersion, '0.3');
    assert.equal(url, `http://localhost:${port}/a2a/jsonrpc`);
    assert.equal(preferredTransport, 'JSONRPC');
    assert.deepEqual(additionalInterfaces, [{ url, transport: 'JSONRPC' }]);
  });

  test('§3.6.2 test-runner serves its JSONRPC 0.3 entry for real: A2A-Version 0.3 gets the pure 0.3 card, message/send runs the tests', async () => {
    const r = await fetch(`${f.kit.agents['test-runner'].origin}/.well-known/agent-card.json`, {
      headers: { 'a2a-version': '0.3' },
    });
    const c = await r.json();
    const port = new URL(f.kit.agents['test-runner'].origin).port;
    assert.equal(c.protocolVersion, '0.3');
    assert.equal(c.url, `http://localhost:${port}/a2a/jsonrpc`);
    assert.equal(c.supportedInterfaces, undefined);

    const sent = await (
      await v03Rpc('test-runner', 'message/send', v03Message('run tests in change-ok'))
    ).json();
    assert.equal(sent.result.kind, 'task', JSON.stringify(sent));
    assert.equal(sent.result.status.state, 'completed');
    assert.ok(
      sent.result.artifacts[0].parts.some((p: any) => p.kind === 'data' && p.data.failed === 0),
    );
    // The task created over 0.3 is the same task over 1.0.
    const got = await rpc(f, 'test-runner', 'GetTask', { id: sent.result.id });
    assert.equal(got.body.result.status.state, 'TASK_STATE_COMPLETED');
  });

  test('§3.6.2 code-reviewer stays 1.0 only: its card has no 0.3 form, and a 0.3 request gets VersionNotSupported', async () => {
    const plain = await (
      await fetch(`${f.kit.agents['code-reviewer'].origin}/.well-known/agent-card.json`)
    ).json();
    assert.deepEqual(plain, await card('code-reviewer'));
    const r = await (
      await v03Rpc('code-reviewer', 'message/send', v03Message('review change-ok'))
    ).json();
    assert.equal(r.error.code, -32009);
    assert.match(r.error.message, /no A2A-Version, which means 0\.3/);
  });
});

describe('test-runner', () => {
  test('change-ok → COMPLETED with passed > 0 and failed = 0, summary text and data part', async () => {
    const r = await rpc(f, 'test-runner', 'SendMessage', send([{ data: { path: 'change-ok' } }]));
    const task = r.body.result.task;
    assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
    const data = artifactData(task, 'test-results');
    assert.ok(data.passed > 0);
    assert.equal(data.failed, 0);
    assert.deepEqual(data.failures, []);
    const text = task.artifacts[0].parts.find((p: any) => typeof p.text === 'string').text;
    assert.match(text, /passed, 0 failed/);
  });

  test('change-broken (as text) → still COMPLETED, with failed > 0 and each failure named', async () => {
    const r = await rpc(
      f,
      'test-runner',
      'SendMessage',
      send([{ text: 'run tests in change-broken' }]),
    );
    const task = r.body.result.task;
    assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
    const data = artifactData(task, 'test-results');
    assert.ok(data.failed > 0);
    assert.equal(data.failures.length, data.failed);
    assert.ok(data.failures.every((x: any) => x.name && x.message && x.file));
  });

  test('streams one WORKING update per test before the result', async () => {
    const events = await stream(f, 'test-runner', send([{ data: { path: 'change-ok' } }]));
    const perTest = events.filter((e) =>
      e.statusUpdate?.status.message?.parts.some((p: any) => p.data?.event === 'test'),
    );
    const final = events.at(-1).statusUpdate.status.state;
    assert.equal(final, 'TASK_STATE_COMPLETED');
    const data = events
      .find((e) => e.artifactUpdate)
      ?.artifactUpdate.artifact.parts.find((p: any) => p.data).data;
    assert.equal(perTest.length, data.passed + data.failed + data.skipped);
    assert.ok(perTest.every((e) => e.statusUpdate.status.state === 'TASK_STATE_WORKING'));
  });

  test('a path outside the workspace → REJECTED with a clear message, nothing runs', async () => {
    for (const p of ['..', '../outside.test.js', '/etc']) {
      const r = await rpc(f, 'test-runner', 'SendMessage', send([{ data: { path: p } }]));
      const task = r.body.result.task;
      assert.equal(task.status.state, 'TASK_STATE_REJECTED', p);
      assert.match(statusText(task), /outside the workspace/);
    }
  });

  test('cancel kills the running test process tree → CANCELED', async () => {
    const r = await rpc(
      f,
      'test-runner',
      'SendMessage',
      send([{ data: { path: 'hang' } }], {}, { returnImmediately: true }),
    );
    const id = r.body.result.task.id;
    // Wait until the hanging test has started and told us its pid.
    await waitTask(f, 'test-runner', id, (t) =>
      (t.history ?? []).some((m: any) => /Running/.test(m.parts[0]?.text ?? '')),
    );
    let pid = 0;
    for (let i = 0; i < 600 && !pid; i++) {
      try {
        pid = Number(readFileSync(f.pidFile, 'utf8'));
      } catch {
        await new Promise((res) => setTimeout(res, 50));
      }
    }
    assert.ok(pid > 0, 'the hanging test started');
    const c = await rpc(f, 'test-runner', 'CancelTask', { id });
    assert.equal(c.body.result.status.state, 'TASK_STATE_CANCELED');
    assert.equal(await processGone(pid), true, 'the test process was killed');
    const later = await rpc(f, 'test-runner', 'GetTask', { id });
    assert.equal(later.body.result.status.state, 'TASK_STATE_CANCELED');
  });

  test('a run that passes the time limit is stopped → FAILED, with what ran so far as the artifact', async () => {
    const short = await startKit({ testTimeoutMs: 1500, warmUp: false });
    try {
      const r = await rpc(short, 'test-runner', 'SendMessage', send([{ data: { path: 'hang' } }]));
      const task = r.body.result.task;
      assert.equal(task.status.state, 'TASK_STATE_FAILED');
      assert.match(statusText(task), /did not finish within 1\.5 s/);
      assert.equal(artifactData(task, 'test-results').timedOut, true);
    } finally {
      await short.close();
    }
  });

  test('input it does not understand gets a message saying what it accepts', async () => {
    const r = await rpc(
      f,
      'test-runner',
      'SendMessage',
      send([{ text: 'hello, what can you do?' }]),
    );
    assert.ok(r.body.result.message, 'a direct Message, no task');
    assert.match(r.body.result.message.parts[0].text, /run tests in/);
  });
});

describe('code-reviewer', () => {
  test('a pasted snippet with a type error → COMPLETED with verdict request-changes', async () => {
    const r = await rpc(
      f,
      'code-reviewer',
      'SendMessage',
      send([{ text: 'const n: number = "seven";\nexport { n };\n' }]),
    );
    const task = r.body.result.task;
    assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
    const data = artifactData(task, 'review');
    assert.equal(data.verdict, 'request-changes');
    assert.ok(data.errors >= 1);
    assert.ok(data.findings.some((x: any) => x.rule === 'TS2322'));
  });

  test('file parts (raw base64 and text with filename) are reviewed file by file, streamed', async () => {
    const good = 'export const add = (a: number, b: number): number => a + b;\n';
    const events = await stream(
      f,
      'code-reviewer',
      send([
        {
          raw: Buffer.from(good).toString('base64'),
          filename: 'add.ts',
          mediaType: 'text/x-typescript',
        },
        { text: 'export function twice(x: number) { return x * 2; }\n', filename: 'twice.ts' },
      ]),
    );
    const files = events.filter((e) =>
      e.statusUpdate?.status.message?.parts.some((p: any) => p.data?.event === 'file'),
    );
    assert.equal(files.length, 2);
    const data = events
      .find((e) => e.artifactUpdate)
      ?.artifactUpdate.artifact.parts.find((p: any) => p.data).data;
    assert.equal(data.verdict, 'approve');
    assert.deepEqual([...data.files].sort(), ['add.ts', 'twice.ts']);
  });

  test('"review change-ok" reviews a workspace directory; outside it → REJECTED', async () => {
    const ok = await rpc(f, 'code-reviewer', 'SendMessage', send([{ text: 'review change-ok' }]));
    assert.equal(ok.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(artifactData(ok.body.result.task, 'review').verdict, 'approve');
    const out = await rpc(f, 'code-reviewer', 'SendMessage', send([{ data: { path: '../..' } }]));
    assert.equal(out.body.result.task.status.state, 'TASK_STATE_REJECTED');
  });

  test('gibberish gets a message saying what it accepts', async () => {
    const r = await rpc(f, 'code-reviewer', 'SendMessage', send([{ text: 'blorp zzz qwerty' }]));
    assert.match(r.body.result.message.parts[0].text, /I review JavaScript and TypeScript/);
  });

  test('seed exchange 6 / §3.3.4 push config without capability → -32003 over HTTP 200', async () => {
    const r = await rpc(f, 'code-reviewer', 'CreateTaskPushNotificationConfig', {
      taskId: UNKNOWN_TASK,
      url: 'https://planner.example/webhook',
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.error.code, -32003);
    assert.equal(r.body.error.message, 'Push notifications are not supported');
    assert.ok(r.body.error.data.some((d: any) => d.reason === 'PUSH_NOTIFICATION_NOT_SUPPORTED'));
  });

  test('the HTTP+JSON interface the card lists works too', async () => {
    const r = await rest(
      f,
      'code-reviewer',
      'POST',
      '/message:send',
      send([{ text: 'let x: string = 1;\nexport { x };' }]),
    );
    assert.equal(r.status, 200);
    assert.equal(artifactData(r.body.task, 'review').verdict, 'request-changes');
  });
});
