/**
 * The planner's job: take a change through tests → review → deploy, each delegated to the agent
 * whose card offers the skill, following each task's lifecycle, and stop at the first step that fails.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Artifact, JsonValue, Part, Task } from 'a2a-kit';
import type { PlannerConfig } from './config.js';
import type { Discovery } from './discovery.js';
import { cancelAndFollow, sendAndFollow, textOf, type FollowOptions } from './follow.js';
import type { Transcript } from './transcript.js';
import type { PlannerWebhook } from './webhook.js';

export interface PipelineResult {
  ok: boolean;
  /** The step that stopped the pipeline, if any. */
  stoppedAt?: 'tests' | 'review' | 'deploy';
  summary: string;
  tasks: Task[];
}

/** A data part's value in the artifacts of a task (the first one). */
export function dataOf(task: Task): Record<string, JsonValue> | undefined {
  for (const a of task.artifacts ?? []) for (const p of a.parts) if ('data' in p && p.data && typeof p.data === 'object') return p.data as Record<string, JsonValue>;
  return undefined;
}

function printArtifacts(task: Task, t: Transcript): void {
  for (const a of task.artifacts ?? []) t.item(`artifact ${a.name ?? a.artifactId}: ${describe(a)}`);
}

function describe(a: Artifact): string {
  const text = a.parts.map((p) => ('text' in p ? p.text : '')).filter(Boolean).join(' ').split('\n')[0];
  return text || `${a.parts.length} part(s)`;
}

/** Source files of the change, as A2A file parts (what a reviewer is sent). */
async function fileParts(projectDir: string, root = projectDir, out: Part[] = []): Promise<Part[]> {
  for (const e of await readdir(projectDir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(projectDir, e.name);
    if (e.isDirectory()) await fileParts(p, root, out);
    else if (/\.(m?[jt]s|cjs)$/.test(e.name) && out.length < 200) {
      out.push({ raw: (await readFile(p)).toString('base64'), filename: relative(root, p), mediaType: 'text/javascript' });
    }
  }
  return out;
}

type Step = NonNullable<PipelineResult['stoppedAt']>;

/**
 * Runs the three steps; a step that throws (agent unreachable, refused, timed out) ends the run like a
 * failed step does: `stoppedAt` names it and the tasks finished before it are kept.
 */
export async function runPipeline(
  cfg: PlannerConfig,
  d: Discovery,
  t: Transcript,
  webhook: PlannerWebhook | undefined,
  workspaceRoot: string,
): Promise<PipelineResult> {
  const tasks: Task[] = [];
  const at: { step: Step } = { step: 'tests' };
  try {
    return await steps(cfg, d, t, webhook, workspaceRoot, tasks, at);
  } catch (err) {
    return { ok: false, stoppedAt: at.step, summary: `stopped at ${at.step}: ${(err as Error).message}`, tasks };
  }
}

async function steps(
  cfg: PlannerConfig,
  d: Discovery,
  t: Transcript,
  webhook: PlannerWebhook | undefined,
  workspaceRoot: string,
  tasks: Task[],
  at: { step: Step },
): Promise<PipelineResult> {
  const follow: FollowOptions = { webhook, timeoutMs: cfg.taskTimeoutMs };

  // 1. Tests
  const runner = d.bySkill.get('run-tests')!;
  t.section(`Tests → ${runner.card.name}`, `skill run-tests; project ${cfg.project}`);
  const tested = await sendAndFollow(runner, [{ data: { path: cfg.project } }], t, follow);
  tasks.push(tested);
  printArtifacts(tested, t);
  const results = dataOf(tested);
  if (tested.status.state !== 'TASK_STATE_COMPLETED' || !results || Number(results.failed) > 0) {
    const why = results ? `${results.failed} test(s) failed` : `the test task ended ${tested.status.state}: ${textOf(tested.status.message)}`;
    return { ok: false, stoppedAt: 'tests', summary: `stopped before deploy: ${why}`, tasks };
  }

  // 2. Review
  at.step = 'review';
  const reviewer = d.bySkill.get('review-code')!;
  t.section(`Review → ${reviewer.card.name}`, 'skill review-code; source sent as file parts');
  const files = await fileParts(join(workspaceRoot, cfg.project));
  t.note(`sending ${files.length} file(s)`);
  const reviewed = await sendAndFollow(reviewer, files, t, follow);
  tasks.push(reviewed);
  printArtifacts(reviewed, t);
  const findings = dataOf(reviewed);
  if (reviewed.status.state !== 'TASK_STATE_COMPLETED' || findings?.verdict !== 'approve') {
    const why = findings ? `review verdict ${findings.verdict} (${findings.errors} error(s))` : `the review ended ${reviewed.status.state}`;
    return { ok: false, stoppedAt: 'review', summary: `stopped before deploy: ${why}`, tasks };
  }

  // 3. Deploy
  at.step = 'deploy';
  const deployer = d.bySkill.get('deploy')!;
  t.section(`Deploy → ${deployer.card.name}`, `skill deploy; target ${cfg.target}; bearer token attached`);
  let deployed = await sendAndFollow(deployer, [{ data: { source: cfg.project, target: cfg.target } }], t, follow);
  for (let round = 0; deployed.status.state === 'TASK_STATE_INPUT_REQUIRED' && round < 3; round++) {
    const question = textOf(deployed.status.message);
    if (!cfg.confirmProduction) {
      t.item(`deployer asks: "${question}" → not confirming (--no-confirm): canceling`);
      deployed = await cancelAndFollow(deployer, deployed, t, follow);
      break;
    }
    t.item(`deployer asks: "${question}" → planner answers "confirm" (confirmation allowed by config)`);
    deployed = await sendAndFollow(deployer, [{ text: 'confirm' }], t, { ...follow, taskId: deployed.id, contextId: deployed.contextId });
  }
  tasks.push(deployed);
  printArtifacts(deployed, t);
  if (deployed.status.state !== 'TASK_STATE_COMPLETED') {
    const why = textOf(deployed.status.message);
    const declined = deployed.status.state === 'TASK_STATE_CANCELED' && !cfg.confirmProduction ? ' (the planner did not confirm)' : '';
    return { ok: false, stoppedAt: 'deploy', summary: `deploy ended ${deployed.status.state}${declined}${why ? `: ${why}` : ''}`, tasks };
  }
  const release = dataOf(deployed);
  return {
    ok: true,
    summary: `${cfg.project} passed tests and review and is live on ${cfg.target}${release?.version ? ` as ${release.version}` : ''}`,
    tasks,
  };
}
