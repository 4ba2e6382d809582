/**
 * The kit view's feed: what an orchestrator (the kit's planner, or any program driving several agents)
 * tells the inspector while it runs. The inspector keeps every event of the run so a page opened late,
 * or reloaded, shows the whole run, and the run stays browsable after it ends.
 */

/** A task state as the planner prints it: `WORKING`, `INPUT_REQUIRED`, `COMPLETED`, … (no `TASK_STATE_` prefix). */
export type PipelineState =
  | 'SUBMITTED'
  | 'WORKING'
  | 'INPUT_REQUIRED'
  | 'AUTH_REQUIRED'
  | 'COMPLETED'
  | 'FAILED'
  | 'CANCELED'
  | 'REJECTED';

/**
 * One thing that happened in a pipeline run. `stage` names the step it belongs to (the `id` of a
 * `stage` event); events without one belong to the step announced last.
 */
export type PipelineEvent =
  /** A new run starts: the page forgets the previous one. */
  | { type: 'run'; title: string }
  /** An agent was discovered; later events with the same `name` add what was learned. */
  | {
      type: 'agent';
      name: string;
      /** Base URL of the agent; the page opens its card view from it. */
      url?: string;
      cardUrl?: string;
      version?: string;
      /** The interface chosen, e.g. `[0] JSONRPC 1.0 http://localhost:41241/a2a/jsonrpc`, and why. */
      interface?: string;
      reason?: string;
      /** The card's entries passed over before the chosen one, e.g. `[0] GRPC 1.0` for `binding not spoken`. */
      skipped?: Array<{ entry: string; why: string }>;
      streaming?: string;
      push?: string;
      auth?: string;
      skills?: string[];
      /** What the signature check said, e.g. `signature ✓ ES256 kid=…`. */
      signature?: string;
    }
  /** A step of the pipeline begins (discovery, tests, review, deploy). */
  | { type: 'stage'; id: string; title: string; agent?: string; detail?: string }
  /** A task of the current step reached a state; `via` says how the planner learned it (stream, push, poll). */
  | {
      type: 'state';
      stage?: string;
      taskId?: string;
      state: PipelineState;
      text?: string;
      via?: string;
    }
  /** An artifact arrived, or its summary once the task ended. */
  | { type: 'artifact'; stage?: string; name: string; text?: string }
  /** The agent asked for input and the planner answered (or declined). */
  | { type: 'confirm'; stage?: string; agent: string; question: string; answer: string }
  /** A decision or remark worth showing (interface chosen, skill map, webhook address, …). */
  | { type: 'note'; stage?: string; text: string }
  /** The run ended. */
  | { type: 'outcome'; ok: boolean; text: string };

/** A pipeline event as the page receives it: numbered in the order it was published, stamped with the time. */
export type PipelineRecord = PipelineEvent & { seq: number; at: string };

/** Keeps the events of the current run and tells listeners about new ones. */
export class PipelineFeed {
  readonly #events: PipelineRecord[] = [];
  readonly #listeners = new Set<(ev: PipelineRecord) => void>();
  #seq = 0;
  /** Bounds memory for a run that never ends; a kit run has a few hundred events. */
  readonly #max = 5000;

  /** Records an event and tells every page. A `run` event starts over. */
  publish(event: PipelineEvent): void {
    if (event.type === 'run') this.#events.length = 0;
    const rec = { ...event, seq: ++this.#seq, at: new Date().toISOString() };
    if (this.#events.length >= this.#max) this.#events.shift();
    this.#events.push(rec);
    for (const l of this.#listeners) l(rec);
  }

  /** The current run, oldest first. */
  list(): PipelineRecord[] {
    return [...this.#events];
  }

  /** Subscribes to new events; returns the unsubscribe function. */
  on(listener: (ev: PipelineRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
