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
import { currentV03Call, inV03Call } from './context.js';

/** Marks a config (in memory) as registered over 0.3. */
export const V03_WEBHOOK: unique symbol = Symbol.for('a2a-kit.v03Webhook');
/** The member that marks it in a store; taken off again on every read. */
export const V03_WEBHOOK_MEMBER = 'a2aKitWireVersion';

type Tagged = TaskPushNotificationConfig & { [V03_WEBHOOK]?: true };

function mark(config: Tagged): void {
  if (config[V03_WEBHOOK] !== true) Object.defineProperty(config, V03_WEBHOOK, { value: true, enumerable: false, configurable: true });
}

/** A config read from the store, with its stored marker turned back into the in-memory one. */
function restore(config: TaskPushNotificationConfig): TaskPushNotificationConfig {
  const stored = config as TaskPushNotificationConfig & Record<string, unknown>;
  if (stored[V03_WEBHOOK_MEMBER] === undefined) return config;
  const { [V03_WEBHOOK_MEMBER]: _marker, ...plain } = stored;
  mark(plain);
  return plain;
}

/** Wraps the push config store: configs saved during a 0.3 call are stored with their marker. */
export class V03AwarePushConfigStore implements PushConfigStore {
  constructor(private readonly inner: PushConfigStore) {}

  get persistent(): boolean | undefined {
    return this.inner.persistent;
  }

  async savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    const tagged = config as Tagged;
    if (tagged[V03_WEBHOOK] !== true && !inV03Call()) return this.inner.savePushConfig(scope, config);
    // Mark the caller's object too: the dispatcher registers that very object for delivery next.
    mark(tagged);
    await this.inner.savePushConfig(scope, { ...config, [V03_WEBHOOK_MEMBER]: '0.3' } as StoredPushConfig);
  }

  async getPushConfig(scope: Scope, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
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
export function v03PushFormat(): PushWireFormat {
  // One body per event, however many 0.3 webhooks the task has.
  let lastEvent: StreamResponse | undefined;
  let lastBody: PushBody | undefined;
  return {
    tag(config) {
      const call = currentV03Call();
      if (!call) return;
      mark(config as Tagged);
      // Registered with a 0.3 message without an id: named after its task, as 0.3 agents do (the task exists now).
      if (call.inlineConfigNamedAfterTask && config.taskId) {
        call.inlineConfigNamedAfterTask = false;
        config.id = config.taskId;
      }
    },
    body(config: TaskPushNotificationConfig, task: Task, event: StreamResponse): PushBody | undefined {
      if ((config as Tagged)[V03_WEBHOOK] !== true) return undefined;
      if (event !== lastEvent) {
        lastEvent = event;
        lastBody = { body: JSON.stringify(taskToV03(task)), contentType: 'application/json' };
      }
      return lastBody;
    },
  };
}
