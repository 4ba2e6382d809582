/**
 * The server writes to the library's one {@link Logger} (pino-compatible, defined with the protocol
 * model). Without a `logger` option it writes warnings and errors to stderr ({@link stderrLogger});
 * `silentLogger` turns that off.
 */
export { silentLogger, type Logger } from '../protocol/logger.js';
export { stderrLogger, type LogLevel, type StderrLoggerOptions } from './stderr-logger.js';
