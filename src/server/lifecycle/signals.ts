/**
 * Draining on SIGTERM and Ctrl-C, the two lines every deployed agent needs, done once: the first signal
 * drains (see `AgentServer.close`), a second one exits at once. A second signal that arrives within a
 * moment of the first is the same Ctrl-C twice (the terminal signals the whole process group and
 * `npm run` forwards it too), so it is ignored.
 */
import { silentLogger, type Logger } from '../../protocol/index.js';

/** Anything with a `close()` that drains: an agent server, or a group of them. */
export interface Closeable {
  /** Drain and close; resolves once done. */
  close(): Promise<unknown>;
}

/** Options of {@link closeOnSignals}. */
export interface CloseOnSignalsOptions {
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: readonly NodeJS.Signals[];
  /** Where the signal and a failed close are logged. Default: silent. */
  logger?: Logger;
  /**
   * After the close: `true` (the default) exits the process, with 0 when everything closed and 1 when
   * a close failed; `false` leaves it to `onClosed`.
   */
  exit?: boolean;
  /** Called on the first signal instead of the default log line (say it in the app's own words). */
  onSignal?: (signal: NodeJS.Signals) => void;
  /** Called once everything closed (or failed to), with the exit code it would use. */
  onClosed?: (code: number) => void;
  /** A repeat of the signal within this many ms is the same one twice, not a second signal. Default 300. */
  echoMs?: number;
}

/** Exit status after a second signal: 128 + the signal's number, as shells expect. */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = {
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
  SIGQUIT: 131,
};

/**
 * Drain `targets` on the first of `signals`, then exit (or call `onClosed`); a second signal exits at once.
 * Returns a function that removes the handlers.
 *
 * @example
 * ```ts
 * import { closeOnSignals, createAgentServer, type AgentCard, type AgentExecutor } from 'a2a-kit/server';
 * declare const card: AgentCard, executor: AgentExecutor;
 * const server = createAgentServer({ card, executor, drain: { deadlineMs: 20_000 } });
 * await server.listen(8080, '0.0.0.0');
 * closeOnSignals(server); // or server.closeOnSignals()
 * ```
 */
export function closeOnSignals(
  targets: Closeable | readonly Closeable[],
  options: CloseOnSignalsOptions = {},
): () => void {
  const list = Array.isArray(targets) ? (targets as readonly Closeable[]) : [targets as Closeable];
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const logger = options.logger ?? silentLogger;
  const echoMs = options.echoMs ?? 300;
  let first = 0;
  const handler = (signal: NodeJS.Signals): void => {
    if (first) {
      if (Date.now() - first < echoMs) return;
      logger.warn({ signal }, `${signal} again: exiting without waiting for the drain`);
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    }
    first = Date.now();
    if (options.onSignal) options.onSignal(signal);
    else logger.info({ signal }, `${signal}: draining (a second ${signal} exits at once)`);
    void Promise.allSettled(list.map((t) => t.close())).then((results) => {
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (const f of failed) logger.error({ err: f.reason }, 'closing failed');
      const code = failed.length > 0 ? 1 : 0;
      off();
      options.onClosed?.(code);
      if (options.exit !== false) process.exit(code);
    });
  };
  const off = (): void => {
    for (const s of signals) process.off(s, handler);
  };
  for (const s of signals) process.on(s, handler);
  return off;
}
