/**
 * Runtime schemas for every request the service accepts, built when this module loads: on first use
 * (lazy-schemas.ts), never by an entry point's import, since it brings zod.
 * Unknown members are ignored (stripped), as §5.7 asks. Failures become google.rpc.BadRequest
 * field violations through {@link violationsOf}.
 */
import { z } from 'zod';
import { TASK_STATES, type JsonValue } from './task.js';
import type { FieldViolation } from './errors.js';
import type { OperationName } from './operations.js';
import { BASE64_PATTERN, MAX_ID_LENGTH } from './request-rules.js';

export { BASE64_PATTERN, MAX_ID_LENGTH };
const idTooLong = `must be at most ${MAX_ID_LENGTH} characters`;
const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must not be empty`)
    .max(MAX_ID_LENGTH, `${what} ${idTooLong}`);
/** An optional id, context id or tenant. */
const optionalId = z.string({ error: 'must be a string' }).max(MAX_ID_LENGTH, idTooLong).optional();
/**
 * A JSON value, taken on trust: requests come from JSON.parse, so nothing else can occur. Typed as
 * {@link JsonValue} (not `unknown`) so that the schemas' output types match the protocol types.
 */
const json = () => z.custom<JsonValue>();
const struct = z.record(z.string(), json(), { error: 'must be a JSON object' });
const stringList = z.array(z.string({ error: 'must be a string' }), {
  error: 'must be an array of strings',
});
const historyLength = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(0, 'must be zero or positive');

const CONTENT_KEYS = ['text', 'raw', 'url', 'data'] as const;

/** §4.1.6 Part: exactly one of text, raw, url, data. */
export const PartSchema = z
  .object(
    {
      text: z.string({ error: 'must be a string' }).optional(),
      raw: z
        .string({ error: 'must be a base64 string' })
        .regex(BASE64_PATTERN, 'must be base64')
        .optional(),
      url: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
      data: json().optional(),
      metadata: struct.optional(),
      filename: z.string({ error: 'must be a string' }).optional(),
      mediaType: z.string({ error: 'must be a string' }).optional(),
    },
    { error: 'must be an object' },
  )
  .superRefine((p, ctx) => {
    const present = CONTENT_KEYS.filter((k) => p[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? 'a part needs exactly one of text, raw, url or data; it has none'
            : `a part needs exactly one of text, raw, url or data; it has ${present.join(' and ')}`,
      });
    }
  });

/** §4.1.4 Message (at least one part). */
export const MessageSchema = z.object(
  {
    messageId: nonEmpty('messageId'),
    contextId: optionalId,
    taskId: optionalId,
    role: z.enum(['ROLE_USER', 'ROLE_AGENT'], { error: 'must be ROLE_USER or ROLE_AGENT' }),
    parts: z
      .array(PartSchema, { error: 'must be an array of parts' })
      .min(1, 'at least one part is required'),
    metadata: struct.optional(),
    extensions: stringList.optional(),
    referenceTaskIds: stringList.optional(),
  },
  { error: 'must be a message object' },
);

const AuthenticationInfoSchema = z.object({
  scheme: nonEmpty('scheme'),
  credentials: z.string({ error: 'must be a string' }).optional(),
});

const webhookUrl = z
  .string({ error: 'must be a string' })
  .max(2048, 'must be at most 2048 characters')
  .refine((u) => {
    try {
      const p = new URL(u).protocol;
      return p === 'http:' || p === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL');

/** §4.3.1 TaskPushNotificationConfig: an absolute http(s) webhook URL, bounded id and token. */
export const PushConfigSchema = z.object({
  tenant: optionalId,
  id: optionalId,
  taskId: optionalId,
  url: webhookUrl,
  token: z
    .string({ error: 'must be a string' })
    .max(4096, 'must be at most 4096 characters')
    .optional(),
  authentication: AuthenticationInfoSchema.optional(),
});

/** SendMessage and SendStreamingMessage requests. */
export const SendMessageRequestSchema = z.object({
  tenant: optionalId,
  message: MessageSchema,
  configuration: z
    .object(
      {
        acceptedOutputModes: stringList.optional(),
        taskPushNotificationConfig: PushConfigSchema.optional(),
        historyLength: historyLength.optional(),
        returnImmediately: z.boolean({ error: 'must be a boolean' }).optional(),
      },
      { error: 'must be an object' },
    )
    .optional(),
  metadata: struct.optional(),
});

const tenant = optionalId;

/** GetTask request. */
export const GetTaskRequestSchema = z.object({
  tenant,
  id: nonEmpty('id'),
  historyLength: historyLength.optional(),
});

const isoTimestamp = z
  .string({ error: 'must be an ISO 8601 timestamp' })
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 timestamp',
  );

/** ListTasks request (`TASK_STATE_UNSPECIFIED` means no status filter). */
export const ListTasksRequestSchema = z.object({
  tenant,
  contextId: optionalId,
  // A non-optional proto3 enum: its zero value TASK_STATE_UNSPECIFIED means "no filter" (SDKs send it).
  status: z
    .enum([...TASK_STATES, 'TASK_STATE_UNSPECIFIED'], {
      error: `must be one of ${TASK_STATES.join(', ')}`,
    })
    .transform((s) => (s === 'TASK_STATE_UNSPECIFIED' ? undefined : s))
    // Optional last, so an absent status stays absent (not an own `status: undefined`).
    .optional(),
  pageSize: z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .optional(),
  pageToken: z.string({ error: 'must be a string' }).optional(),
  historyLength: historyLength.optional(),
  statusTimestampAfter: isoTimestamp.optional(),
  includeArtifacts: z.boolean({ error: 'must be a boolean' }).optional(),
});

/** CancelTask request. */
export const CancelTaskRequestSchema = z.object({
  tenant,
  id: nonEmpty('id'),
  metadata: struct.optional(),
});
/** SubscribeToTask request. */
export const SubscribeToTaskRequestSchema = z.object({ tenant, id: nonEmpty('id') });
/** CreateTaskPushNotificationConfig request: a push config with its task id. */
export const CreatePushConfigRequestSchema = PushConfigSchema.extend({
  taskId: nonEmpty('taskId'),
});
/** GetTaskPushNotificationConfig and DeleteTaskPushNotificationConfig requests. */
export const PushConfigRefSchema = z.object({
  tenant,
  taskId: nonEmpty('taskId'),
  id: nonEmpty('id'),
});
/** ListTaskPushNotificationConfigs request. */
export const ListPushConfigsRequestSchema = z.object({
  tenant,
  taskId: nonEmpty('taskId'),
  pageSize: z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(0, 'must not be negative')
    .optional(),
  pageToken: z.string({ error: 'must be a string' }).optional(),
});
/** GetExtendedAgentCard request. */
export const GetExtendedAgentCardRequestSchema = z.object({ tenant });

/**
 * The request schema of each operation. test/protocol-shapes.test.ts proves, field by field, that each
 * schema's output type and the operation's request type in requests.ts agree.
 */
export const REQUEST_SCHEMAS = {
  SendMessage: SendMessageRequestSchema,
  SendStreamingMessage: SendMessageRequestSchema,
  GetTask: GetTaskRequestSchema,
  ListTasks: ListTasksRequestSchema,
  CancelTask: CancelTaskRequestSchema,
  SubscribeToTask: SubscribeToTaskRequestSchema,
  CreateTaskPushNotificationConfig: CreatePushConfigRequestSchema,
  GetTaskPushNotificationConfig: PushConfigRefSchema,
  ListTaskPushNotificationConfigs: ListPushConfigsRequestSchema,
  DeleteTaskPushNotificationConfig: PushConfigRefSchema,
  GetExtendedAgentCard: GetExtendedAgentCardRequestSchema,
} as const satisfies Readonly<Record<OperationName, z.ZodType>>;

/** google.rpc.BadRequest field violations for a schema failure, with dotted paths (`message.parts[0]`). */
export function violationsOf(error: z.ZodError, prefix = ''): FieldViolation[] {
  return error.issues.map((issue) => {
    let field = prefix;
    for (const seg of issue.path) {
      if (typeof seg === 'number') field += `[${seg}]`;
      else field += field ? `.${String(seg)}` : String(seg);
    }
    let description = issue.message;
    if (issue.code === 'invalid_type' && issue.input === undefined) description = 'is required';
    return { field: field || '(request)', description };
  });
}
