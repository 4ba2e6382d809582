/**
 * A2A 0.3 objects → the 1.0 model, checked as they are read. Every problem is collected as a field
 * violation with its 0.3 path (`message.parts[0].kind`), and where a value is a 1.0 spelling the
 * description says so: a mix of the two versions in one body is the usual mistake.
 */
import { A2AError, type FieldViolation } from '../errors.js';
import { MAX_VIOLATIONS, boundViolations, tooManyItems, violationsText } from '../bounds.js';
import type { AuthenticationInfo, TaskPushNotificationConfig } from '../push.js';
import type {
  Artifact,
  JsonObject,
  JsonValue,
  Message,
  Part,
  Role,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../task.js';
import { DATA_PART_COMPAT_FLAG, V03_STATES, V03_TO_STATE } from './enums.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const PART_KINDS = ['text', 'file', 'data'] as const;

/** Reads 0.3 values into 1.0 ones, collecting what is wrong instead of stopping at the first problem. */
export class V03Reader {
  readonly violations: FieldViolation[] = [];
  /** Violations past the ones an error lists: counted, not kept (a request may carry millions). */
  omitted = 0;

  bad(field: string, description: string): undefined {
    if (this.violations.length < MAX_VIOLATIONS) this.violations.push({ field, description });
    else this.omitted++;
    return undefined;
  }

  /** Throws InvalidParams naming the first violations (the rest counted), saying the request was read as 0.3 and why. */
  check(why: string): void {
    if (this.violations.length === 0) return;
    const { listed, more } = boundViolations(this.violations, this.omitted);
    throw A2AError.invalidParams(
      listed,
      `Invalid parameters (read as A2A 0.3 ${why}): ${violationsText(listed, more)}`,
    );
  }

  string(v: unknown, at: string, required = true): string | undefined {
    if (v === undefined || v === null) return required ? this.bad(at, 'is required') : undefined;
    if (typeof v !== 'string') return this.bad(at, 'must be a string');
    if (required && v === '') return this.bad(at, 'must not be empty');
    return v;
  }

  object(v: unknown, at: string): JsonObject | undefined {
    if (v === undefined || v === null) return undefined;
    return isObj(v) ? (v as JsonObject) : this.bad(at, 'must be a JSON object');
  }

  strings(v: unknown, at: string): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    return Array.isArray(v) && v.every((s) => typeof s === 'string')
      ? v
      : this.bad(at, 'must be an array of strings');
  }

  role(v: unknown, at: string): Role | undefined {
    if (v === 'user') return 'ROLE_USER';
    if (v === 'agent') return 'ROLE_AGENT';
    if (v === 'ROLE_USER' || v === 'ROLE_AGENT')
      return this.bad(at, `is "${v}", the A2A 1.0 spelling; in 0.3 it is "user" or "agent"`);
    return this.bad(
      at,
      v === undefined ? 'is required ("user" or "agent")' : 'must be "user" or "agent"',
    );
  }

  state(v: unknown, at: string): TaskState | undefined {
    const s = typeof v === 'string' ? V03_TO_STATE.get(v) : undefined;
    if (s) return s;
    if (typeof v === 'string' && v.startsWith('TASK_STATE_'))
      return this.bad(
        at,
        `is "${v}", the A2A 1.0 spelling; in 0.3 it is one of ${V03_STATES.join(', ')}`,
      );
    return this.bad(at, `must be one of ${V03_STATES.join(', ')}`);
  }

  part(v: unknown, at: string): Part | undefined {
    if (!isObj(v)) return this.bad(at, 'must be a part object');
    const metadata = this.object(v.metadata, `${at}.metadata`);
    const meta = metadata !== undefined ? { metadata } : {};
    switch (v.kind) {
      case 'text': {
        const text =
          typeof v.text === 'string' ? v.text : this.bad(`${at}.text`, 'must be a string');
        return text === undefined ? undefined : { text, ...meta };
      }
      case 'file':
        return this.#file(v.file, `${at}.file`, meta);
      case 'data': {
        if (!isObj(v.data)) return this.bad(`${at}.data`, 'must be a JSON object');
        // The 1.3 reference SDK wraps a non-object value as { value } and flags it; unwrap it here.
        if (metadata?.[DATA_PART_COMPAT_FLAG] === true && 'value' in v.data) {
          const { [DATA_PART_COMPAT_FLAG]: _flag, ...rest } = metadata;
          return {
            data: v.data.value as JsonValue,
            ...(Object.keys(rest).length > 0 ? { metadata: rest } : {}),
          };
        }
        return { data: v.data as JsonObject, ...meta };
      }
      case undefined: {
        const member = ['text', 'raw', 'url', 'data'].find((k) => v[k] !== undefined);
        return this.bad(
          `${at}.kind`,
          member
            ? `is missing; a part with "${member}" and no "kind" is the A2A 1.0 shape, in 0.3 each part says kind "text", "file" or "data"`
            : 'is required ("text", "file" or "data")',
        );
      }
      default:
        return this.bad(
          `${at}.kind`,
          `"${String(v.kind).slice(0, 40)}" is not a 0.3 part kind (${PART_KINDS.join(', ')})`,
        );
    }
  }

  #file(v: unknown, at: string, meta: { metadata?: JsonObject }): Part | undefined {
    if (!isObj(v)) return this.bad(at, 'must be an object with "uri" or "bytes"');
    const common = {
      ...meta,
      ...(typeof v.mimeType === 'string' && v.mimeType !== '' ? { mediaType: v.mimeType } : {}),
      ...(typeof v.name === 'string' && v.name !== '' ? { filename: v.name } : {}),
    };
    const hasUri = typeof v.uri === 'string' && v.uri !== '';
    const hasBytes = typeof v.bytes === 'string';
    if (hasUri === hasBytes) return this.bad(at, 'must have exactly one of "uri" and "bytes"');
    return hasUri ? { url: v.uri as string, ...common } : { raw: v.bytes as string, ...common };
  }

  parts(v: unknown, at: string): Part[] | undefined {
    if (!Array.isArray(v)) return this.bad(at, 'must be an array of parts');
    const tooMany = tooManyItems(v, at, 'parts');
    if (tooMany) return this.bad(tooMany.field, tooMany.description);
    const out: Part[] = [];
    v.forEach((p, i) => {
      const part = this.part(p, `${at}[${i}]`);
      if (part) out.push(part);
    });
    return out;
  }

  message(v: unknown, at: string): Message | undefined {
    if (!isObj(v)) return this.bad(at, 'must be a message object');
    if (v.kind !== undefined && v.kind !== 'message') this.bad(`${at}.kind`, 'must be "message"');
    const messageId = this.string(v.messageId, `${at}.messageId`);
    const role = this.role(v.role, `${at}.role`);
    const parts = this.parts(v.parts, `${at}.parts`);
    if (parts && parts.length === 0 && Array.isArray(v.parts) && v.parts.length === 0)
      this.bad(`${at}.parts`, 'needs at least one part');
    const contextId = this.string(v.contextId, `${at}.contextId`, false);
    const taskId = this.string(v.taskId, `${at}.taskId`, false);
    const metadata = this.object(v.metadata, `${at}.metadata`);
    const extensions = this.strings(v.extensions, `${at}.extensions`);
    const referenceTaskIds = this.strings(v.referenceTaskIds, `${at}.referenceTaskIds`);
    if (messageId === undefined || role === undefined || parts === undefined) return undefined;
    return {
      messageId,
      role,
      parts,
      ...(contextId ? { contextId } : {}),
      ...(taskId ? { taskId } : {}),
      ...(metadata ? { metadata } : {}),
      ...(extensions?.length ? { extensions } : {}),
      ...(referenceTaskIds?.length ? { referenceTaskIds } : {}),
    };
  }

  status(v: unknown, at: string): TaskStatus | undefined {
    if (!isObj(v)) return this.bad(at, 'must be a status object');
    const state = this.state(v.state, `${at}.state`);
    const message =
      v.message === undefined || v.message === null
        ? undefined
        : this.message(v.message, `${at}.message`);
    const timestamp = this.string(v.timestamp, `${at}.timestamp`, false);
    if (!state) return undefined;
    return { state, ...(message ? { message } : {}), ...(timestamp ? { timestamp } : {}) };
  }

  artifact(v: unknown, at: string): Artifact | undefined {
    if (!isObj(v)) return this.bad(at, 'must be an artifact object');
    const artifactId = this.string(v.artifactId, `${at}.artifactId`);
    const parts = this.parts(v.parts, `${at}.parts`);
    const name = this.string(v.name, `${at}.name`, false);
    const description = this.string(v.description, `${at}.description`, false);
    const metadata = this.object(v.metadata, `${at}.metadata`);
    const extensions = this.strings(v.extensions, `${at}.extensions`);
    if (artifactId === undefined || parts === undefined) return undefined;
    return {
      artifactId,
      parts,
      ...(name ? { name } : {}),
      ...(description ? { description } : {}),
      ...(metadata ? { metadata } : {}),
      ...(extensions?.length ? { extensions } : {}),
    };
  }

  task(v: unknown, at: string): Task | undefined {
    if (!isObj(v)) return this.bad(at, 'must be a task object');
    const id = this.string(v.id, `${at}.id`);
    const contextId = this.string(v.contextId, `${at}.contextId`);
    const status = this.status(v.status, `${at}.status`);
    const artifacts = this.#list(v.artifacts, `${at}.artifacts`, (a, p) => this.artifact(a, p));
    const history = this.#list(v.history, `${at}.history`, (m, p) => this.message(m, p));
    const metadata = this.object(v.metadata, `${at}.metadata`);
    if (id === undefined || contextId === undefined || status === undefined) return undefined;
    return {
      id,
      contextId,
      status,
      ...(artifacts?.length ? { artifacts } : {}),
      ...(history ? { history } : {}),
      ...(metadata ? { metadata } : {}),
    };
  }

  #list<T>(
    v: unknown,
    at: string,
    each: (x: unknown, at: string) => T | undefined,
  ): T[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) return this.bad(at, 'must be an array');
    const out: T[] = [];
    v.forEach((x, i) => {
      const t = each(x, `${at}[${i}]`);
      if (t !== undefined) out.push(t);
    });
    return out;
  }

  /** A 0.3 stream event (or `message/send` result), by its `kind`. */
  event(v: unknown, at: string): StreamResponse | undefined {
    if (!isObj(v)) return this.bad(at, 'must be an object');
    switch (v.kind) {
      case 'task': {
        const task = this.task(v, at);
        return task && { task };
      }
      case 'message': {
        const message = this.message(v, at);
        return message && { message };
      }
      case 'status-update': {
        const ids = this.#eventIds(v, at);
        const status = this.status(v.status, `${at}.status`);
        if (!ids || !status) return undefined;
        const metadata = this.object(v.metadata, `${at}.metadata`);
        const statusUpdate: TaskStatusUpdateEvent = {
          ...ids,
          status,
          ...(metadata ? { metadata } : {}),
        };
        return { statusUpdate };
      }
      case 'artifact-update': {
        const ids = this.#eventIds(v, at);
        const artifact = this.artifact(v.artifact, `${at}.artifact`);
        if (!ids || !artifact) return undefined;
        const metadata = this.object(v.metadata, `${at}.metadata`);
        const artifactUpdate: TaskArtifactUpdateEvent = {
          ...ids,
          artifact,
          ...(v.append === true ? { append: true } : {}),
          ...(v.lastChunk === true ? { lastChunk: true } : {}),
          ...(metadata ? { metadata } : {}),
        };
        return { artifactUpdate };
      }
      default:
        return this.bad(
          `${at}.kind`,
          v.kind === undefined
            ? 'is required (task, message, status-update or artifact-update)'
            : `"${String(v.kind).slice(0, 40)}" is not a 0.3 event kind`,
        );
    }
  }

  #eventIds(v: Obj, at: string): { taskId: string; contextId: string } | undefined {
    const taskId = this.string(v.taskId, `${at}.taskId`);
    const contextId = this.string(v.contextId, `${at}.contextId`);
    return taskId !== undefined && contextId !== undefined ? { taskId, contextId } : undefined;
  }

  /** A 0.3 PushNotificationConfig as the 1.0 config of `taskId`. */
  pushConfig(v: unknown, at: string, taskId?: string): TaskPushNotificationConfig | undefined {
    if (!isObj(v)) return this.bad(at, 'must be an object with a "url"');
    const url = this.string(v.url, `${at}.url`);
    const id = this.string(v.id, `${at}.id`, false);
    const token = this.string(v.token, `${at}.token`, false);
    const authentication =
      v.authentication === undefined || v.authentication === null
        ? undefined
        : this.#auth(v.authentication, `${at}.authentication`);
    if (url === undefined) return undefined;
    return {
      url,
      ...(taskId !== undefined ? { taskId } : {}),
      ...(id ? { id } : {}),
      ...(token ? { token } : {}),
      ...(authentication ? { authentication } : {}),
    };
  }

  #auth(v: unknown, at: string): AuthenticationInfo | undefined {
    if (!isObj(v)) return this.bad(at, 'must be an object');
    if (typeof v.scheme === 'string' && v.schemes === undefined) {
      return this.bad(
        `${at}.schemes`,
        'is required; "scheme" (one string) is the A2A 1.0 shape, 0.3 lists "schemes"',
      );
    }
    const schemes = this.strings(v.schemes, `${at}.schemes`);
    const credentials = this.string(v.credentials, `${at}.credentials`, false);
    // 1.0 carries one scheme: the first the webhook accepts.
    const scheme = schemes?.find((s) => s !== '');
    if (!scheme) return this.bad(`${at}.schemes`, 'must name at least one scheme');
    return { scheme, ...(credentials ? { credentials } : {}) };
  }
}
