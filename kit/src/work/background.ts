/**
 * Work an agent does for a caller — a test run, a review — gives way to the thread that serves requests.
 * On a machine with few cores a review's compiler or a test suite's processes would otherwise take the
 * CPU from it, and every agent of the process (cards, status reads, health probes) would answer late.
 * Background work runs {@link BACKGROUND_NICE} nice steps lower: it still gets every cycle nobody else wants.
 * Lowering one's own priority needs no privilege; where the system refuses, work runs as it was.
 */
import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the agents test runs and review workers run: this much added to the nice value
 * (0 is normal, 19 the lowest priority).
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the priority of process `pid` (and what it starts later), or, without `pid`, of the calling
 * thread: on Linux a priority belongs to a thread, so a worker thread lowers only itself.
 */
export function runInBackground(pid?: number): void {
  try {
    const who = pid ?? 0;
    setPriority(who, Math.min(19, getPriority(who) + BACKGROUND_NICE));
  } catch {
    // Not permitted here (or the process is already gone): the work runs at normal priority.
  }
}
