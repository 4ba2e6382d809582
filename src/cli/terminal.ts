/**
 * Where the command writes: results on stdout (lines for people, JSON for scripts), notes, errors
 * and progress on stderr. Colours only on a terminal and never with NO_COLOR; the spinner only when
 * stderr is a terminal, cleared before any line is written so the two never mix.
 */
import type { Writable } from 'node:stream';
import { oneLine, safeLine } from './safe-text.js';

/** The process's streams and environment, injected so nothing here reaches for globals. */
export interface CliIO {
  /** Results. */
  stdout: Writable & { isTTY?: boolean };
  /** Notes, errors, progress, the `--verbose` wire log. */
  stderr: Writable & { isTTY?: boolean };
  /** Answers to INPUT_REQUIRED prompts. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** NO_COLOR, A2A_TOKEN, … */
  env: NodeJS.ProcessEnv;
}

/** ANSI styles, or the identity when colours are off. */
export interface Palette {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
}

const style = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const COLOURS: Palette = {
  bold: style(1, 22),
  dim: style(2, 22),
  red: style(31, 39),
  green: style(32, 39),
  yellow: style(33, 39),
  blue: style(34, 39),
  magenta: style(35, 39),
  cyan: style(36, 39),
};
const same = (s: string) => s;
const PLAIN: Palette = {
  bold: same,
  dim: same,
  red: same,
  green: same,
  yellow: same,
  blue: same,
  magenta: same,
  cyan: same,
};

/** https://no-color.org: present and not empty turns colours off. */
export function colourAllowed(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The command's output. */
export class Terminal {
  /** Styles for stdout. */
  readonly out: Palette;
  /** Styles for stderr. */
  readonly err: Palette;
  readonly #io: CliIO;
  readonly #spin: boolean;
  #label: string | undefined;
  #since = 0;
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;
  #drawn = false;

  /** Decides colours and progress from the streams and the environment. */
  constructor(io: CliIO) {
    this.#io = io;
    this.out = colourAllowed(io.stdout, io.env) ? COLOURS : PLAIN;
    this.err = colourAllowed(io.stderr, io.env) ? COLOURS : PLAIN;
    this.#spin = io.stderr.isTTY === true && io.env.TERM !== 'dumb';
  }

  /** Whether stdin is a terminal someone can type an answer into. */
  get interactive(): boolean {
    return this.#io.stdin.isTTY === true;
  }

  /** One line of results; control characters and bidi overrides in it are shown escaped (safe-text.ts). */
  line(text = ''): void {
    this.#raw(safeLine(text));
  }

  /** One JSON document, indented for reading; byte-exact (JSON already escapes controls). */
  json(value: unknown): void {
    this.#raw(JSON.stringify(value, null, 2));
  }

  /** One NDJSON line (an event of a stream); byte-exact. */
  ndjson(value: unknown): void {
    this.#raw(JSON.stringify(value));
  }

  /** A line on stderr: notes, hints, the wire log; escaped like {@link Terminal.line}. */
  note(text: string): void {
    this.#clear();
    this.#io.stderr.write(`${safeLine(text)}\n`);
    this.#redraw();
  }

  #raw(text: string): void {
    this.#clear();
    this.#io.stdout.write(`${text}\n`);
    this.#redraw();
  }

  /** Shows `label` with a spinner and the time since `waiting` was first called for it (terminal only). */
  waiting(label: string): void {
    if (!this.#spin) return;
    if (oneLine(label, 200) !== this.#label) this.#since = Date.now();
    this.#label = oneLine(label, 200);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#redraw(), 100);
      this.#timer.unref();
    }
    this.#redraw();
  }

  /** Removes the spinner. */
  done(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
    this.#label = undefined;
  }

  #clear(): void {
    if (!this.#drawn) return;
    this.#io.stderr.write('\r\x1b[2K');
    this.#drawn = false;
  }

  #redraw(): void {
    if (!this.#spin || this.#label === undefined) return;
    this.#frame = (this.#frame + 1) % FRAMES.length;
    const seconds = ((Date.now() - this.#since) / 1000).toFixed(1);
    this.#io.stderr.write(
      `\r\x1b[2K${this.err.cyan(FRAMES[this.#frame]!)} ${this.#label} ${this.err.dim(`${seconds} s`)}`,
    );
    this.#drawn = true;
  }
}
