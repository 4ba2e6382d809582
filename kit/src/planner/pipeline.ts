/**
 * The planner's job: take a change through tests → review → deploy, each delegated to the agent
 * whose card offers the skill, following each task's lifecycle, and stop at the first step that fails.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isTerminal, type JsonValue, type Part, type Task } from 'a2a-kit';
import type { PlannerConfig } from './config.js';
import type { AgentFacts, Discovery } from './discovery.js';
import { cancelAndFollow, sendAndFollow, textOf, type FollowOptions } from './follow.js';
import { artifactSummary, type Transcript } from './transcript.js';
import type { PlannerWebhook } from './webhook.js';

/** How long one stage of the run took. */
export interface StageTime {
  stage: string;
  ms: number;
}

export interface PipelineResult {
  ok: boolean;
  /** The step that stopped the pipeline, if any. */
  stoppedAt?: 'tests' | 'review' | 'deploy';
  /** The run was interrupted (Ctrl-C: the signal given to the planner was aborted). */
  interrupted?: boolean;
  summary: string;
  tasks: Task[];
  /** Elapsed time of each step that ran, in order. */
  stages?: StageTime[];
}

/** A data part's value in the artifacts of a task (the first one). */
export function dataOf(task: Task): Record<string, JsonValue> | undefined {
  for (const a of task.artifacts ?? [])
    for (const p of a.parts)
      if ('data' in p && p.data && typeof p.data === 'object')
        return p.data as Record<string, JsonValue>;
  return undefined;
}

/** The task's artifacts not already shown while it was followed. */
function printArtifacts(task: Task, t: Transcript): void {
  for (const a of task.artifacts ?? []) {
    if (!t.once(`${task.id}/artifact/${a.artifactId}`)) continue;
    const name = a.name ?? a.artifactId;
    const text = artifactSummary(a);
    t.item(`artifact ${name}: ${text}`, { kind: 'artifact', taskId: task.id, name, text });
  }
}

