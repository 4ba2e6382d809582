/**
 * `a2a-kit/cli-args`: the one "did you mean" of every command line in this project (the `a2a` CLI,
 * the kit's commands, the bench scripts), for a mistyped command, flag or setting. "Did you mean": the closest known word to a mistyped one, by edit distance with adjacent
 * transpositions (`sned` → `send` is one edit, as a typist would count it).
 */

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a typo (at most a third of its
 * length, and never more than 3 edits), or a known word that starts with it (`--ext` → `--extended`).
 */
export function closest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { word: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(w, k.toLowerCase());
    if (!best || distance < best.distance) best = { word: k, distance };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  if (best && best.distance <= limit) return best.word;
  const prefixed = [...known].filter((k) => w.length >= 2 && k.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean x?` to append to an error message, or nothing. */
export function didYouMean(
  word: string,
  known: Iterable<string>,
  show: (k: string) => string = (k) => k,
): string {
  const k = closest(word, known);
  return k === undefined ? '' : `; did you mean ${show(k)}?`;
}
