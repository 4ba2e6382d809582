/**
 * `--ui`: a real planner run against the real kit agents (port 0), its transcript fed to a real
 * inspector through kit/src/ui, and the pipeline read back as a page would get it: the agents and
 * discovery's decisions, each step's task through its states, the deploy's confirmation, the outcome.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { PipelineRecord } from 'a2a-kit/inspector';
import { runPlanner } from '../src/planner/index.js';
import { kitUi } from '../src/ui/index.js';
import { TranscriptToPipeline } from '../src/ui/pipeline-events.js';
import { TOKEN, startKit, type KitFixture } from './kit-agents-fixture.js';
import { plannerConfig, transcriptSink } from './kit-planner-fixture.js';

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

  it('shows the planner’s run live in the inspector and keeps it after the run', { todo: 'the kit view reads the discovery table of the transcript as it was before the kit commands were tidied (issue 20 follow-up)' }, async () => {
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

    const sink = transcriptSink();
    const agents = Object.values(f.kit.agents).map((a) => a.baseUrl);
    const result = await runPlanner(plannerConfig(agents, { deployerToken: TOKEN }), { out: sink.out, workspaceRoot: f.workspace, ...hooks });
    assert.equal(result.ok, true, sink.text());

    // What a page opened now (after the run) receives.
    const run = (await (await fetch(new URL('/api/pipeline', link))).json()) as PipelineRecord[];
    const done = new PassThrough();
    await ui.hold(done, Promise.resolve());
    await assert.rejects(fetch(link), 'the inspector is closed once the hold ends');

    assert.equal(run[0]?.type, 'run');
    const stages = run.filter((r) => r.type === 'stage');
    assert.deepEqual(stages.map((s) => [s.id, s.agent]), [['discovery', undefined], ['tests', 'test-runner'], ['review', 'code-reviewer'], ['deploy', 'deployer']]);

    const agent = (name: string) => Object.assign({}, ...run.filter((r) => r.type === 'agent' && r.name === name));
    const deployer = agent('deployer');
    assert.equal(deployer.url, f.kit.agents.deployer.baseUrl);
    assert.match(deployer.interface, /^\[0\] JSONRPC 1\.0 /);
    // Only an agent whose first entries were skipped gets a reason line; the deployer's first entry is taken.
    assert.equal(deployer.reason, undefined);
    assert.deepEqual([deployer.streaming, deployer.push, deployer.auth, deployer.skills], ['no', 'yes', 'bearer', ['deploy']]);
    assert.equal(agent('code-reviewer').push, 'absent');

    const states = (stage: string) => run.filter((r) => r.type === 'state' && r.stage === stage).map((r) => (r.type === 'state' ? `${r.state}/${r.via}` : ''));
    const tests = states('tests');
    assert.equal(tests[0], 'SUBMITTED/stream');
    assert.ok(tests.includes('WORKING/stream'));
    assert.equal(tests.at(-1), 'COMPLETED/stream');
    const deploy = states('deploy');
    assert.equal(deploy[0], 'INPUT_REQUIRED/SendMessage');
    assert.ok(deploy.includes('INPUT_REQUIRED/push'), deploy.join(' '));
    assert.ok(deploy.includes('COMPLETED/push') || deploy.includes('COMPLETED/poll'), deploy.join(' '));
    const confirm = run.find((r) => r.type === 'confirm');
    assert.ok(confirm && confirm.type === 'confirm');
    assert.equal(confirm.agent, 'deployer');
    assert.match(confirm.question, /^Reply 'confirm' to deploy|^to confirm/);
    assert.match(confirm.answer, /^planner answers "confirm"/);
    assert.ok(run.some((r) => r.type === 'artifact' && r.stage === 'deploy' && r.name === 'release' && /^Deployed change-ok/.test(r.text ?? '')));
    const outcome = run.at(-1);
    assert.ok(outcome?.type === 'outcome' && outcome.ok);

    // Every line the transcript printed found a home; none that should be a state fell through as a note.
    const notes = run.filter((r) => r.type === 'note').map((r) => (r.type === 'note' ? r.text : ''));
    assert.deepEqual(notes.filter((n) => /^(\[push\] )?(task [0-9a-f]{8} )?(SUBMITTED|WORKING|COMPLETED|INPUT_REQUIRED)\b|^GET http/.test(n)), []);
  });

  it('reads a failed run and a canceled deploy', () => {
    const m = new TranscriptToPipeline();
    const out = [
      { kind: 'section', index: 4, title: 'Deploy → deployer' },
      { kind: 'item', text: 'deployer asks: "Reply \'confirm\'?" → not confirming (--no-confirm): canceling' },
      { kind: 'item', text: 'CancelTask → task 0123abcd CANCELED' },
      { kind: 'note', text: '(GetTask) WORKING' },
      { kind: 'outcome', ok: false, text: 'deploy ended TASK_STATE_CANCELED (the planner did not confirm)' },
    ].flatMap((ev) => m.map(ev as Parameters<TranscriptToPipeline['map']>[0]));
    assert.deepEqual(out, [
      { type: 'stage', id: 'deploy', title: 'Deploy', agent: 'deployer' },
      { type: 'confirm', stage: 'deploy', agent: 'deployer', question: "Reply 'confirm'?", answer: 'not confirming (--no-confirm): canceling' },
      { type: 'state', stage: 'deploy', taskId: '0123abcd', state: 'CANCELED', via: 'CancelTask' },
      { type: 'state', stage: 'deploy', state: 'WORKING', via: 'poll' },
      { type: 'outcome', ok: false, text: 'deploy ended TASK_STATE_CANCELED (the planner did not confirm)' },
    ]);
  });
});