/** Source files of the change, as A2A file parts (what a reviewer is sent). */
async function fileParts(projectDir: string, root = projectDir, out: Part[] = []): Promise<Part[]> {
  for (const e of await readdir(projectDir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(projectDir, e.name);
    if (e.isDirectory()) await fileParts(p, root, out);
    else if (/\.(m?[jt]s|cjs)$/.test(e.name) && out.length < 200) {
      out.push({
        raw: (await readFile(p)).toString('base64'),
        filename: relative(root, p),
        mediaType: 'text/javascript',
      });
    }
  }
  return out;
}

type Step = NonNullable<PipelineResult['stoppedAt']>;

/** Where the run is: the step, its start, and the task being waited on (what Ctrl-C cancels). */
interface Progress {
  step: Step;
  stages: StageTime[];
  started: number;
  current?: { agent: AgentFacts; taskId: string };
}

function begin(at: Progress, step: Step): void {
  finish(at);
  at.step = step;
  at.started = performance.now();
}

function finish(at: Progress): void {
  if (at.started >= 0) at.stages.push({ stage: at.step, ms: performance.now() - at.started });
  at.started = -1;
}

/**
 * Runs the three steps; a step that throws (agent unreachable, refused, timed out) ends the run like a
 * failed step does: `stoppedAt` names it and the tasks finished before it are kept. When `signal` aborts
 * (Ctrl-C), the task being waited on is canceled (bounded: a few seconds) and the result says so.
 */
export async function runPipeline(
  cfg: PlannerConfig,
  d: Discovery,
  t: Transcript,
  webhook: PlannerWebhook | undefined,
  workspaceRoot: string,
  signal?: AbortSignal,
): Promise<PipelineResult> {
  const tasks: Task[] = [];
  const at: Progress = { step: 'tests', stages: [], started: -1 };
  try {
    const result = await steps(cfg, d, t, webhook, workspaceRoot, tasks, at, signal);
    finish(at);
    return { ...result, stages: at.stages };
  } catch (err) {
    finish(at);
    if (signal?.aborted) {
      const what = at.current
        ? await cancelInterrupted(at.current)
        : 'no task had been created yet';
      return {
        ok: false,
        interrupted: true,
        stoppedAt: at.step,
        summary: `interrupted during ${at.step}: ${what}`,
        tasks,
        stages: at.stages,
      };
    }
    return {
      ok: false,
      stoppedAt: at.step,
      summary: `stopped at ${at.step}: ${(err as Error).message}`,
      tasks,
      stages: at.stages,
    };
  }
}

/** Cancels the task an interrupted wait was on, within a few seconds, and says what became of it. */
async function cancelInterrupted({
  agent,
  taskId,
}: {
  agent: AgentFacts;
  taskId: string;
}): Promise<string> {
  const id = `task ${taskId.slice(0, 8)} on ${agent.card.name}`;
  try {
    const task = await agent.client.cancelTask(taskId, { signal: AbortSignal.timeout(5000) });
    return `canceled ${id} (now ${task.status.state.replace('TASK_STATE_', '')})`;
  } catch (err) {
    return `could not cancel ${id}: ${(err as Error).message}`;
  }
}

async function steps(
  cfg: PlannerConfig,
  d: Discovery,
  t: Transcript,
  webhook: PlannerWebhook | undefined,
  workspaceRoot: string,
  tasks: Task[],
  at: Progress,
  signal: AbortSignal | undefined,
): Promise<PipelineResult> {
  // The task being waited on, per step, for Ctrl-C; cleared once it has ended.
  const waitingOn = (agent: AgentFacts): FollowOptions => ({
    webhook,
    timeoutMs: cfg.taskTimeoutMs,
    ...(signal ? { signal } : {}),
    onTask: (taskId) => (at.current = { agent, taskId }),
  });
  const ended = (task: Task): Task => {
    if (isTerminal(task.status.state)) at.current = undefined;
    return task;
  };

  // 1. Tests
  const runner = d.bySkill.get('run-tests')!;
  begin(at, 'tests');
  t.section('tests', 'Tests', `skill run-tests; project ${cfg.project}`, runner.card.name);
  const tested = ended(
    await sendAndFollow(runner, [{ data: { path: cfg.project } }], t, waitingOn(runner)),
  );
  tasks.push(tested);
  printArtifacts(tested, t);
  const results = dataOf(tested);
  if (tested.status.state !== 'TASK_STATE_COMPLETED' || !results || Number(results.failed) > 0) {
    const why = results
      ? `${results.failed} test(s) failed`
      : `the test task ended ${tested.status.state}: ${textOf(tested.status.message)}`;
    return { ok: false, stoppedAt: 'tests', summary: `stopped before deploy: ${why}`, tasks };
  }

  // 2. Review
  begin(at, 'review');
  const reviewer = d.bySkill.get('review-code')!;
  t.section('review', 'Review', 'skill review-code; source sent as file parts', reviewer.card.name);
  const files = await fileParts(join(workspaceRoot, cfg.project));
  t.note(`sending ${files.length} file(s)`);
  const reviewed = ended(await sendAndFollow(reviewer, files, t, waitingOn(reviewer)));
  tasks.push(reviewed);
  printArtifacts(reviewed, t);
  const findings = dataOf(reviewed);
  if (reviewed.status.state !== 'TASK_STATE_COMPLETED' || findings?.verdict !== 'approve') {
    const why = findings
      ? `review verdict ${findings.verdict} (${findings.errors} error(s))`
      : `the review ended ${reviewed.status.state}`;
    return { ok: false, stoppedAt: 'review', summary: `stopped before deploy: ${why}`, tasks };
  }

  // 3. Deploy
  begin(at, 'deploy');
  const deployer = d.bySkill.get('deploy')!;
  t.section(
    'deploy',
    'Deploy',
    `skill deploy; target ${cfg.target}; bearer token attached`,
    deployer.card.name,
  );
  const follow = waitingOn(deployer);
  let deployed = await sendAndFollow(
    deployer,
    [{ data: { source: cfg.project, target: cfg.target } }],
    t,
    follow,
  );
  for (let round = 0; deployed.status.state === 'TASK_STATE_INPUT_REQUIRED' && round < 3; round++) {
    const question = textOf(deployed.status.message);
    // The question is quoted only if no notification has shown it already.
    const asks = t.once(`${deployed.id}/text/${question}`)
      ? `deployer asks: "${question}"`
      : 'deployer asks to confirm';
    const confirm = (answer: string) =>
      ({
        kind: 'confirm',
        agent: deployer.card.name,
        question,
        answer,
        confirmed: cfg.confirmProduction,
      }) as const;
    if (!cfg.confirmProduction) {
      const answer = 'not confirming (--no-confirm): canceling';
      t.item(`${asks} → ${answer}`, confirm(answer));
      deployed = await cancelAndFollow(deployer, deployed, t, follow);
      break;
    }
    const answer = 'planner answers "confirm" (allowed by config; --no-confirm declines)';
    t.item(`${asks} → ${answer}`, confirm(answer));
    deployed = await sendAndFollow(deployer, [{ text: 'confirm' }], t, {
      ...follow,
      taskId: deployed.id,
      contextId: deployed.contextId,
    });
  }
  ended(deployed);
  tasks.push(deployed);
  printArtifacts(deployed, t);
  if (deployed.status.state !== 'TASK_STATE_COMPLETED') {
    const why = textOf(deployed.status.message);
    const declined =
      deployed.status.state === 'TASK_STATE_CANCELED' && !cfg.confirmProduction
        ? ' (the planner did not confirm)'
        : '';
    return {
      ok: false,
      stoppedAt: 'deploy',
      summary: `deploy ended ${deployed.status.state}${declined}${why ? `: ${why}` : ''}`,
      tasks,
    };
  }
  const release = dataOf(deployed);
  return {
    ok: true,
    summary: `${cfg.project} passed tests and review and is live on ${cfg.target}${release?.version ? ` as ${release.version}` : ''}`,
    tasks,
  };
}
