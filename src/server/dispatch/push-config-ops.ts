/**
 * The four push-config operations (§3.1.7–§3.1.10) and a config given inline with a message (§3.2.2):
 * stored in the {@link PushConfigStore}, registered with the push dispatcher so deliveries start at once.
 * An inline config is a stored config like any other from the moment its task is: listed, read and
 * deleted while the task runs, and a delete sticks.
 */
import { randomUUID } from 'node:crypto';
import {
  A2AError,
  type CreateTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type Task,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import type { PushDispatcher } from '../push/dispatcher.js';
import { assertWebhookUrl, type WebhookPolicy } from '../push/ssrf.js';
import type { PushConfigStore, Scope, StoredPushConfig } from '../store/task-store.js';
import type { TaskRun } from '../tasks/run.js';
import type { InlinePush } from '../tasks/event-stream.js';
import { RESOLVED } from '../util/settled.js';

/** Push-config operations over one store; `taskOf` finds a task visible in a scope or throws TaskNotFound. */
export class PushConfigOperations {
  constructor(
    private readonly configs: PushConfigStore,
    private readonly push: PushDispatcher,
    private readonly policy: WebhookPolicy,
    private readonly taskOf: (scope: Scope, id: string) => Promise<Task>,
    private readonly maxPerTask: number,
  ) {}

  async create(
    req: CreateTaskPushNotificationConfigRequest,
    scope: Scope,
  ): Promise<TaskPushNotificationConfig> {
    await this.taskOf(scope, req.taskId);
    await assertWebhookUrl(req.url, this.policy, 'url');
    await this.#roomFor(scope, req.taskId, req.id);
    const config = {
      ...req,
      id: req.id || randomUUID(),
      ...(scope.tenant ? { tenant: scope.tenant } : {}),
    };
    await this.configs.savePushConfig(scope, config);
    this.push.add(scope, req.taskId, config);
    return config;
  }

  async get(
    req: GetTaskPushNotificationConfigRequest,
    scope: Scope,
  ): Promise<TaskPushNotificationConfig> {
    const cfg = await this.configs.getPushConfig(scope, req.taskId, req.id);
    if (!cfg)
      throw new A2AError(
        'TaskNotFound',
        `No push notification config ${req.id} for task ${req.taskId}`,
      );
    return cfg;
  }

  /** One page of the task's configs, in id order; the token is the last id of the page before. */
  async list(
    req: ListTaskPushNotificationConfigsRequest,
    scope: Scope,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    await this.taskOf(scope, req.taskId);
    const all = await this.configs.listPushConfigs(scope, req.taskId);
    let start = 0;
    if (req.pageToken) {
      const after = Buffer.from(req.pageToken, 'base64url').toString();
      start = all.findIndex((c) => (c.id ?? '') > after);
      if (start < 0) start = all.length;
    }
    const size = req.pageSize && req.pageSize > 0 ? req.pageSize : all.length;
    const configs = all.slice(start, start + size);
    const more = start + size < all.length;
    return {
      configs,
      nextPageToken: more ? Buffer.from(configs.at(-1)?.id ?? '').toString('base64url') : '',
    };
  }

  async delete(
    req: GetTaskPushNotificationConfigRequest,
    scope: Scope,
  ): Promise<Record<string, never>> {
    await this.taskOf(scope, req.taskId);
    await this.configs.deletePushConfig(scope, req.taskId, req.id);
    this.push.remove(scope, req.taskId, req.id);
    return {};
  }

  /** Refuse one config too many for a task; replacing a config by its id never counts against the limit. */
  async #roomFor(scope: Scope, taskId: string, id: string | undefined): Promise<void> {
    const existing = await this.configs.listPushConfigs(scope, taskId);
    if (existing.length >= this.maxPerTask && !existing.some((c) => id && c.id === id)) {
      throw new A2AError(
        'UnsupportedOperation',
        `Task ${taskId} already has ${existing.length} push notification configs, the most this agent keeps per task; delete one first`,
      );
    }
  }

  /**
   * A config given with a message: checked before the task exists (`taskId` names the task of a
   * follow-up), registered the moment the task is created so the very first event is delivered too,
   * and stored right after the task's first save (`flush`), before the call answers.
   */
  async inline(
    given: TaskPushNotificationConfig,
    scope: Scope,
    flush: (run: TaskRun) => Promise<void>,
    taskId?: string,
  ): Promise<InlinePush> {
    await assertWebhookUrl(given.url, this.policy, 'configuration.taskPushNotificationConfig.url');
    if (taskId) await this.#roomFor(scope, taskId, given.id);
    let stored: Promise<void> = RESOLVED;
    return {
      onCreated: (run) => {
        const config: StoredPushConfig = {
          ...given,
          id: given.id || randomUUID(),
          taskId: run.taskId,
          ...(scope.tenant ? { tenant: scope.tenant } : {}),
        };
        this.push.add(scope, run.taskId, config);
        stored = flush(run).then(() => this.configs.savePushConfig(scope, config));
        stored.catch(() => undefined); // the call awaits it; never an unhandled rejection meanwhile
      },
      stored: () => stored,
    };
  }
}
