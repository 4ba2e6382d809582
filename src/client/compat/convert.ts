/**
 * What the 0.3 transports share: a 1.0 request turned into the 0.3 params of the same operation, and a
 * 0.3 answer turned back into the 1.0 result the caller gets whatever version was used. An answer that
 * cannot be read is a BAD_RESPONSE naming the 0.3 field at fault.
 */
import {
  type OperationName,
  type SendMessageRequest,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import {
  V03Reader,
  cardFromV03,
  messageToV03,
  notInV03,
  pushConfigToV03,
  type MessageSendParams03,
} from '../../protocol/v03/index.js';
import { A2AClientError } from '../errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** 1.0 SendMessageRequest → 0.3 MessageSendParams. `blocking` is always sent: 0.3 servers differ on its default. */
export function sendParamsToV03(req: SendMessageRequest, streaming: boolean): MessageSendParams03 {
  const c = req.configuration;
  const configuration = {
    ...(c?.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
    ...(c?.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
    ...(c?.taskPushNotificationConfig
      ? { pushNotificationConfig: pushConfigToV03(c.taskPushNotificationConfig) }
      : {}),
    ...(streaming ? {} : { blocking: c?.returnImmediately !== true }),
  };
  return {
    message: messageToV03(req.message),
    ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    ...(req.metadata ? { metadata: req.metadata } : {}),
  };
}

/**
 * The 0.3 params of `operation` for a 1.0 request (the tenant is dropped: 0.3 has none). Throws
 * UnsupportedOperation, before anything is sent, for ListTasks, which 0.3 lacks.
 */
export function paramsToV03(
  operation: OperationName,
  params: object,
  where: string,
): Obj | undefined {
  const p = params as Obj;
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsToV03(
        params as SendMessageRequest,
        operation === 'SendStreamingMessage',
      ) as unknown as Obj;
    case 'GetTask':
      return {
        id: p.id,
        ...(p.historyLength !== undefined ? { historyLength: p.historyLength } : {}),
      };
    case 'CancelTask':
      return { id: p.id, ...(p.metadata !== undefined ? { metadata: p.metadata } : {}) };
    case 'SubscribeToTask':
      return { id: p.id };
    case 'CreateTaskPushNotificationConfig':
      return {
        taskId: p.taskId,
        pushNotificationConfig: pushConfigToV03(params as TaskPushNotificationConfig),
      };
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { id: p.taskId, pushNotificationConfigId: p.id };
    case 'ListTaskPushNotificationConfigs':
      return { id: p.taskId };
    case 'GetExtendedAgentCard':
      return undefined;
    default:
      throw notInV03(operation, where);
  }
}

function read<T>(operation: OperationName, url: string, fn: (r: V03Reader) => T | undefined): T {
  const r = new V03Reader();
  const value = fn(r);
  if (r.violations.length > 0 || value === undefined) {
    const why =
      r.violations.length > 0
        ? r.violations
            .slice(0, 5)
            .map((v) => `${v.field}: ${v.description}`)
            .join('; ')
        : 'is not what the operation returns';
    throw new A2AClientError(
      'BAD_RESPONSE',
      `${operation}: the A2A 0.3 answer from ${url} cannot be read: ${why}`,
    );
  }
  return value;
}

function configFromV03(
  r: V03Reader,
  v: unknown,
  at: string,
): TaskPushNotificationConfig | undefined {
  if (!isObj(v)) return r.bad(at, 'must be a TaskPushNotificationConfig object');
  return r.pushConfig(
    v.pushNotificationConfig,
    `${at}.pushNotificationConfig`,
    typeof v.taskId === 'string' ? v.taskId : undefined,
  );
}

/** A 0.3 answer (JSON-RPC form: proto answers are turned into it first) as the 1.0 result of `operation`. */
export function resultFromV03(operation: OperationName, value: unknown, url: string): unknown {
  switch (operation) {
    case 'SendMessage':
      return read(operation, url, (r) => {
        const e = r.event(value, 'result');
        return e && ('task' in e || 'message' in e)
          ? e
          : r.bad('result', 'must be a task or a message');
      });
    case 'GetTask':
    case 'CancelTask':
      return read(operation, url, (r) => r.task(value, 'result'));
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return read(operation, url, (r) => configFromV03(r, value, 'result'));
    case 'ListTaskPushNotificationConfigs': {
      const list = Array.isArray(value)
        ? value
        : isObj(value) && Array.isArray(value.configs)
          ? value.configs
          : [];
      const configs = read(operation, url, (r) =>
        list.map((c, i) => configFromV03(r, c, `result[${i}]`)),
      );
      return { configs, nextPageToken: '' };
    }
    case 'DeleteTaskPushNotificationConfig':
      return {};
    case 'GetExtendedAgentCard':
      return cardFromV03(value);
    default:
      return value;
  }
}

/** A 0.3 stream event as a 1.0 StreamResponse. */
export function eventFromV03(value: unknown, operation: OperationName, url: string) {
  return read(operation, url, (r) => r.event(value, 'event'));
}
