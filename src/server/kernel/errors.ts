/** The one rule every binding applies to a failure before mapping it to its wire form. */
import { A2AError, isA2AError } from '../../protocol/index.js';
import type { Logger } from '../logger.js';

/** Any thrown value as an A2AError; unknown failures are logged and hidden behind Internal. */
export function asA2AError(err: unknown, logger: Logger | undefined): A2AError {
  if (isA2AError(err)) return err;
  logger?.error({ err }, 'unexpected failure while handling a request');
  return new A2AError('Internal');
}
