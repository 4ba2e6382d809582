/**
 * Large request bodies take turns. Parsing and checking a body of a megabyte holds the event loop for
 * tens of milliseconds; several that arrived together were handled back to back, and every small request
 * that came with them (a card, a health probe, a status read) waited behind all of them: under the attack
 * soak (issue 28) an agent's card took 150–190 ms at p99. Now a large body, once read, waits for a turn
 * of the event loop of its own, one large body per turn, so whatever else is ready is served in between
 * and a small request waits behind at most one large body.
 */

/** Bodies of this many bytes or more wait for their turn before they are parsed. */
export const HEAVY_BODY_BYTES = 64 * 1024;

// Node, Bun and Deno have setImmediate (after I/O, before timers); a Workers isolate may not.
const nextTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

const waiting: Array<() => void> = [];
let scheduled = false;

function release(): void {
  waiting.shift()?.();
  // A turn scheduled from inside a turn runs in the next iteration of the loop, after pending I/O.
  if (waiting.length > 0) nextTurn(release);
  else scheduled = false;
}

/** Resolves `text` at once when it is small, else in its turn (first come, first served). */
export function inTurn(text: string): string | Promise<string> {
  // Length in UTF-16 units: at least a third of the byte count, which is all a threshold needs.
  if (text.length < HEAVY_BODY_BYTES) return text;
  return new Promise((resolve) => {
    waiting.push(() => resolve(text));
    if (!scheduled) {
      scheduled = true;
      nextTurn(release);
    }
  });
}
