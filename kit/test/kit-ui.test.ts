/**
 * `--ui`: a real planner run against the real kit agents (port 0), its events fed to a real inspector
 * through kit/src/ui, and the pipeline read back as a page gets it — live while the run goes, whole
 * after it, and in Chromium after the run: the agents and discovery's decisions, each step's task
 * through its states, the deploy's confirmation, the outcome.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { PipelineRecord } from 'a2a-kit/inspector';
import { runPlanner, type PlannerEvent } from '../src/planner/index.js';
import { kitUi } from '../src/ui/index.js';
import { PlannerToPipeline } from '../src/ui/pipeline-events.js';
import { browserMissing, launch } from '../../test/inspector-browser.js';
import { TOKEN, startKit, type KitFixture } from './kit-agents-fixture.js';
import { plannerConfig, transcriptSink } from './kit-planner-fixture.js';

const noBrowser = browserMissing();

/** Screenshots are test artifacts, kept out of git like the inspector's own. */
const shots = path.resolve(import.meta.dirname, '..', '..', '.tmp-inspector');
mkdirSync(shots, { recursive: true });

/** Collects the `pipeline` events of the page's live channel until stopped. */
function readRecords(res: Response, into: PipelineRecord[]): { stop(): void } {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (let i = 0; i < 100_000; i++) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: pipeline$/m.test(block) && data) into.push(JSON.parse(data) as PipelineRecord);
      }
    }
  })();
  return { stop: () => void reader.cancel().catch(() => undefined) };
}

/** Waits (bounded: 10 s) until `done` holds. */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(done(), `timed out waiting until ${what}`);
}

