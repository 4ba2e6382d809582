/** The planner's live, human-readable transcript. Writes lines to a stream; colour only on a TTY. */
import type { Writable } from 'node:stream';

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

export class Transcript {
  readonly #color: boolean;
  #section = 0;

  constructor(private readonly out: Writable & { isTTY?: boolean } = process.stdout) {
    this.#color = out.isTTY === true && !process.env.NO_COLOR;
  }

  style(text: string, style: Style): string {
    return this.#color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
  }

  line(text = ''): void {
    this.out.write(`${text}\n`);
  }

  section(title: string, detail?: string): void {
    this.line();
    this.line(this.style(`${++this.#section} · ${title}`, 'bold') + (detail ? this.style(`  (${detail})`, 'dim') : ''));
  }

  item(text: string): void {
    this.line(`  ${text}`);
  }

  note(text: string): void {
    this.line(this.style(`  ${text}`, 'dim'));
  }

  /** A task state, short and coloured: TASK_STATE_INPUT_REQUIRED → INPUT_REQUIRED. */
  state(state: string): string {
    const short = state.replace(/^TASK_STATE_/, '');
    const s = STATE_STYLE[state];
    return s ? this.style(short, s) : short;
  }

  table(headers: string[], rows: string[][]): void {
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
    this.item(this.style(fmt(headers), 'bold'));
    for (const r of rows) this.item(fmt(r));
  }

  outcome(ok: boolean, text: string): void {
    this.line();
    this.line(this.style(`${ok ? '✔' : '✘'} ${text}`, ok ? 'green' : 'red'));
  }
}
