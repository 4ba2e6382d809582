/**
 * The planner against the real kit agents (port 0, temp workspace): the whole pipeline, the stop at
 * failing tests, interface choice (§8.3.2), capability checks before calls (§3.3.4), the deployer's
 * token, and card signatures (§8.4). Traffic is observed by proxies in front of the agents.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import {
  PlannerWebhook,
  Transcript,
  discover,
  runPlanner,
  type PipelineResult,
} from '../src/planner/index.js';
import { sendAndFollow } from '../src/planner/follow.js';
import type { CardTrust } from 'a2a-kit/client';
import { AUTH, TOKEN, rpc, startKit, type KitFixture } from './kit-agents-fixture.js';
import {
  observingProxy,
  plannerConfig,
  transcriptSink,
  type ObservingProxy,
  type SeenRequest,
} from './kit-planner-fixture.js';

const NAMES = ['test-runner', 'code-reviewer', 'deployer'] as const;
const direct = (f: KitFixture): string[] => NAMES.map((n) => f.kit.agents[n].baseUrl);

async function plan(
  f: KitFixture,
  cfg: Parameters<typeof plannerConfig>[1] & { agents?: string[] },
  trust?: CardTrust,
) {
  const sink = transcriptSink();
  const result = await runPlanner(
    plannerConfig(cfg.agents ?? direct(f), { deployerToken: TOKEN, ...cfg }),
    {
      out: sink.out,
      workspaceRoot: f.workspace,
      ...(trust ? { trust } : {}),
    },
  );
  return { result, text: sink.text() };
}

const states = (r: PipelineResult) => r.tasks.map((t) => t.status.state);

describe('planner on signed agents', () => {
  let f: KitFixture;
  let trust: CardTrust;
  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    trust = {
      keys: [
        {
          kid: 'kit-test',
          key: { ...(await exportJWK(publicKey)), kid: 'kit-test', alg: 'ES256' },
        },
      ],
    };
    f = await startKit({ signingKeys: [{ privateKey, kid: 'kit-test', alg: 'ES256' }] });
  });
  after(() => f?.close());

  it('change-ok goes through tests → review → deploy to production, confirmed via input-required (§8.4 required, trusted key)', async () => {
    const { result, text } = await plan(f, { verifyCards: 'required' }, trust);
    assert.equal(result.ok, true, text);
    assert.equal(result.stoppedAt, undefined);
    assert.deepEqual(
      states(result),
      ['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED'],
      text,
    );
    const current = path.join(f.releases, 'production', 'current');
    assert.ok(existsSync(current), `no release at ${current}`);
    assert.match(readlinkSync(current), /releases\//);
    // The transcript: discovery table, interface choices, skill map, states, artifacts, outcome.
    assert.match(text, /Discovery/);
    assert.match(text, /agent\s+interface chosen\s+streaming\s+push\s+auth\s+skills/);
    assert.match(
      text,
      /code-reviewer\s+\[0\] JSONRPC 1\.0 \S+\/a2a\/jsonrpc\s+yes\s+absent\s+none\s+review-code/,
    );
    assert.match(text, /deployer\s+\[0\] JSONRPC 1\.0 \S+\s+no\s+yes\s+bearer\s+deploy/);
    assert.doesNotMatch(
      text,
      /chose \[0\]/,
      'the table shows each choice; no second line says it again',
    );
    // test-runner lists JSON-RPC 0.3 first: the planner (1.0 only by default) skips it and says why.
    assert.match(text, /test-runner\s+\[2\] JSONRPC 1\.0/);
    assert.match(
      text,
      /test-runner: skipped \[0\] GRPC 1\.0: binding not spoken; skipped \[1\] JSONRPC 0\.3: version not spoken/,
    );
    assert.match(text, /signature ✓ ES256 kid=kit-test/);
    assert.match(
      text,
      /deployer: token accepted; extended card \(signature ✓ ES256 kid=kit-test\) adds skill\(s\) rollback/,
    );
    assert.match(
      text,
      /skill map: run-tests → test-runner, review-code → code-reviewer, deploy → deployer/,
    );
    assert.match(text, /INPUT_REQUIRED/);
    assert.match(text, /answers "confirm"/);
    assert.match(text, /COMPLETED/);
    assert.match(text, /artifact test-results: change-ok: 8 passed, 0 failed/);
    assert.match(text, /artifact review: .*approve/);
    assert.match(text, /artifact release: Deployed change-ok/);
    assert.match(text, /✔ change-ok passed tests and review and is live on production/);
  });

  it('without confirmation the deploy task is canceled and the run is not ok', async () => {
    const { result, text } = await plan(
      f,
      { verifyCards: 'required', confirmProduction: false },
      trust,
    );
    assert.equal(result.ok, false, text);
    assert.equal(result.stoppedAt, 'deploy');
    assert.equal(result.tasks.at(-1)?.status.state, 'TASK_STATE_CANCELED', text);
    assert.match(text, /not confirming/);
    assert.match(text, /CancelTask → task \w+ CANCELED/);
    assert.match(text, /✘ deploy ended TASK_STATE_CANCELED \(the planner did not confirm\)\n/);
  });

  it('§8.4 a tampered card (description changed after signing) is refused: the signature does not match', async () => {
    const proxy = await observingProxy(
      f.kit.agents['code-reviewer'],
      (c) => ({ ...c, description: `${c.description} (now with extras)` }),
      { moveUrls: false },
    );
    try {
      const agents = [
        f.kit.agents['test-runner'].baseUrl,
        proxy.base,
        f.kit.agents.deployer.baseUrl,
      ];
      const { result, text } = await plan(f, { agents, verifyCards: 'required' }, trust);
      assert.equal(result.ok, false);
      assert.equal(result.tasks.length, 0, 'nothing delegated');
      assert.match(result.summary, /code-reviewer/);
      assert.match(result.summary, /signature does not match/);
      assert.doesNotMatch(text, /Tests →/);
      // Even when signatures are only checked if present, a signature that does not match refuses the agent.
      const ifSigned = await plan(f, { agents, verifyCards: 'if-signed' }, trust);
      assert.equal(ifSigned.result.ok, false);
      assert.match(ifSigned.result.summary, /signature does not match/);
    } finally {
      await proxy.close();
    }
  });

  it('§8.4 cards signed by a key the planner does not trust: refused when required, reported when if-signed', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const stranger: CardTrust = {
      keys: [
        {
          kid: 'kit-test',
          key: { ...(await exportJWK(publicKey)), kid: 'kit-test', alg: 'ES256' },
        },
      ],
    };
    const required = await plan(f, { verifyCards: 'required' }, stranger);
    assert.equal(required.result.ok, false);
    assert.match(required.result.summary, /signature check failed/);
    const sink = transcriptSink();
    await discover(
      plannerConfig(direct(f), { deployerToken: TOKEN, verifyCards: 'if-signed' }),
      new Transcript(sink.out),
      { keys: [] },
    );
    assert.match(sink.text(), /signature not verified: unknown-kid/);
  });

  it('§8.4 required signatures with no trusted keys: refused with a clear reason', async () => {
    const { result } = await plan(f, { verifyCards: 'required' });
    assert.equal(result.ok, false);
    assert.match(result.summary, /no trusted keys/);
  });
});

describe('planner on unsigned agents, observed through proxies', () => {
  let f: KitFixture;
  let proxies: Record<(typeof NAMES)[number], ObservingProxy>;
  let run: { result: PipelineResult; text: string };
  const calls = (n: (typeof NAMES)[number]): SeenRequest[] => proxies[n].calls();

  before(async () => {
    f = await startKit();
    // test-runner's card lists a gRPC entry and its 0.3 JSON-RPC entry before its JSON-RPC 1.0 one.
    const grpcFirst = (c: any, base: string) => ({
      ...c,
      supportedInterfaces: [
        {
          url: `${base.replace('http://', 'grpc://')}`,
          protocolBinding: 'GRPC',
          protocolVersion: '1.0',
        },
        // The kit's own GRPC entry is replaced by the one above (the proxy does not carry gRPC).
        ...c.supportedInterfaces.filter((i: any) => i.protocolBinding !== 'GRPC'),
      ],
    });
    proxies = {
      'test-runner': await observingProxy(f.kit.agents['test-runner'], grpcFirst),
      'code-reviewer': await observingProxy(f.kit.agents['code-reviewer']),
      deployer: await observingProxy(f.kit.agents.deployer),
    };
    run = await plan(f, { agents: NAMES.map((n) => proxies[n].base), verifyCards: 'if-signed' });
  });
  after(async () => {
    await Promise.all(Object.values(proxies ?? {}).map((p) => p.close()));
    await f?.close();
  });

  it('§8.4 if-signed with unsigned cards proceeds, and the pipeline completes', () => {
    assert.equal(run.result.ok, true, run.text);
    assert.match(run.text, /unsigned/);
  });

  it('§8.3.2 skips GRPC 1.0 and JSONRPC 0.3 listed first, takes the third entry, and says why', () => {
    assert.match(run.text, /test-runner\s+\[2\] JSONRPC 1\.0/);
    assert.match(
      run.text,
      /skipped \[0\] GRPC 1\.0: binding not spoken; skipped \[1\] JSONRPC 0\.3: version not spoken$/m,
    );
    const tr = calls('test-runner');
    assert.ok(tr.length > 0);
    assert.ok(
      tr.every((r) => r.path === '/a2a/jsonrpc'),
      `test-runner calls went to ${tr.map((r) => r.path).join(', ')}`,
    );
  });

  it('§3.3.4 no push-config call to code-reviewer (card has no pushNotifications)', () => {
    const cr = calls('code-reviewer');
    assert.ok(
      cr.some((r) => r.rpc === 'SendStreamingMessage'),
      'the reviewer was called at all',
    );
    for (const r of cr) {
      assert.doesNotMatch(r.rpc ?? '', /PushNotificationConfig/);
      assert.doesNotMatch(r.path, /pushNotificationConfigs/);
      assert.doesNotMatch(
        r.body,
        /taskPushNotificationConfig|pushNotificationConfig/i,
        'no webhook inside a send either',
      );
    }
  });

  it('§3.3.4 no streaming call to the deployer (card has streaming false)', () => {
    const d = calls('deployer');
    assert.ok(
      d.some((r) => r.rpc === 'SendMessage'),
      'the deployer was called at all',
    );
    for (const r of d) {
      assert.ok(
        !['SendStreamingMessage', 'SubscribeToTask'].includes(r.rpc ?? ''),
        `streaming call ${r.rpc}`,
      );
      assert.doesNotMatch(r.path, /:stream|:subscribe/);
      assert.doesNotMatch(String(r.headers.accept ?? ''), /text\/event-stream/);
    }
  });

  it('the deployer (no streaming, push) is followed by push to the planner webhook, with GetTask polling beside it', () => {
    const sends = calls('deployer')
      .filter((r) => r.rpc === 'SendMessage')
      .map((r) => JSON.parse(r.body).params);
    assert.equal(sends.length, 2, 'the deploy request and the confirmation');
    assert.equal(sends[0].configuration.returnImmediately, true);
    assert.match(
      sends[0].configuration.taskPushNotificationConfig.url,
      /^http:\/\/127\.0\.0\.1:\d+\/webhook$/,
    );
    assert.ok(
      sends[0].configuration.taskPushNotificationConfig.token,
      'the webhook token travels with the config',
    );
    assert.equal(
      sends[1].message.taskId !== undefined,
      true,
      'the confirmation continues the same task',
    );
    assert.ok(calls('deployer').some((r) => r.rpc === 'GetTask'));
    assert.match(
      run.text,
      /push webhook for non-streaming agents listening at http:\/\/127\.0\.0\.1:\d+\/webhook/,
    );
    assert.match(run.text, /push notifications to the webhook; polling as fallback/);
  });

  it('the bearer token goes to every deployer call and to no other agent', () => {
    const d = calls('deployer');
    for (const r of d)
      assert.equal(
        r.headers.authorization,
        `Bearer ${TOKEN}`,
        `${r.rpc ?? r.path} without the token`,
      );
    for (const n of ['test-runner', 'code-reviewer'] as const) {
      for (const r of proxies[n].seen) {
        assert.equal(r.headers.authorization, undefined, `${n} got an Authorization header`);
        assert.ok(
          !JSON.stringify(r.headers).includes(TOKEN) && !r.body.includes(TOKEN),
          `${n} saw the token`,
        );
      }
    }
    for (const r of proxies.deployer.seen)
      assert.ok(!r.body.includes(TOKEN), 'the token is a header, never in a body');
  });

  it("§8.3.2 --versions 0.3,1.0: the planner takes test-runner's first entry, JSON-RPC 0.3, and the pipeline completes over it", async () => {
    const tr = await observingProxy(f.kit.agents['test-runner']);
    try {
      const agents = [
        tr.base,
        f.kit.agents['code-reviewer'].baseUrl,
        f.kit.agents.deployer.baseUrl,
      ];
      const { result, text } = await plan(f, { agents, versions: ['0.3', '1.0'] });
      assert.equal(result.ok, true, text);
      assert.match(text, /speaks JSONRPC, HTTP\+JSON at 0\.3, 1\.0/);
      assert.match(text, /test-runner\s+\[1\] JSONRPC 0\.3/);
      assert.match(text, /test-runner: skipped \[0\] GRPC 1\.0: binding not spoken/);
      // code-reviewer and deployer list no 0.3 entry: they are still spoken to in 1.0.
      assert.match(text, /code-reviewer\s+\[0\] JSONRPC 1\.0/);
      const methods = tr.calls().map((r) => r.rpc);
      assert.ok(
        methods.length > 0 && methods.every((m) => m === 'message/stream' || m === 'tasks/get'),
        `test-runner saw ${methods.join(', ')}`,
      );
      assert.ok(tr.calls().every((r) => r.headers['a2a-version'] === '0.3'));
    } finally {
      await tr.close();
    }
  });

  it('§8.3.2 a card offering only GRPC and JSONRPC 0.3: a clear error naming what it offers and what the planner speaks', async () => {
    const only = await observingProxy(f.kit.agents['test-runner'], (c, base) => ({
      ...c,
      supportedInterfaces: [
        {
          url: base.replace('http://', 'grpc://'),
          protocolBinding: 'GRPC',
          protocolVersion: '1.0',
        },
        { url: `${base}/a2a/v03/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
    }));
    try {
      const { result } = await plan(f, {
        agents: [only.base, f.kit.agents['code-reviewer'].baseUrl, f.kit.agents.deployer.baseUrl],
      });
      assert.equal(result.ok, false);
      assert.match(result.summary, /test-runner/);
      assert.match(result.summary, /GRPC 1\.0/);
      assert.match(result.summary, /JSONRPC 0\.3/);
      assert.match(result.summary, /speaks JSONRPC or HTTP\+JSON at version 1\.0/);
      assert.equal(only.calls().length, 0);
    } finally {
      await only.close();
    }
  });

  it('§8.4 required signatures and an unsigned card: refused', async () => {
    const { result } = await plan(f, { verifyCards: 'required' });
    assert.equal(result.ok, false);
    assert.match(result.summary, /not signed/);
    assert.equal(result.tasks.length, 0);
  });

  it('no token configured: a clear planner error before anything is delegated', async () => {
    const { result, text } = await plan(f, { deployerToken: undefined });
    assert.equal(result.ok, false);
    assert.match(result.summary, /deployer requires bearer but no token is configured/);
    assert.doesNotMatch(text, /Tests →/);
  });

  it('skills decide roles, not ports or order: agents listed backwards map the same', async () => {
    const sink = transcriptSink();
    const agents = [...direct(f)].reverse();
    const d = await discover(
      plannerConfig(agents, { deployerToken: TOKEN }),
      new Transcript(sink.out),
      undefined,
    );
    assert.equal(d.bySkill.get('run-tests')?.card.name, 'test-runner');
    assert.equal(d.bySkill.get('review-code')?.card.name, 'code-reviewer');
    assert.equal(d.bySkill.get('deploy')?.card.name, 'deployer');
    assert.deepEqual(
      d.agents.map((a) => [a.card.name, a.streams, a.push, a.auth]),
      [
        ['deployer', false, true, ['bearer']],
        ['code-reviewer', true, false, []],
        ['test-runner', true, true, []],
      ],
    );
  });

  it('the token is never handed to another agent whose card asks for one', async () => {
    const greedy = await observingProxy(f.kit.agents['test-runner'], (c) => ({
      ...c,
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    }));
    try {
      const { result } = await plan(f, {
        agents: [greedy.base, f.kit.agents['code-reviewer'].baseUrl, f.kit.agents.deployer.baseUrl],
      });
      assert.equal(result.ok, false);
      assert.match(
        result.summary,
        /test-runner requires bearer, but the planner holds a token only for the deployer/,
      );
      assert.equal(greedy.calls().length, 0);
      assert.ok(greedy.seen.every((r) => r.headers.authorization === undefined));
    } finally {
      await greedy.close();
    }
  });

  it('an agent that cannot be reached: the error names its URL', async () => {
    const gone = await observingProxy(f.kit.agents['test-runner']);
    const base = gone.base;
    await gone.close();
    const { result } = await plan(f, {
      agents: [base, f.kit.agents['code-reviewer'].baseUrl, f.kit.agents.deployer.baseUrl],
    });
    assert.equal(result.ok, false);
    assert.ok(result.summary.includes(base), result.summary);
  });

  it('agents reachable only over HTTP+JSON: the planner takes that binding and the pipeline completes', async () => {
    const restOnly = (c: any) => ({
      ...c,
      supportedInterfaces: c.supportedInterfaces.filter(
        (i: any) => i.protocolBinding === 'HTTP+JSON',
      ),
    });
    const ps = await Promise.all(NAMES.map((n) => observingProxy(f.kit.agents[n], restOnly)));
    try {
      const { result, text } = await plan(f, { agents: ps.map((p) => p.base) });
      assert.equal(result.ok, true, text);
      assert.match(text, /deployer\s+\[0\] HTTP\+JSON 1\.0/);
      for (const p of ps)
        assert.ok(
          p.calls().every((r) => r.path.startsWith('/a2a/rest/')),
          p
            .calls()
            .map((r) => r.path)
            .join(', '),
        );
    } finally {
      await Promise.all(ps.map((p) => p.close()));
    }
  });

  it('a deployer that fails mid-run: stopped at deploy, the finished tasks are kept, the agent is named', async () => {
    const failing = await observingProxy(f.kit.agents.deployer, undefined, {
      intercept: (r) =>
        r.rpc === 'SendMessage' ? { status: 500, body: '{"oops":true}' } : undefined,
    });
    try {
      const agents = [
        f.kit.agents['test-runner'].baseUrl,
        f.kit.agents['code-reviewer'].baseUrl,
        failing.base,
      ];
      const { result, text } = await plan(f, { agents });
      assert.equal(result.ok, false, text);
      assert.equal(result.stoppedAt, 'deploy');
      assert.deepEqual(states(result), ['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
      assert.match(result.summary, /^stopped at deploy: deployer: /);
    } finally {
      await failing.close();
    }
  });

  it('a wrong token: the deployer refuses (401) and the planner reports it before delegating anything', async () => {
    const { result, text } = await plan(f, { deployerToken: 'wrong-token-0123456789abcdef' });
    assert.equal(result.ok, false, text);
    assert.match(
      result.summary,
      /deployer refused the configured token \(HTTP 401, Unauthenticated/,
    );
    assert.equal(result.tasks.length, 0);
    assert.doesNotMatch(text, /Tests →/);
  });
});

describe('planner on change-broken', () => {
  let f: KitFixture;
  before(async () => {
    f = await startKit({ warmUp: false });
  });
  after(() => f?.close());

  it('stops at tests; no deploy task is ever sent', async () => {
    const deployer = await observingProxy(f.kit.agents.deployer);
    try {
      const agents = [
        f.kit.agents['test-runner'].baseUrl,
        f.kit.agents['code-reviewer'].baseUrl,
        deployer.base,
      ];
      const { result, text } = await plan(f, { agents, project: 'change-broken' });
      assert.equal(result.ok, false, text);
      assert.equal(result.stoppedAt, 'tests');
      assert.equal(result.tasks.length, 1);
      assert.match(text, /failed/);
      assert.match(text, /✘ stopped before deploy/);
      assert.ok(
        !deployer.calls().some((r) => r.rpc === 'SendMessage'),
        'no SendMessage to the deployer',
      );
      const listed = await rpc(f, 'deployer', 'ListTasks', {}, AUTH);
      assert.equal(listed.body.result.tasks.length, 0, JSON.stringify(listed.body));
    } finally {
      await deployer.close();
    }
  });
});

describe('planner following a non-streaming agent by push', () => {
  let f: KitFixture;
  before(async () => {
    f = await startKit({ warmUp: false });
  });
  after(() => f?.close());

  it('a stale stop notification (INPUT_REQUIRED arriving after the confirmation) costs one GetTask, not a busy loop', async () => {
    const deployer = await observingProxy(f.kit.agents.deployer);
    const webhook = new PlannerWebhook();
    try {
      await webhook.start('127.0.0.1', 0);
      const sink = transcriptSink();
      const t = new Transcript(sink.out);
      const all = await discover(
        plannerConfig(
          [
            f.kit.agents['test-runner'].baseUrl,
            f.kit.agents['code-reviewer'].baseUrl,
            deployer.base,
          ],
          { deployerToken: TOKEN },
        ),
        t,
        undefined,
      );
      const agent = all.bySkill.get('deploy')!;
      const follow = { webhook, timeoutMs: 60_000 };
      const asked = await sendAndFollow(
        agent,
        [{ data: { source: 'change-ok', target: 'production' } }],
        t,
        follow,
      );
      assert.equal(asked.status.state, 'TASK_STATE_INPUT_REQUIRED');
      // The same INPUT_REQUIRED notification once more, as a late delivery would bring it.
      const stale = {
        statusUpdate: {
          taskId: asked.id,
          contextId: asked.contextId,
          status: { state: 'TASK_STATE_INPUT_REQUIRED' },
        },
      };
      const r = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-a2a-notification-token': webhook.token },
        body: JSON.stringify(stale),
        signal: AbortSignal.timeout(30_000),
      });
      assert.ok(r.status < 300, `webhook answered ${r.status}`);
      const before = deployer.calls().filter((c) => c.rpc === 'GetTask').length;
      const done = await sendAndFollow(agent, [{ text: 'confirm' }], t, {
        ...follow,
        taskId: asked.id,
        contextId: asked.contextId,
      });
      assert.equal(done.status.state, 'TASK_STATE_COMPLETED', sink.text());
      const polls = deployer.calls().filter((c) => c.rpc === 'GetTask').length - before;
      assert.ok(polls <= 10, `${polls} GetTask calls for one short deploy`);
    } finally {
      await webhook.close();
      await deployer.close();
    }
  });
});