describe('kit --ui', () => {
  let f: KitFixture;
  before(async () => {
    f = await startKit();
  });
  after(() => f?.close());

  it('takes --ui out of the arguments, and does nothing without it', async () => {
    const argv = ['--target', 'staging', '--ui'];
    assert.equal(kitUi(argv).enabled, true);
    assert.deepEqual(argv, ['--target', 'staging']);
    const off = kitUi(argv);
    assert.equal(off.enabled, false);
    assert.deepEqual(await off.attach(f.kit), {});
  });

  it('shows the planner’s run live in the inspector and keeps it after the run', async (t) => {
    const argv = ['--ui'];
    const ui = kitUi(argv);
    const printed = transcriptSink();
    const was = process.env.KIT_UI_PORT;
    process.env.KIT_UI_PORT = '0';
    let hooks;
    try {
      hooks = await ui.attach(f.kit, undefined, printed.out);
    } finally {
      if (was === undefined) delete process.env.KIT_UI_PORT;
      else process.env.KIT_UI_PORT = was;
    }
    const link = /inspector: (http:\/\/127\.0\.0\.1:\d+\/)#kit/.exec(printed.text())?.[1];
    assert.ok(link, printed.text());
    assert.match(printed.text(), /deployer +http:\/\/127\.0\.0\.1:\d+\/\?agent=http%3A%2F%2F/);

    let reading: { stop(): void } | undefined;
    try {
      // A page opened before the run sees it live.
      const live: PipelineRecord[] = [];
      // As the inspector's own page asks (its header): other callers start no session.
      const page = { 'x-a2a-inspector': 'page' };
      const stream = await fetch(new URL('/api/events', link), {
        headers: page,
        signal: AbortSignal.timeout(120_000),
      });
      assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      reading = readRecords(stream, live);

      const sink = transcriptSink();
      const agents = Object.values(f.kit.agents).map((a) => a.baseUrl);
      const result = await runPlanner(plannerConfig(agents, { deployerToken: TOKEN }), {
        out: sink.out,
        workspaceRoot: f.workspace,
        ...hooks,
      });
      assert.equal(result.ok, true, sink.text());

      // What a page opened now (after the run) receives.
      const run = (await (
        await fetch(new URL('/api/pipeline', link), { headers: page })
      ).json()) as PipelineRecord[];
      await waitFor(
        () => live.at(-1)?.type === 'outcome',
        `the outcome reached the live page (${live.length} events, last ${JSON.stringify(live.at(-1))})`,
      );
      assert.deepEqual(
        live.map((r) => r.seq),
        run.filter((r) => r.type !== 'run').map((r) => r.seq),
        'the live page got every event, in order',
      );

      assert.equal(run[0]?.type, 'run');
      const stages = run.filter((r) => r.type === 'stage');
      assert.deepEqual(
        stages.map((s) => [s.id, s.agent]),
        [
          ['discovery', undefined],
          ['tests', 'test-runner'],
          ['review', 'code-reviewer'],
          ['deploy', 'deployer'],
        ],
      );

      // The three agents, and discovery's decision about each: the interface chosen and what was passed over.
      const agent = (name: string) =>
        Object.assign({}, ...run.filter((r) => r.type === 'agent' && r.name === name));
      assert.deepEqual(
        [
          ...new Set(
            run.filter((r) => r.type === 'agent').map((r) => (r.type === 'agent' ? r.name : '')),
          ),
        ],
        ['test-runner', 'code-reviewer', 'deployer'],
      );
      const runner = agent('test-runner');
      assert.equal(runner.url, f.kit.agents['test-runner'].baseUrl);
      assert.equal(
        runner.cardUrl,
        `${f.kit.agents['test-runner'].baseUrl}/.well-known/agent-card.json`,
      );
      assert.match(runner.interface, /^\[2\] JSONRPC 1\.0 http:\/\/\S+$/);
      // A JSON-RPC 1.0 planner passes over the test-runner's GRPC and JSON-RPC 0.3 entries.
      assert.deepEqual(runner.skipped, [
        { entry: '[0] GRPC 1.0', why: 'binding not spoken' },
        { entry: '[1] JSONRPC 0.3', why: 'version not spoken' },
      ]);
      assert.deepEqual(
        [runner.streaming, runner.push, runner.auth, runner.skills],
        ['yes', 'yes', 'none', ['run-tests']],
      );
      const reviewer = agent('code-reviewer');
      assert.match(reviewer.interface, /^\[0\] JSONRPC 1\.0 /);
      assert.deepEqual(reviewer.skipped, []);
      assert.equal(reviewer.push, 'absent');
      const deployer = agent('deployer');
      assert.equal(deployer.url, f.kit.agents.deployer.baseUrl);
      assert.match(deployer.interface, /^\[0\] JSONRPC 1\.0 /);
      assert.deepEqual(deployer.skipped, []);
      assert.deepEqual(
        [deployer.streaming, deployer.push, deployer.auth, deployer.skills],
        ['no', 'yes', 'bearer', ['deploy']],
      );
      assert.match(deployer.signature, /\(card from network\)$/);
      assert.ok(
        run.some(
          (r) =>
            r.type === 'note' &&
            r.stage === 'discovery' &&
            /^skill map: run-tests → test-runner/.test(r.text),
        ),
      );

      // Each step's task through its states, ending COMPLETED, on the one task of the step.
      const states = (stage: string) =>
        run
          .filter((r) => r.type === 'state' && r.stage === stage)
          .map((r) => (r.type === 'state' ? `${r.state}/${r.via}` : ''));
      const taskIds = (stage: string) =>
        new Set(
          run
            .map((r) => (r.type === 'state' && r.stage === stage ? r.taskId : undefined))
            .filter(Boolean),
        );
      for (const stage of ['tests', 'review']) {
        const seen = states(stage);
        assert.equal(seen[0], 'SUBMITTED/stream', seen.join(' '));
        assert.ok(seen.includes('WORKING/stream'), seen.join(' '));
        assert.equal(seen.at(-1), 'COMPLETED/stream', seen.join(' '));
        assert.equal(taskIds(stage).size, 1);
      }
      assert.ok(
        run.some(
          (r) =>
            r.type === 'artifact' &&
            r.stage === 'tests' &&
            r.name === 'test-results' &&
            /8 passed, 0 failed/.test(r.text ?? ''),
        ),
      );
      const deploy = states('deploy');
      assert.equal(deploy[0], 'INPUT_REQUIRED/SendMessage');
      assert.ok(deploy.includes('INPUT_REQUIRED/push'), deploy.join(' '));
      assert.ok(deploy.includes('WORKING/SendMessage'), deploy.join(' '));
      assert.match(deploy.at(-1)!, /^COMPLETED\/(push|poll)$/, deploy.join(' '));
      assert.equal(taskIds('deploy').size, 1);

      // The deploy's confirmation: the question itself (never a placeholder) and the planner's answer.
      const confirms = run.filter((r) => r.type === 'confirm');
      assert.equal(confirms.length, 1);
      const confirm = confirms[0]!;
      assert.ok(confirm.type === 'confirm' && confirm.stage === 'deploy');
      assert.equal(confirm.agent, 'deployer');
      assert.match(confirm.question, /^Reply 'confirm' to deploy v\S+ to production/);
      assert.match(confirm.answer, /^planner answers "confirm"/);
      assert.ok(
        run.some(
          (r) =>
            r.type === 'artifact' &&
            r.stage === 'deploy' &&
            r.name === 'release' &&
            /^Deployed change-ok/.test(r.text ?? ''),
        ),
      );
      const outcome = run.at(-1);
      assert.ok(outcome?.type === 'outcome' && outcome.ok);
      assert.match(outcome.text, /change-ok passed tests and review and is live on production/);

      // No state, card fetch or confirmation fell through as a mere note.
      const notes = run
        .filter((r) => r.type === 'note')
        .map((r) => (r.type === 'note' ? r.text : ''));
      assert.deepEqual(
        notes.filter((n) =>
          /\b(SUBMITTED|WORKING|COMPLETED|INPUT_REQUIRED)\b|^GET http| asks|skipped/.test(n),
        ),
        [],
      );

      // The page itself, opened after the run: everything is still there, and after a reload too.
      await t.test('the page shows it after the run', { skip: noBrowser }, async () => {
        const browser = await launch();
        try {
          const { page } = browser;
          const errors: string[] = [];
          page.on('pageerror', (err) => errors.push(err.message));
          for (const load of [() => page.goto(`${link}#kit`), () => page.reload()]) {
            await load();
            await page.locator('.kit-outcome.ok', { hasText: 'is live on production' }).waitFor();
            assert.deepEqual(await page.locator('.kit-agent h4').allTextContents(), [
              'test-runner v1.0.0',
              'code-reviewer v1.0.0',
              'deployer v1.0.0',
            ]);
            const runnerCard =
              (await page.locator('.kit-agent', { hasText: 'test-runner' }).textContent()) ?? '';
            assert.match(runnerCard, /\[2\] JSONRPC 1\.0 http/);
            assert.match(
              runnerCard,
              /Skipped\[0\] GRPC 1\.0 — binding not spoken\[1\] JSONRPC 0\.3 — version not spoken/,
            );
            const steps = await page.locator('.kit-step').allTextContents();
            assert.equal(steps.length, 4);
            assert.match(steps[0]!, /^Discovery/);
            for (const [i, name] of ['Tests', 'Review', 'Deploy'].entries())
              assert.match(steps[i + 1]!, new RegExp(`^${name}.*COMPLETED$`));
            assert.match(
              (await page.locator('.kit-stage .confirm').textContent()) ?? '',
              /deployer asks: .*Reply 'confirm' to deploy.*Planner: planner answers "confirm"/s,
            );
            assert.match(
              (await page
                .locator('.kit-stage', { hasText: 'Discovery decisions' })
                .textContent()) ?? '',
              /skill map: run-tests → test-runner/,
            );
          }
          await page.screenshot({
            path: path.join(shots, 'kit-view-after-run.png'),
            fullPage: true,
          });
          assert.deepEqual(errors, []);
        } finally {
          await browser.close();
        }
      });
    } finally {
      reading?.stop();
      // The hold ends at once here, as Ctrl-C would end it; the inspector closes, even after a failure.
      await ui.hold(new PassThrough(), Promise.resolve());
    }
    await assert.rejects(fetch(link), 'the inspector is closed once the hold ends');
  });

  it('maps a declined deploy and a failed run from the planner’s events, never its wording', () => {
    const m = new PlannerToPipeline();
    const events: PlannerEvent[] = [
      { kind: 'stage', stage: 'deploy', title: 'Deploy', agent: 'deployer' },
      {
        kind: 'state',
        taskId: '0123abcd-0000-4000-8000-000000000000',
        state: 'TASK_STATE_INPUT_REQUIRED',
        via: 'push',
        text: "Reply 'confirm'?",
      },
      {
        kind: 'confirm',
        agent: 'deployer',
        question: "Reply 'confirm'?",
        answer: 'not confirming (--no-confirm): canceling',
        confirmed: false,
      },
      {
        kind: 'state',
        taskId: '0123abcd-0000-4000-8000-000000000000',
        state: 'TASK_STATE_CANCELED',
        via: 'CancelTask',
      },
      {
        kind: 'artifact',
        taskId: '0123abcd-0000-4000-8000-000000000000',
        name: 'log',
        via: 'push',
        chunk: true,
      },
      { kind: 'note', text: 'whatever the transcript says' },
      {
        kind: 'outcome',
        ok: false,
        text: 'deploy ended TASK_STATE_CANCELED (the planner did not confirm)',
      },
    ];
    assert.deepEqual(
      events.map((ev) => m.map(ev)),
      [
        { type: 'stage', id: 'deploy', title: 'Deploy', agent: 'deployer' },
        {
          type: 'state',
          stage: 'deploy',
          taskId: '0123abcd',
          state: 'INPUT_REQUIRED',
          via: 'push',
          text: "Reply 'confirm'?",
        },
        {
          type: 'confirm',
          stage: 'deploy',
          agent: 'deployer',
          question: "Reply 'confirm'?",
          answer: 'not confirming (--no-confirm): canceling',
        },
        {
          type: 'state',
          stage: 'deploy',
          taskId: '0123abcd',
          state: 'CANCELED',
          via: 'CancelTask',
        },
        { type: 'artifact', stage: 'deploy', name: 'log (chunk)' },
        { type: 'note', stage: 'deploy', text: 'whatever the transcript says' },
        {
          type: 'outcome',
          ok: false,
          text: 'deploy ended TASK_STATE_CANCELED (the planner did not confirm)',
        },
      ],
    );
  });
});
