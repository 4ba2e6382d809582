/**
 * Request validation: the hand-written fast check for the usual requests (no copy, no zod), zod for
 * everything else and for every error, whose issues become google.rpc.BadRequest field violations.
 * The zod schemas are loaded on the first request that needs them (lazy-schemas.ts); until then such
 * a request waits for the load, after it is checked synchronously like the others.
 */
import type { z } from 'zod';
import {
  A2AError,
  FAST_CHECKS,
  requestSchemas,
  type OperationName,
  type OperationRequests,
} from '../../protocol/index.js';
import { tooManyItems } from '../../protocol/bounds.js';

type Schemas = typeof import('../../protocol/schemas.js');

/**
 * The request of operation `name`, validated; throws InvalidParams with a violation per bad field.
 * Synchronous (no promise, no tick) for a request the fast check accepts or once the schemas have
 * loaded; a promise of the same outcome while they load for the first time.
 */
export function validateRequest<N extends OperationName>(
  name: N,
  params: unknown,
): OperationRequests[N] | Promise<OperationRequests[N]> {
  if (name === 'SendMessage' || name === 'SendStreamingMessage') refuseLongLists(params);
  const fast = FAST_CHECKS[name]?.(params);
  if (fast !== undefined) return fast;
  const schemas = requestSchemas.now();
  if (schemas !== undefined) return bySchema(schemas, name, params);
  return requestSchemas.load().then((loaded) => bySchema(loaded, name, params));
}

function bySchema<N extends OperationName>(
  schemas: Schemas,
  name: N,
  params: unknown,
): OperationRequests[N] {
  // Widened so that one call site serves every operation.
  const schema: z.ZodType = schemas.REQUEST_SCHEMAS[name];
  // Zod 4 leaves `input` off its issues unless asked; violationsOf needs it to tell a missing field from a wrong type.
  const parsed = schema.safeParse(withoutNulls(params), { reportInput: true });
  if (!parsed.success) throw A2AError.invalidParams(schemas.violationsOf(parsed.error));
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

/**
 * ProtoJSON reads a `null` member as the field's default, i.e. unset, at any depth (SDKs send
 * `"pageSize": null`, `"contextId": null`); inside `metadata` and a part's `data` a null is content and
 * stays. Only requests the fast check declined come here; one without nulls is returned as it is.
 */
function withoutNulls(params: unknown): unknown {
  return params === null || params === undefined ? {} : unset(params);
}

/** Deeper than any request member the schemas read (params.configuration.taskPushNotificationConfig…). */
const MAX_DEPTH = 8;

function unset(v: unknown, depth = 0): unknown {
  // Past the schemas' depth a peer's nesting is left alone: never recursed into without bound.
  if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) return v;
  if (Array.isArray(v)) {
    const items = v.map((e) => unset(e, depth + 1));
    return items.some((e, i) => e !== v[i]) ? items : v;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, value] of Object.entries(v)) {
    // A part's `data` is a Value (null included); `metadata` is a Struct: unset when null, else content.
    const next =
      k === 'data'
        ? value
        : value === null
          ? undefined
          : k === 'metadata'
            ? value
            : unset(value, depth + 1);
    if (next === value) continue;
    out ??= { ...(v as Record<string, unknown>) };
    if (next === undefined) delete out[k];
    else out[k] = next;
  }
  return out ?? v;
}
