/**
 * One 0.3 call, binding-independent: its params translated to the 1.0 request of the same operation
 * (checked as they are read, so a bad 0.3 body is named in 0.3 terms), and the 1.0 result translated
 * back. The JSON-RPC and HTTP+JSON 0.3 handlers both go through here.
 */
import type {
  ListTaskPushNotificationConfigsResponse,
  OperationName,
  SendMessageResponse,
  Task,
  TaskPushNotificationConfig,
} from '../../protocol/index.js';
import { randomUUID } from 'node:crypto';
import type { V03Registrations } from './registrations.js';
import { V03Reader, eventToV03, taskPushConfigToV03, taskToV03 } from '../../protocol/v03/index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function sendRequest(r: V03Reader, p: Obj): Obj {
  const message = r.message(p.message, 'message');
  const out: Obj = { message };
  const cfg = p.configuration;
  if (cfg !== undefined && cfg !== null) {
    if (!isObj(cfg)) {
      r.bad('configuration', 'must be an object');
    } else {
      const c: Obj = {};
      const modes = r.strings(cfg.acceptedOutputModes, 'configuration.acceptedOutputModes');
      if (modes) c.acceptedOutputModes = modes;
      if (cfg.historyLength !== undefined && cfg.historyLength !== null)
        c.historyLength = cfg.historyLength;
      if (cfg.blocking !== undefined && typeof cfg.blocking !== 'boolean')
        r.bad('configuration.blocking', 'must be true or false');
      // 0.3 servers wait unless told not to (blocking: false); 1.0 calls that returnImmediately.
      if (cfg.blocking === false) c.returnImmediately = true;
      if (cfg.returnImmediately !== undefined)
        r.bad('configuration.returnImmediately', 'is the A2A 1.0 name; 0.3 says blocking');
      if (cfg.taskPushNotificationConfig !== undefined)
        r.bad(
          'configuration.taskPushNotificationConfig',
          'is the A2A 1.0 name; 0.3 says pushNotificationConfig',
        );
      if (cfg.pushNotificationConfig !== undefined && cfg.pushNotificationConfig !== null) {
        const push = r.pushConfig(
          cfg.pushNotificationConfig,
          'configuration.pushNotificationConfig',
        );
        if (push) c.taskPushNotificationConfig = push;
      }
      out.configuration = c;
    }
  }
  const metadata = r.object(p.metadata, 'metadata');
  if (metadata) out.metadata = metadata;
  return out;
}

function createConfigRequest(r: V03Reader, p: Obj): Obj | undefined {
  const taskId = r.string(p.taskId, 'taskId');
  if (!isObj(p.pushNotificationConfig)) {
    return r.bad(
      'pushNotificationConfig',
      typeof p.url === 'string'
        ? 'is required; a url on the request itself is the A2A 1.0 shape'
        : 'is required (an object with a url)',
    );
  }
  const cfg = r.pushConfig(p.pushNotificationConfig, 'pushNotificationConfig', taskId);
  // 0.3 servers name a config after its task when the client gives no id; so do we, over 0.3.
  return cfg && taskId !== undefined ? { ...cfg, id: cfg.id ?? taskId } : undefined;
}

function configRef(r: V03Reader, p: Obj, required: boolean): Obj | undefined {
  if (p.taskId !== undefined && p.pushNotificationConfigId === undefined) {
    return r.bad(
      'taskId',
      'is the A2A 1.0 shape; in 0.3 the task is "id" and the config "pushNotificationConfigId"',
    );
  }
  const taskId = r.string(p.id, 'id');
  const id =
    p.pushNotificationConfigId === undefined && !required
      ? taskId
      : r.string(p.pushNotificationConfigId, 'pushNotificationConfigId');
  return taskId !== undefined && id !== undefined ? { taskId, id } : undefined;
}

/**
 * The 1.0 request of `operation` for 0.3 `params`. Throws InvalidParams naming every 0.3 field that is
 * wrong, and saying why the request was read as 0.3 (`why`).
 */
export function requestFromV03(operation: OperationName, params: unknown, why: string): Obj {
  const r = new V03Reader();
  const p = isObj(params) ? params : {};
  if (params !== undefined && params !== null && !isObj(params))
    r.bad('params', 'must be an object');
  let out: Obj | undefined;
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      out = sendRequest(r, p);
      break;
    case 'GetTask':
      out = {
        id: r.string(p.id, 'id'),
        ...(p.historyLength !== undefined && p.historyLength !== null
          ? { historyLength: p.historyLength }
          : {}),
      };
      break;
    case 'CancelTask':
      out = { id: r.string(p.id, 'id'), ...(isObj(p.metadata) ? { metadata: p.metadata } : {}) };
      break;
    case 'SubscribeToTask':
      out = { id: r.string(p.id, 'id') };
      break;
    case 'CreateTaskPushNotificationConfig':
      out = createConfigRequest(r, p);
      break;
    case 'GetTaskPushNotificationConfig':
      out = configRef(r, p, false);
      break;
    case 'DeleteTaskPushNotificationConfig':
      out = configRef(r, p, true);
      break;
    case 'ListTaskPushNotificationConfigs':
      out = { taskId: r.string(p.id, 'id') };
      break;
    default:
      out = {};
  }
  r.check(why);
  return out ?? {};
}

/** The 0.3 result of `operation` for its 1.0 result (the extended card is translated by the caller). */
export function resultToV03(operation: OperationName, result: unknown): unknown {
  switch (operation) {
    case 'SendMessage':
      return eventToV03(result as SendMessageResponse);
    case 'GetTask':
    case 'CancelTask':
      return taskToV03(result as Task);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return taskPushConfigToV03(result as TaskPushNotificationConfig);
    case 'ListTaskPushNotificationConfigs':
      return (result as ListTaskPushNotificationConfigsResponse).configs.map(taskPushConfigToV03);
    case 'DeleteTaskPushNotificationConfig':
      return null;
    default:
      return result;
  }
}

/**
 * Announces the webhook a translated 0.3 request is about to register (a push config to create, or
 * one given with a message), so the push layer knows it for a 0.3 one; returns the function that
 * withdraws the announcement once the call is over. A webhook given with a message without an id is
 * given a provisional one here, and its task's id once the task exists (0.3 agents name it so).
 */
export function announceWebhook(
  registrations: V03Registrations,
  operation: OperationName,
  request: Obj,
): () => void {
  if (operation === 'CreateTaskPushNotificationConfig')
    return registrations.expect(String(request.id), String(request.taskId));
  if (operation !== 'SendMessage' && operation !== 'SendStreamingMessage') return NOTHING;
  const cfg = (
    request.configuration as { taskPushNotificationConfig?: { id?: string } } | undefined
  )?.taskPushNotificationConfig;
  if (!cfg) return NOTHING;
  const taskId = (request.message as { taskId?: string } | undefined)?.taskId;
  if (cfg.id) return registrations.expect(cfg.id, taskId);
  if (taskId) {
    cfg.id = taskId;
    return registrations.expect(taskId, taskId);
  }
  cfg.id = `v03-${randomUUID()}`;
  return registrations.expect(cfg.id, undefined, true);
}

const NOTHING = (): void => undefined;
