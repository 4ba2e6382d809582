/**
 * Reading a request typed as a sentence ("run tests in change-ok", "deploy x to staging as 1.2") by
 * scanning it once, word by word. These used to be regular expressions with lazy groups and optional
 * whitespace around them, which backtrack quadratically on peer text such as "test a" + 200 KB of
 * spaces + "b": 19 s of a blocked event loop for every agent in the process (issue 28). A scan is
 * linear, and a text longer than {@link MAX_COMMAND_CHARS} is not read as a command at all.
 */

/** The longest text read as a command sentence; longer texts are data or code, never a command. */
export const MAX_COMMAND_CHARS = 2000;

/** One word of a sentence and where it sits in the text (so a path keeps its own spacing). */
export interface Word {
  /** The word in lower case, for keyword comparisons. */
  lower: string;
  start: number;
  end: number;
}

const isSpace = (c: string): boolean => c.trim() === ''; // the same characters as \s

/** The words of `text` (split at whitespace), or undefined when it is too long to be a command. */
export function wordsOf(text: string): Word[] | undefined {
  if (text.length > MAX_COMMAND_CHARS) return undefined;
  const out: Word[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && isSpace(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && !isSpace(text[i]!)) i++;
    out.push({ lower: text.slice(start, i).toLowerCase(), start, end: i });
  }
  return out;
}

/**
 * A cursor over the words of one sentence. `take` consumes an optional keyword only when at least
 * `leave` words would remain after it, as the old patterns' `(?:word\s+)?` did.
 */
export class Sentence {
  #at = 0;

  constructor(
    readonly text: string,
    readonly words: readonly Word[],
  ) {}

  /** Parsed from `text`; undefined when the text is too long to be a command. */
  static of(text: string): Sentence | undefined {
    const words = wordsOf(text);
    return words && new Sentence(text, words);
  }

  /** Words not yet consumed. */
  get left(): number {
    return this.words.length - this.#at;
  }

  /** The next word (lower case), if any. */
  peek(offset = 0): string | undefined {
    return this.words[this.#at + offset]?.lower;
  }

  /** Consumes the next word when it is one of `options` and `leave` words remain after it. */
  take(options: readonly string[], leave = 1): string | undefined {
    const w = this.peek();
    if (w === undefined || this.left - 1 < leave || !options.includes(w)) return undefined;
    this.#at++;
    return w;
  }

  /** The original text from the next word to the end (its inner spacing kept), consuming it all. */
  rest(): string {
    const w = this.words[this.#at];
    this.#at = this.words.length;
    return w ? this.text.slice(w.start).trimEnd() : '';
  }

  /** The original text of words [from, to) of the remaining ones, without consuming them. */
  span(from: number, to: number): string {
    const a = this.words[this.#at + from];
    const b = this.words[this.#at + to - 1];
    return a && b ? this.text.slice(a.start, b.end) : '';
  }

  /** The remaining words themselves (original case). */
  remaining(): string[] {
    return this.words.slice(this.#at).map((w) => this.text.slice(w.start, w.end));
  }
}
