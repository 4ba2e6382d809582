/**
 * The server writes to the library's one {@link Logger} (pino-compatible, defined with the protocol
 * model); the default is silent so embedding apps decide what is printed.
 */
export { silentLogger, type Logger } from '../protocol/logger.js';
