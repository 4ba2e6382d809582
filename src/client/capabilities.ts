/**
 * The checks the client makes before sending anything (§3.3.4): an operation needing a capability
 * the card does not declare, or a call that leaves out an extension the card marks required, is
 * refused here with the very error the agent would have answered — without a round trip.
 */
import {
  A2AError,
  CAPABILITY_ERROR,
  OPERATIONS_BY_NAME,
  type AgentCard,
  type OperationName,
} from '../protocol/index.js';

/** Throws the agent's error for `operation` when the card says it would be refused; `active` are the extensions the call activates. */
export function assertCapable(
  card: AgentCard,
  operation: OperationName,
  active: ReadonlySet<string>,
): void {
  const capabilities = card.capabilities ?? {};
  const capability = OPERATIONS_BY_NAME[operation].capability;
  if (capability && capabilities[capability] !== true) {
    throw new A2AError(
      CAPABILITY_ERROR[capability],
      `${operation} not sent: the card of "${card.name}" does not declare capabilities.${capability}`,
    );
  }
  const missing = (capabilities.extensions ?? [])
    .filter((e) => e.required === true && typeof e.uri === 'string' && !active.has(e.uri))
    .map((e) => e.uri as string);
  if (missing.length > 0) {
    throw new A2AError(
      'ExtensionSupportRequired',
      `${operation} not sent: the card of "${card.name}" requires extension${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; ` +
        'activate them with the `extensions` option once your code supports them',
    );
  }
}
