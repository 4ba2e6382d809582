/**
 * The one logger shape of the library: the server, the push sender and the client all write to it.
 * It is pino's calling convention (an object of fields first, then a message), so a pino logger, or any
 * logger wrapped to that shape, plugs in as it is.
 */

/**
 * A pino-compatible logger: `logger.warn({ taskId }, 'message')`, always with a message (pino's own
 * methods, whose message is optional, fit). `child` is optional; when present,
 * components may use it to add their own fields (pino's `logger.child({ component: 'push' })`).
 *
 * @example
 * ```ts
 * import type { Logger } from 'a2a-kit';
 * // Any object of this shape works; pino's loggers already have it.
 * const logger: Logger = {
 *   debug: () => {},
 *   info: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
 *   warn: (obj, msg) => process.stderr.write(`warn: ${msg} ${JSON.stringify(obj)}\n`),
 *   error: (obj, msg) => process.stderr.write(`error: ${msg} ${JSON.stringify(obj)}\n`),
 * };
 * ```
 */
export interface Logger {
  /** Decisions and details: the interface chosen, each retry. */
  debug(obj: object, msg: string): void;
  /** Normal events worth a line: a server drained, a stream resumed. */
  info(obj: object, msg: string): void;
  /** Something went wrong and was handled: a fallback, a delivery given up on. */
  warn(obj: object, msg: string): void;
  /** Something failed: a store write, an executor that threw. */
  error(obj: object, msg: string): void;
  /** A logger that adds `bindings` to every line (pino's `child`). */
  child?(bindings: Record<string, unknown>): Logger;
}

const noop = (): void => {};

/** A logger that drops everything: the default of the server, the push sender and the client. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
