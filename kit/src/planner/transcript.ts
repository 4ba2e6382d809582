/**
 * The planner's live, human-readable transcript. Writes lines to a stream; colour only on a TTY. It
 * remembers what it has shown, so the same artifact or text is not printed twice for one task.
 */
import type { Writable } from 'node:stream';
import type { Artifact } from 'a2a-kit';
import type { PlannerEvent, PlannerStage } from './events.js';

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Style = keyof typeof CODES;

const STATE_STYLE: Record<string, Style> = {
  TASK_STATE_COMPLETED: 'green',
  TASK_STATE_FAILED: 'red',
  TASK_STATE_REJECTED: 'red',
  TASK_STATE_CANCELED: 'yellow',
  TASK_STATE_INPUT_REQUIRED: 'yellow',
  TASK_STATE_AUTH_REQUIRED: 'yellow',
};

/** The first text line of an artifact, or how many parts it has. */
export function artifactSummary(a: Artifact): string {
  const text = a.parts
    .map((p) => ('text' in p ? p.text : ''))
    .filter(Boolean)
    .join(' ')
    .split('\n')[0];
  return text || `${a.parts.length} part(s)`;
}

/** `1234` → `1.2 s`; under a second → `340 ms`. */
export function elapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * What a printed line stands for, as told to the listener: an event, or `false` when the line repeats
 * what an event told already. Left out, the line is told as a `note` (in plain text, no colour).
 */
export type Told = PlannerEvent | false;

// The colour codes this class itself writes, and nothing else, are taken out for listeners.
// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[\d+m/g, '');

/** The planner's transcript: lines to a stream (coloured on a TTY), and the same run as events to an optional listener. */
export class Transcript {
  readonly #color: boolean;
  #section = 0;
  readonly #shown = new Set<string>();

  constructor(
    private readonly out: Writable & { isTTY?: boolean } = process.stdout,
    private readonly listener?: (ev: PlannerEvent) => void,
  ) {
    this.#color = out.isTTY === true && !process.env.NO_COLOR;
  }

  style(text: string, style: Style): string {
    return this.#color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
  }

  line(text = ''): void {
    this.out.write(`${text}\n`);
  }

  /** A numbered heading for a step: `2 · Tests → test-runner  (detail)`. */
  section(stage: PlannerStage, title: string, detail?: string, agent?: string): void {
    this.line();
    const heading = agent ? `${title} → ${agent}` : title;
    this.line(
      this.style(`${++this.#section} · ${heading}`, 'bold') +
        (detail ? this.style(`  (${detail})`, 'dim') : ''),
    );
    this.tell({
      kind: 'stage',
      stage,
      title,
      ...(agent ? { agent } : {}),
      ...(detail ? { detail } : {}),
    });
  }

  /** A line of the step; `told` is the event it stands for (see {@link Told}). */
  item(text: string, told?: Told): void {
    this.line(`  ${text}`);
    this.#told(text, told);
  }

  /** A dimmed line: how or why, rather than what. */
  note(text: string, told?: Told): void {
    this.line(this.style(`  ${text}`, 'dim'));
    this.#told(text, told);
  }

  /** Tells the listener an event that has no line of its own (a table row, say). */
  tell(ev: PlannerEvent): void {
    this.listener?.(ev);
  }

  #told(text: string, told: Told | undefined): void {
    if (told === false) return;
    this.tell(told ?? { kind: 'note', text: plain(text) });
  }

  /** A task state, short and coloured: TASK_STATE_INPUT_REQUIRED → INPUT_REQUIRED. */
  state(state: string): string {
    const short = state.replace(/^TASK_STATE_/, '');
    const s = STATE_STYLE[state];
    return s ? this.style(short, s) : short;
  }

  table(headers: string[], rows: string[][]): void {
    const widths = headers.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)),
    );
    const fmt = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    this.line(`  ${this.style(fmt(headers), 'bold')}`);
    for (const r of rows) this.line(`  ${fmt(r)}`);
  }

  /** Records that `key` (e.g. a task's artifact or status text) has been shown; false if it already had been. */
  once(key: string): boolean {
    if (this.#shown.has(key)) return false;
    this.#shown.add(key);
    return true;
  }

  /** Whether `key` has been shown (see {@link once}). */
  shown(key: string): boolean {
    return this.#shown.has(key);
  }

  /** Labelled rows under the outcome: `  label  text`, a row of several lines indented under its first. */
  summary(rows: Array<[label: string, lines: string[]]>): void {
    const width = Math.max(...rows.map(([l]) => l.length));
    for (const [label, lines] of rows) {
      lines.forEach((line, i) => this.line(`  ${(i === 0 ? label : '').padEnd(width)}  ${line}`));
    }
  }

  outcome(ok: boolean, text: string): void {
    this.line();
    this.line(this.style(`${ok ? '✔' : '✘'} ${text}`, ok ? 'green' : 'red'));
    this.tell({ kind: 'outcome', ok, text: plain(text) });
  }
}
