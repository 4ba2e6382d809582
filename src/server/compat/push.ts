/**
 * Webhooks registered over 0.3 get 0.3 bodies: the whole task in its 0.3 form (`kind: "task"`) after
 * each event, as `application/json` — what 0.3 agents sent and 0.3 receivers parse. Which webhooks
 * those are is remembered with the config itself, so it survives a restart with a persistent store:
 * in memory a symbol (never serialised, so no 1.0 answer shows it), in the store one extra member.
 */
import type { StreamResponse, Task, TaskPushNotificationConfig } from '../../protocol/index.js';
import { taskToV03 } from '../../protocol/v03/index.js';
import type { PushBody, PushWireFormat } from '../push/wire-format.js';
import type { PushConfigStore, Scope, StoredPushConfig } from '../store/task-store.js';
import { isV03Webhook, markV03Webhook, type V03Registrations } from './registrations.js';

export { V03_WEBHOOK } from './registrations.js';
/** The member that marks a 0.3 webhook in a store; taken off again on every read. */
export const V03_WEBHOOK_MEMBER = 'a2aKitWireVersion';

/** A config read from the store, with its stored marker turned back into the in-memory one. */
function restore(config: TaskPushNotificationConfig): TaskPushNotificationConfig {
  const stored = config as TaskPushNotificationConfig & Record<string, unknown>;
  if (stored[V03_WEBHOOK_MEMBER] === undefined) return config;
  const { [V03_WEBHOOK_MEMBER]: _marker, ...plain } = stored;
  markV03Webhook(plain);
  return plain;
}

/** Wraps the push config store: configs of 0.3 calls are stored with their marker. */
export class V03AwarePushConfigStore implements PushConfigStore {
  constructor(
    private readonly inner: PushConfigStore,
    private readonly registrations: V03Registrations,
  ) {}

  get persistent(): boolean | undefined {
    return this.inner.persistent;
  }

  async savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    // Claiming marks the caller's object too: the dispatcher registers that very object for delivery next.
    if (!this.registrations.claim(config)) return this.inner.savePushConfig(scope, config);
    await this.inner.savePushConfig(scope, {
      ...config,
      [V03_WEBHOOK_MEMBER]: '0.3',
    } as StoredPushConfig);
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<TaskPushNotificationConfig | undefined> {
    const c = await this.inner.getPushConfig(scope, taskId, id);
    return c && restore(c);
  }

  async listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]> {
    return (await this.inner.listPushConfigs(scope, taskId)).map(restore);
  }

  deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    return this.inner.deletePushConfig(scope, taskId, id);
  }

  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}

/** The wire format of a server that speaks 0.3 too. */
export function v03PushFormat(registrations: V03Registrations): PushWireFormat {
  // One body per event, however many 0.3 webhooks the task has.
  let lastEvent: StreamResponse | undefined;
  let lastBody: PushBody | undefined;
  return {
    tag(config) {
      registrations.claim(config);
    },
    body(
      config: TaskPushNotificationConfig,
      task: Task,
      event: StreamResponse,
    ): PushBody | undefined {
      if (!isV03Webhook(config)) return undefined;
      if (event !== lastEvent) {
        lastEvent = event;
        lastBody = { body: JSON.stringify(taskToV03(task)), contentType: 'application/json' };
      }
      return lastBody;
    },
  };
}
