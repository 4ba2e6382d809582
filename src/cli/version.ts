/**
 * `a2a --version` and what it names, kept apart from the commands so that the version answers without
 * loading the client (a2a.ts imports this module alone for a bare `--version`).
 */
import { createRequire } from 'node:module';
import { PROTOCOL_VERSION } from 'a2a-kit';

/** Every binding the command line speaks (all three of A2A 1.0), in the words of its messages. */
export const CLI_BINDINGS: readonly string[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** The library's version, read by package name so it is the installed package's own. */
export function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('a2a-kit/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** `a2a --version`. */
export function versionText(): string {
  return `a2a ${packageVersion()} (a2a-kit; A2A protocol ${PROTOCOL_VERSION}, bindings ${CLI_BINDINGS.join(', ')})`;
}
