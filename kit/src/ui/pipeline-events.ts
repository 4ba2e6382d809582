/**
 * The planner's events turned into the inspector's pipeline events: which agents were found and what
 * discovery decided about them, each step, each state its task reached (and how the planner learned
 * it: stream, push, poll), artifacts, the deploy's confirmation, the outcome. It reads the planner's
 * data, never its printed words, so rewording the transcript cannot break the kit view.
 */
import type { PipelineEvent, PipelineState } from 'a2a-kit/inspector';
import type { PlannerEvent } from '../planner/index.js';

/** `true` → yes, `false` → no, left out of the card → absent (as the transcript's table says it). */
const flag = (v: boolean | undefined): string =>
  v === true ? 'yes' : v === false ? 'no' : 'absent';

/** `TASK_STATE_INPUT_REQUIRED` → `INPUT_REQUIRED`. */
const short = (state: string): PipelineState => state.replace(/^TASK_STATE_/, '') as PipelineState;

/** A task id as the transcript shows it: its first 8 characters. */
const shortId = (id: string): string => id.slice(0, 8);

/** A stateful translator, one per planner run: events without a step belong to the step begun last. */
export class PlannerToPipeline {
  #stage: string | undefined;

  /** The pipeline event one planner event stands for. */
  map(ev: PlannerEvent): PipelineEvent {
    const at = this.#stage ? { stage: this.#stage } : {};
    switch (ev.kind) {
      case 'stage':
        this.#stage = ev.stage;
        return {
          type: 'stage',
          id: ev.stage,
          title: ev.title,
          ...(ev.agent ? { agent: ev.agent } : {}),
          ...(ev.detail ? { detail: ev.detail } : {}),
        };
      case 'agent':
        return {
          type: 'agent',
          name: ev.name,
          url: ev.baseUrl,
          ...(ev.cardUrl ? { cardUrl: ev.cardUrl } : {}),
          version: ev.version,
          signature: `${ev.signature} (card from ${ev.from})`,
        };
      case 'decision': {
        const i = ev.interface;
        return {
          type: 'agent',
          name: ev.agent,
          interface: `[${i.index}] ${i.binding} ${i.protocolVersion} ${i.url}`,
          skipped: ev.skipped,
          streaming: flag(ev.streaming),
          push: flag(ev.push),
          auth: ev.auth.length ? ev.auth.join('+') : 'none',
          skills: ev.skills,
        };
      }
      case 'state':
        return {
          type: 'state',
          ...at,
          taskId: shortId(ev.taskId),
          state: short(ev.state),
          via: ev.via,
          ...(ev.text ? { text: ev.text } : {}),
        };
      case 'artifact':
        return {
          type: 'artifact',
          ...at,
          name: ev.chunk ? `${ev.name} (chunk)` : ev.name,
          ...(ev.text ? { text: ev.text } : {}),
        };
      case 'confirm':
        return {
          type: 'confirm',
          ...at,
          agent: ev.agent,
          question: ev.question,
          answer: ev.answer,
        };
      case 'note':
        return { type: 'note', ...at, text: ev.text };
      case 'outcome':
        return { type: 'outcome', ok: ev.ok, text: ev.text };
    }
  }
}
