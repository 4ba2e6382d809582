/**
 * What the planner does, as data: the same run its transcript prints, told to a listener (the
 * inspector's kit view) as facts instead of lines, so a listener never has to read the wording.
 * Every transcript line is told exactly once: as the event it stands for, or else as a `note`.
 */
import type { TaskState } from 'a2a-kit';

/** The steps of a run, in order. */
export type PlannerStage = 'discovery' | 'tests' | 'review' | 'deploy';

/** How the planner learned a task's state: its stream, a push notification, a GetTask poll, or a call's own answer. */
export type StateSource = 'stream' | 'push' | 'poll' | 'SendMessage' | 'CancelTask';

/** An interface entry of a card that the client passed over before the one it chose, and why. */
export interface SkippedInterface {
  /** The entry as `[index] BINDING version`, e.g. `[0] GRPC 1.0`. */
  entry: string;
  /** E.g. `binding not spoken`, `version not spoken`. */
  why: string;
}

/** One thing the planner did or learned. */
export type PlannerEvent =
  /** A step begins; the events after it belong to it. */
  | { kind: 'stage'; stage: PlannerStage; title: string; agent?: string; detail?: string }
  /** An agent's card was fetched (and its signature checked). */
  | {
      kind: 'agent';
      name: string;
      version: string;
      baseUrl: string;
      cardUrl?: string;
      from: string;
      signature: string;
    }
  /**
   * What discovery decided about an agent: the interface its client uses, the entries passed over before
   * it, and what the card says it can do (`undefined`: the card leaves the capability out).
   */
  | {
      kind: 'decision';
      agent: string;
      interface: { index: number; binding: string; protocolVersion: string; url: string };
      skipped: SkippedInterface[];
      streaming: boolean | undefined;
      push: boolean | undefined;
      /** Security schemes the card requires (empty: none). */
      auth: string[];
      skills: string[];
    }
  /** A task of the current step reached a state; `text` is its status message, unless it was shown already. */
  | { kind: 'state'; taskId: string; state: TaskState; via: StateSource; text?: string }
  /**
   * An artifact of the current step's task, as it arrived (`via`) or, without `via`, from the task once
   * it stopped; `chunk` for a piece of one still being written.
   */
  | {
      kind: 'artifact';
      taskId: string;
      name: string;
      via?: StateSource;
      text?: string;
      chunk?: boolean;
    }
  /** The agent asked for input and the planner answered (`confirmed`) or declined. */
  | { kind: 'confirm'; agent: string; question: string; answer: string; confirmed: boolean }
  /** A transcript line with no event of its own (a decision such as the skill map, a remark). */
  | { kind: 'note'; text: string }
  /** The run ended. */
  | { kind: 'outcome'; ok: boolean; text: string };

/**
 * The entries the client skipped, from its explanation of the choice (`skipped [0] GRPC 1.0: binding
 * not spoken; …; chose [2] …`). An explanation in another shape is kept whole as the reason.
 */
export function skippedInterfaces(reason: string): SkippedInterface[] {
  return reason
    .split('; ')
    .filter((r) => r.startsWith('skipped '))
    .map((r) => {
      const m = /^skipped (\[\d+\] \S+ \S+): (.*)$/.exec(r);
      return m ? { entry: m[1]!, why: m[2]! } : { entry: r.slice('skipped '.length), why: '' };
    });
}
