/**
 * Ctrl-C for the commands that wait on tasks (the planner, the demo). The first Ctrl-C (or SIGTERM) aborts
 * a signal, so the planner cancels the task it was waiting on and ends with a line saying so, instead of
 * leaving, say, a production deploy waiting for "confirm". A second one, or a stop that takes longer than
 * the grace period, exits at once.
 */
import type { Writable } from 'node:stream';

/** The interrupt of one run. */
export interface Interrupt {
  /** Aborted on the first Ctrl-C or SIGTERM. */
  readonly signal: AbortSignal;
  /** Stop listening (the run is over). */
  off(): void;
}

/**
 * A second signal this soon after the first is the same Ctrl-C arriving twice: the terminal signals the
 * whole process group, and a runner such as `npm run` forwards the signal to its child as well.
 */
export const ECHO_MS = 300;

/** Exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells expect. */
export const INTERRUPTED_EXIT = 130;

/** Listens for SIGINT and SIGTERM until `off()`; `graceMs` bounds the wait after the first one. */
export function onInterrupt(out: Writable, graceMs = 15_000): Interrupt {
  const controller = new AbortController();
  let first = 0;
  const handler = (signal: NodeJS.Signals): void => {
    const name = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    if (controller.signal.aborted) {
      if (Date.now() - first < ECHO_MS) return;
      out.write(`\n${name} again: exiting at once; a task may still be running on its agent\n`);
      process.exit(INTERRUPTED_EXIT);
    }
    out.write(
      `\n${name}: canceling the task being waited on, then stopping (${name === 'Ctrl-C' ? 'Ctrl-C again' : 'a second signal'} exits at once)\n`,
    );
    first = Date.now();
    controller.abort(new Error(`interrupted by ${signal}`));
    setTimeout(() => {
      out.write(`still stopping after ${graceMs / 1000} s: exiting now\n`);
      process.exit(INTERRUPTED_EXIT);
    }, graceMs).unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    off: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
