/**
 * Peer text on a terminal. An agent chooses its card, status messages, artifacts and errors, and a
 * terminal obeys control sequences inside them: ESC sequences can move the cursor, rewrite earlier
 * lines, retitle the window or hide text; bidi overrides can make `evil.com/moc.example` read as
 * something else. Every line the CLI prints for people passes through {@link visible}, which shows
 * such characters as escapes (`\x1b`, `\u202e`) instead of letting the terminal act on them.
 * `--json` output is not touched: JSON.stringify already escapes controls, and scripts need the bytes.
 */

/** One character that must not reach a terminal raw: C0 (but tab/newline), DEL, C1, bidi, line separators. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, with tab and newline too: for text that must stay on one line. */
const UNSAFE_ONE_LINE =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The colour and weight codes of our own palette (terminal.ts), the only escapes let through. */
// eslint-disable-next-line no-control-regex
const OWN_STYLE = /\x1b\[(?:1|2|22|3[1-6]|39)m/y;

/** `\x1b` for a code below 0x100, `\u202e` above. */
function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** How {@link visible} treats text. */
export interface VisibleOptions {
  /** Keep newlines and tabs (a multi-line block); otherwise they are escaped too. Default true. */
  lines?: boolean;
  /** Cut the result to this many characters (with `…(N chars)`). Default: no cut. */
  max?: number;
}

/**
 * `text` with every control character, DEL, C1 control and bidi override or isolate shown as an
 * escape; newlines and tabs kept unless `lines: false`. One pass with one regular expression (no
 * backtracking): linear in the length of the text.
 */
export function visible(text: string, options: VisibleOptions = {}): string {
  const cut =
    options.max !== undefined && text.length > options.max
      ? `${text.slice(0, options.max)}…(${text.length} chars)`
      : text;
  return cut.replace(options.lines === false ? UNSAFE_ONE_LINE : UNSAFE, escape);
}

/** Peer text meant for one line: like {@link visible} with newlines and tabs escaped as well. */
export function oneLine(text: string | undefined, max?: number): string {
  return visible(text ?? '', { lines: false, ...(max !== undefined ? { max } : {}) });
}

/**
 * A whole line the CLI is about to print: peer text in it is escaped as by {@link visible}, while the
 * colour codes our own palette put there are kept (only those exact sequences; anything else after
 * an ESC is escaped). `\r` is escaped, so nothing can overwrite what was printed before.
 */
export function safeLine(line: string): string {
  if (!line.includes('\x1b')) return visible(line);
  let out = '';
  let from = 0;
  for (let at = line.indexOf('\x1b'); at !== -1; at = line.indexOf('\x1b', at + 1)) {
    OWN_STYLE.lastIndex = at;
    const own = OWN_STYLE.exec(line);
    if (!own) continue;
    out += visible(line.slice(from, at)) + own[0];
    from = at + own[0].length;
    at = from - 1;
  }
  return out + visible(line.slice(from));
}
