/**
 * Connects the task event fan-out to webhook delivery: every event of a task goes, in order, to each
 * push config of that task. Configs are cached in memory (the bus never re-reads the store per event);
 * with a persistent store, a task's configs are loaded once, on its first event in this process.
 */
import {
  isTerminal,
  type StreamResponse,
  type Task,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { PushConfigStore, Scope } from '../store/task-store.js';
import type { PushSender } from './sender.js';
import type { PushBody, PushWireFormat } from './wire-format.js';
// Events held back while configs load are snapshotted; the sender itself serialises at enqueue.
import { snapshotEvent, snapshotTask } from '../tasks/view.js';

const keyOf = (scope: Scope, taskId: string): string =>
  `${scope.tenant}\u0000${scope.owner}\u0000${taskId}`;

/** Where the dispatcher hands each (webhook, event): the sender itself, or an outbox in front of it. */
export interface PushQueue {
  enqueue(config: TaskPushNotificationConfig, event: StreamResponse, custom?: PushBody): void;
}

export class PushDispatcher {
  readonly #configs = new Map<string, TaskPushNotificationConfig[]>();
  /** Events (with the task as it was, when a wire format needs it) waiting while a task's configs load. */
  readonly #loading = new Map<string, Array<[StreamResponse, Task]>>();

  constructor(
    private readonly sender: PushSender,
    private readonly store: PushConfigStore,
    private readonly logger: Logger,
    private readonly format?: PushWireFormat,
    private readonly queue: PushQueue = sender,
  ) {}

  add(scope: Scope, taskId: string, config: TaskPushNotificationConfig): void {
    this.format?.tag(config);
    const key = keyOf(scope, taskId);
    const list = (this.#configs.get(key) ?? []).filter((c) => c.id !== config.id);
    list.push(config);
    this.#configs.set(key, list);
  }

  remove(scope: Scope, taskId: string, id: string): void {
    const key = keyOf(scope, taskId);
    const list = this.#configs.get(key);
    if (list)
      this.#configs.set(
        key,
        list.filter((c) => c.id !== id),
      );
  }

  /** Task event observer: deliver to every config of the task. */
  readonly onEvent = (scope: Scope, task: Task | undefined, event: StreamResponse): void => {
    if (!task) return; // a direct Message reply belongs to no task and has no configs
    const key = keyOf(scope, task.id);
    const pending = this.#loading.get(key);
    if (pending) {
      pending.push([snapshotEvent(event), this.format ? snapshotTask(task) : task]);
      return;
    }
    const list = this.#configs.get(key);
    // A task's first event ('task') is its creation: nothing can be stored for it yet, so nothing is loaded.
    if (list === undefined && this.store.persistent && !('task' in event)) {
      this.#load(scope, task.id, key, [
        snapshotEvent(event),
        this.format ? snapshotTask(task) : task,
      ]);
      return;
    }
    this.#send(list, event, task);
    if (isTerminal(task.status.state)) this.#configs.delete(key);
    else if (list === undefined && 'task' in event && this.store.persistent)
      this.#configs.set(key, []);
  };

  #send(list: TaskPushNotificationConfig[] | undefined, event: StreamResponse, task: Task): void {
    if (!list?.length) return;
    const format = this.format;
    for (const c of list) this.queue.enqueue(c, event, format?.body(c, task, event));
  }

  #load(scope: Scope, taskId: string, key: string, first: [StreamResponse, Task]): void {
    const queue = [first];
    this.#loading.set(key, queue);
    this.store
      .listPushConfigs(scope, taskId)
      .catch((err: unknown) => {
        this.logger.warn(
          { err, taskId },
          'could not load push configs; notifications for this task are skipped',
        );
        return [] as TaskPushNotificationConfig[];
      })
      .then((configs) => {
        this.#loading.delete(key);
        const merged = [
          ...configs,
          ...(this.#configs.get(key) ?? []).filter((c) => !configs.some((s) => s.id === c.id)),
        ];
        for (const [e, t] of queue) this.#send(merged, e, t);
        // A task that finished while its configs loaded is done with them; keeping the entry would leak it.
        if (queue.some(([e]) => isFinal(e))) this.#configs.delete(key);
        else this.#configs.set(key, merged);
      })
      .catch((err: unknown) => {
        // A wire format or queue that throws on the held events must not become an unhandled rejection.
        this.logger.warn(
          { err, taskId },
          'could not queue the push notifications held while loading',
        );
      });
  }
}

function isFinal(event: StreamResponse): boolean {
  return 'statusUpdate' in event && isTerminal(event.statusUpdate.status.state);
}
