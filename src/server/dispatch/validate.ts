/**
 * Request validation: the hand-written fast check for the usual requests (no copy, no zod), zod for
 * everything else and for every error, whose issues become google.rpc.BadRequest field violations.
 */
import type { z } from 'zod';
import {
  A2AError,
  FAST_CHECKS,
  REQUEST_SCHEMAS,
  violationsOf,
  type OperationName,
  type OperationRequests,
} from '../../protocol/index.js';
import { tooManyItems } from '../../protocol/bounds.js';

// Widened once so that one call site serves every operation.
const SCHEMAS: Readonly<Record<OperationName, z.ZodType>> = REQUEST_SCHEMAS;

/** The request of operation `name`, validated; throws InvalidParams with a violation per bad field. */
export function validateRequest<N extends OperationName>(
  name: N,
  params: unknown,
): OperationRequests[N] {
  if (name === 'SendMessage' || name === 'SendStreamingMessage') refuseLongLists(params);
  const fast = FAST_CHECKS[name]?.(params);
  if (fast !== undefined) return fast;
  // Zod 4 leaves `input` off its issues unless asked; violationsOf needs it to tell a missing field from a wrong type.
  const parsed = SCHEMAS[name].safeParse(withoutNulls(params), { reportInput: true });
  if (!parsed.success) throw A2AError.invalidParams(violationsOf(parsed.error));
  // The schema's output type and the request type agree field by field (test/protocol-shapes.test.ts);
  // only "exactly one content member" of a part is a refinement zod's types cannot carry.
  return parsed.data as OperationRequests[N];
}

/**
 * A message's lists are bounded before anything checks their members: zod spends microseconds on
 * each bad member, so a 3 MB body of `{}` parts held the process for seconds (issue 28).
 */
function refuseLongLists(params: unknown): void {
  const p = params as {
    message?: Record<string, unknown>;
    configuration?: { acceptedOutputModes?: unknown };
  };
  const m = typeof p === 'object' && p !== null ? p.message : undefined;
  if (typeof m !== 'object' || m === null) return;
  const long =
    tooManyItems(m.parts, 'message.parts', 'parts') ??
    tooManyItems(m.extensions, 'message.extensions', 'extensions') ??
    tooManyItems(m.referenceTaskIds, 'message.referenceTaskIds', 'reference task ids') ??
    tooManyItems(
      p.configuration?.acceptedOutputModes,
      'configuration.acceptedOutputModes',
      'output modes',
    );
  if (long) throw A2AError.invalidParams([long]);
}

/** ProtoJSON reads a `null` member as the field's default, i.e. unset (SDKs send `"pageSize": null`). */
function withoutNulls(params: unknown): unknown {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return params ?? {};
  if (!Object.values(params).includes(null)) return params; // the usual case: no copy on the hot path
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== null) out[k] = v;
  return out;
}
