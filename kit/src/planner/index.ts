/** The kit's planner: discover the agents, then take a change through tests → review → deploy. */
import type { Writable } from 'node:stream';
import type { CardTrust } from 'a2a-kit/client';
import type { PlannerConfig } from './config.js';
import { discover } from './discovery.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
import { Transcript, type TranscriptEvent } from './transcript.js';
import { PlannerWebhook } from './webhook.js';

export { loadConfig, agentUrl, DEFAULT_CONFIG, type PlannerConfig, type VerifyMode } from './config.js';
export { discover, PIPELINE_SKILLS, type AgentFacts, type Discovery } from './discovery.js';
export { runPipeline, dataOf, type PipelineResult } from './pipeline.js';
export { Transcript, type TranscriptEvent } from './transcript.js';
export { PlannerWebhook } from './webhook.js';

export interface RunPlannerOptions {
  out?: Writable;
  /** Directory the agents resolve project paths against (to read files for the reviewer). */
  workspaceRoot: string;
  /** Keys trusted to sign the agents' cards. */
  trust?: CardTrust;
  /** Told every transcript line as data as it is written (the inspector's kit view listens here). */
  onTranscript?: (ev: TranscriptEvent) => void;
}

/** Run the whole job once; never throws for a failed pipeline (see `ok`), only reports it. */
export async function runPlanner(cfg: PlannerConfig, opts: RunPlannerOptions): Promise<PipelineResult> {
  const t = new Transcript(opts.out, opts.onTranscript);
  let webhook: PlannerWebhook | undefined;
  try {
    const d = await discover(cfg, t, opts.trust);
    // A webhook only when some agent cannot stream but takes push (the card says so; no blind calls).
    if (d.agents.some((a) => !a.streams && a.push)) {
      webhook = new PlannerWebhook();
      const url = await webhook.start(cfg.webhookHost, cfg.webhookPort);
      t.note(`push webhook for non-streaming agents listening at ${url}`);
    }
    const result = await runPipeline(cfg, d, t, webhook, opts.workspaceRoot);
    t.outcome(result.ok, result.summary);
    return result;
  } catch (err) {
    const summary = `planner stopped: ${(err as Error).message}`;
    t.outcome(false, summary);
    return { ok: false, summary, tasks: [] };
  } finally {
    await webhook?.close();
  }
}
