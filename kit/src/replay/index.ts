/**
 * Replay of `.http` scenario files (VS Code REST Client / JetBrains HTTP client format) against
 * the local kit, with `# @expect` comments as assertions.
 */
export { parseHttpFile, HttpFileParseError } from './parser.js';
export type { Diagnostic } from './parser.js';
export {
  replayHttpFile,
  replayHttpPath,
  formatExchange,
  formatReport,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
} from './runner.js';
export type { ReplayOptions } from './runner.js';
export { parseExpectation, bindExpectation, evaluate } from './expect.js';
export type { Verdict } from './expect.js';
export { parseJsonPath, getPath } from './jsonpath.js';
export { resolveTarget } from './http.js';
export type * from './types.js';
