/**
 * The logger the library writes to. pino-compatible (`logger.warn(obj, msg)`), so an app can pass
 * its own pino instance; the default is silent so embedding apps decide what is printed.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};
/** A logger that drops everything. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
