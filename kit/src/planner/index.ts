/** The kit's planner: discover the agents, then take a change through tests → review → deploy. */
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { CardTrust, ClientInterceptor } from 'a2a-kit/client';
import type { PlannerConfig } from './config.js';
import { discover } from './discovery.js';
import { dataOf, runPipeline, type PipelineResult, type StageTime } from './pipeline.js';
import type { PlannerEvent } from './events.js';
import { Transcript, elapsed } from './transcript.js';
import { PlannerWebhook } from './webhook.js';

export {
  loadConfig,
  configFrom,
  agentUrl,
  DEFAULT_CONFIG,
  PLANNER_FLAGS,
  type PlannerConfig,
  type PlannerFlag,
  type VerifyMode,
} from './config.js';
export { discover, PIPELINE_SKILLS, type AgentFacts, type Discovery } from './discovery.js';
export { runPipeline, dataOf, type PipelineResult, type StageTime } from './pipeline.js';
export { Transcript, artifactSummary, elapsed, type Told } from './transcript.js';
export {
  skippedInterfaces,
  type PlannerEvent,
  type PlannerStage,
  type SkippedInterface,
  type StateSource,
} from './events.js';
export { PlannerWebhook } from './webhook.js';

export interface RunPlannerOptions {
  out?: Writable;
  /** Directory the agents resolve project paths against (to read files for the reviewer). */
  workspaceRoot: string;
  /** Keys trusted to sign the agents' cards. */
  trust?: CardTrust;
  /** Abort to interrupt the run (Ctrl-C): the task being waited on is canceled and the result says so. */
  signal?: AbortSignal;
  /** Stages timed before the planner ran (the demo's agent start), listed first in the summary. */
  before?: StageTime[];
  /** What to try next, as [command, what it shows] pairs, for the summary under the outcome. */
  next?: (result: PipelineResult) => Array<[command: string, what: string]>;
  /** Told the run as events while the transcript prints it (the inspector's kit view listens here). */
  onEvent?: (ev: PlannerEvent) => void;
  /** Client interceptors for every call to the agents (the demo's `--trace` traces them). */
  interceptors?: readonly ClientInterceptor[];
}

/**
 * Run the whole job once; never throws for a failed pipeline (see `ok`), only reports it. The transcript
 * ends with the outcome, then where the release went, the time per stage, and what to try next.
 */
export async function runPlanner(
  cfg: PlannerConfig,
  opts: RunPlannerOptions,
): Promise<PipelineResult> {
  const t = new Transcript(opts.out, opts.onEvent);
  let webhook: PlannerWebhook | undefined;
  let result: PipelineResult;
  const started = performance.now();
  const discovery: StageTime = { stage: 'discovery', ms: 0 };
  try {
    const d = await discover(cfg, t, opts.trust, undefined, opts.interceptors);
    // A webhook only when some agent cannot stream but takes push (the card says so; no blind calls).
    if (d.agents.some((a) => !a.streams && a.push)) {
      webhook = new PlannerWebhook();
      const url = await webhook.start(cfg.webhookHost, cfg.webhookPort);
      t.note(`push webhook for non-streaming agents listening at ${url}`);
    }
    discovery.ms = performance.now() - started;
    result = opts.signal?.aborted
      ? {
          ok: false,
          interrupted: true,
          summary: 'interrupted after discovery: nothing was delegated',
          tasks: [],
        }
      : await runPipeline(cfg, d, t, webhook, opts.workspaceRoot, opts.signal);
  } catch (err) {
    discovery.ms = performance.now() - started;
    result = opts.signal?.aborted
      ? {
          ok: false,
          interrupted: true,
          summary: 'interrupted during discovery: nothing was delegated',
          tasks: [],
        }
      : { ok: false, summary: `planner stopped: ${(err as Error).message}`, tasks: [] };
  } finally {
    await webhook?.close();
  }
  t.outcome(result.ok, result.summary);
  t.summary(
    summaryRows(result, [...(opts.before ?? []), discovery, ...(result.stages ?? [])], opts),
  );
  return result;
}

function summaryRows(
  result: PipelineResult,
  stages: StageTime[],
  opts: RunPlannerOptions,
): Array<[string, string[]]> {
  const rows: Array<[string, string[]]> = [];
  const release = result.ok ? dataOf(result.tasks.at(-1)!) : undefined;
  if (typeof release?.path === 'string') {
    const where = path.relative(process.cwd(), release.path);
    const shown = where && !where.startsWith('..') ? where : release.path;
    rows.push([
      'release',
      [
        `${shown}  (${release.target}/current points here; ${release.previous ? `previous v${release.previous}` : 'first release'})`,
      ],
    ]);
  }
  const total = stages.reduce((sum, s) => sum + s.ms, 0);
  rows.push([
    'time',
    [[...stages.map((s) => `${s.stage} ${elapsed(s.ms)}`), `total ${elapsed(total)}`].join(' · ')],
  ]);
  const next = opts.next?.(result) ?? [];
  if (next.length) {
    const width = Math.max(...next.map(([c]) => c.length));
    rows.push(['next', next.map(([c, what]) => `${c.padEnd(width)}  ${what}`)]);
  }
  return rows;
}
