/**
 * Telling pasted code from prose, and unwrapping a Markdown fence, in one pass over a bounded prefix.
 * Two of the former hints were regular expressions that backtrack quadratically on peer text —
 * `^\s*(?:\/\/|\/\*)` with the `m` flag on "a" + 150,000 newlines (17 s), `\w\s*\(.*\)` on "a(" ×
 * 100,000 (10 s) — stalling every agent of the process (issue 28). Each is a linear scan here.
 */

/** How much of a text is looked at to tell code from prose: the start of a file says enough. */
export const HINT_WINDOW = 16 * 1024;

/** Tokens that only code has; plain prose rarely carries two of them. Linear patterns only. */
const PUNCTUATION = /[;{}]/;
const OPERATORS = /=>|===|!==|\(\s*\)/;
const KEYWORDS = /\b(?:const|let|var|function|class|import|export|return|interface|type)\b/;

const isTerminator = (c: string): boolean =>
  c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/** Index of the next line terminator at or after `from`, or the text's length. */
function lineEnd(t: string, from: number): number {
  let i = from;
  while (i < t.length && !isTerminator(t[i]!)) i++;
  return i;
}

/** A word followed by `(` and, later on the same line, `)`: a call or a declaration. */
export function hasCall(t: string): boolean {
  const open = /\w\s*\(/g;
  // The first `)` and the first line end after `from` stay the same while `from` has not passed
  // them: each is found once and reused, so the scan stays linear however many `(` a line holds.
  let close = -1;
  let end = -1;
  for (let m = open.exec(t); m !== null; m = open.exec(t)) {
    const from = m.index + m[0].length;
    if (close < from) {
      close = t.indexOf(')', from);
      if (close < 0) return false;
    }
    if (end < from) end = lineEnd(t, from);
    if (close < end) return true;
  }
  return false;
}

/** A line that starts (after blanks) with `//` or `/*`. */
export function hasCommentLine(t: string): boolean {
  let i = 0;
  while (i <= t.length) {
    let j = i;
    while (j < t.length && !isTerminator(t[j]!) && t[j]!.trim() === '') j++;
    if (t.startsWith('//', j) || t.startsWith('/*', j)) return true;
    i = lineEnd(t, j) + 1;
  }
  return false;
}

/** Whether a text looks like source code rather than a request or noise (its first 16 KiB decide). */
export function looksLikeCode(text: string): boolean {
  const t = text.length > HINT_WINDOW ? text.slice(0, HINT_WINDOW) : text;
  const hints = [
    () => PUNCTUATION.test(t),
    () => OPERATORS.test(t),
    () => KEYWORDS.test(t),
    () => hasCall(t),
    () => hasCommentLine(t),
  ];
  let n = 0;
  for (const hint of hints) if (hint() && ++n >= 2) return true;
  return false;
}

/** A snippet pasted inside a Markdown code fence (```lang … ```) is reviewed without the fence lines. */
export function stripFence(text: string): string {
  const t = text.trim();
  if (!t.startsWith('```') || !t.endsWith('```')) return text;
  const nl = t.indexOf('\n');
  if (nl < 0 || t.length - 3 < nl + 1) return text;
  for (let i = 3; i < nl; i++) if (!/[\w-]/.test(t[i]!)) return text; // the fence's language tag
  const inner = t.slice(nl + 1, t.length - 3);
  return inner.endsWith('\n') ? inner.slice(0, -1) : inner;
}
