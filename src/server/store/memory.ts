/** In-memory TaskStore: the default. Bounded: past `maxTasks`, the oldest terminal tasks are evicted. */
import {
  A2AError,
  isTerminal,
  type Task,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import {
  decodeCursor,
  encodeCursor,
  listsBefore,
  statusTime,
  taskKey,
  type Scope,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
  type PushConfigStore,
  type StoredPushConfig,
  TaskVersionConflict,
  type VersionedTask,
} from './task-store.js';
import { parseStoredTask, storedTaskJson } from '../tasks/json.js';

/**
 * A stored task. A finished task never changes again, so it is kept as its JSON text (about a third
 * of the memory of the object tree), with the few fields listing filters on kept beside it. A class
 * with every field set in its constructor keeps them all inside the object (no second properties
 * array), which is a tenth of what a finished task costs here.
 */
class Entry {
  /** The live task, or the JSON text of a finished one. */
  value!: Task | string;
  time!: number;
  contextId!: string;
  state!: Task['status']['state'];
  configs: Map<string, TaskPushNotificationConfig> | undefined = undefined;
  version = 1;

  constructor(
    readonly id: string,
    readonly owner: string,
    readonly tenant: string,
    task: Task,
  ) {
    this.fill(task);
  }

  fill(task: Task): void {
    this.time = statusTime(task);
    this.contextId = task.contextId;
    this.state = task.status.state;
    this.value = isTerminal(task.status.state) ? storedTaskJson(task) : task;
  }

  /** Characters of JSON text held (finished tasks only; live ones are bounded per task). */
  get bytes(): number {
    return typeof this.value === 'string' ? this.value.length : 0;
  }

  get task(): Task {
    const v = this.value;
    return typeof v === 'string' ? parseStoredTask(v, (text) => JSON.parse(text) as Task) : v;
  }
}

/** Settings of {@link InMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept; default 100 000. Only terminal tasks are evicted, oldest first. */
  maxTasks?: number;
  /**
   * Most characters of finished tasks' JSON kept (about their size in memory, halved for ASCII);
   * default 256 Mi. Past it the oldest finished tasks are evicted, as for `maxTasks`.
   */
  maxBytes?: number;
}

/**
 * The default store: tasks and push configs in this process's memory, lost on restart. Bounded:
 * past `maxTasks`, the oldest finished tasks are evicted (a running task never is). Finished tasks are
 * kept as compact JSON text.
 *
 * @example
 * ```ts
 * const server = createAgentServer({ card, executor, store: new InMemoryTaskStore({ maxTasks: 10_000 }) });
 * ```
 */
export class InMemoryTaskStore implements TaskStore, PushConfigStore {
  // Map iteration order is insertion order: the first entries are the oldest, which makes eviction cheap.
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #maxBytes: number;
  /** Characters of finished tasks' JSON text held now. */
  #bytes = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#max = options.maxTasks ?? 100_000;
    this.#maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Always ready: the tasks are in this process. */
  ping(): Promise<void> {
    return Promise.resolve();
  }

  #visible(scope: Scope, id: string): Entry | undefined {
    const e = this.#entries.get(taskKey(scope, id));
    return e && e.owner === scope.owner && e.tenant === scope.tenant ? e : undefined;
  }

  async getTask(scope: Scope, id: string): Promise<Task | undefined> {
    const e = this.#visible(scope, id);
    return e?.task;
  }

  /**
   * A copy of a live task: whoever writes it back must not have changed the stored object in place, or a
   * second writer re-reading after a lost race would see the other's unsaved changes as stored.
   */
  async readTask(scope: Scope, id: string): Promise<VersionedTask | undefined> {
    const e = this.#visible(scope, id);
    if (!e) return undefined;
    return {
      task: typeof e.value === 'string' ? e.task : structuredClone(e.value),
      version: e.version,
    };
  }

  async saveTask(scope: Scope, task: Task, expected?: number): Promise<number | void> {
    const key = taskKey(scope, task.id);
    const e = this.#entries.get(key);
    let version = 1;
    if (e) {
      if (e.owner !== scope.owner || e.tenant !== scope.tenant)
        throw A2AError.taskNotFound(task.id);
      if (expected !== undefined && expected !== e.version)
        throw new TaskVersionConflict(task.id, expected);
      this.#bytes -= e.bytes;
      e.fill(task);
      version = ++e.version;
      this.#bytes += e.bytes;
    } else {
      if (expected) throw new TaskVersionConflict(task.id, expected);
      const added = new Entry(task.id, scope.owner, scope.tenant, task);
      this.#entries.set(key, added);
      this.#bytes += added.bytes;
    }
    if (this.#entries.size > this.#max || this.#bytes > this.#maxBytes) this.#evict();
    return version;
  }

  /**
   * Evict down to 99 % of the cap at once: a Map keeps the slots of deleted entries until it is rebuilt,
   * so walking it from the oldest end once per insert would step over every earlier eviction again.
   */
  #evict(): void {
    let excess = this.#entries.size - (this.#max - Math.floor(this.#max / 100));
    const bytesTarget = this.#maxBytes - Math.floor(this.#maxBytes / 100);
    for (const [key, e] of this.#entries) {
      if (excess <= 0 && this.#bytes <= bytesTarget) break;
      if (isTerminal(e.state)) {
        this.#entries.delete(key);
        this.#bytes -= e.bytes;
        excess--;
      }
    }
  }

  async listTasks(scope: Scope, q: TaskQuery): Promise<TaskPage> {
    const matches: Entry[] = [];
    for (const e of this.#entries.values()) {
      if (e.owner !== scope.owner || e.tenant !== scope.tenant) continue;
      if (q.contextId !== undefined && e.contextId !== q.contextId) continue;
      if (q.status !== undefined && e.state !== q.status) continue;
      if (q.statusTimestampAfter !== undefined && e.time < q.statusTimestampAfter) continue;
      matches.push(e);
    }
    matches.sort((a, b) => b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let start = 0;
    if (q.pageToken) {
      const cursor = decodeCursor(q.pageToken);
      if (!cursor)
        throw A2AError.invalidParams([
          { field: 'pageToken', description: 'is not a token this server issued' },
        ]);
      while (start < matches.length && !listsBefore(cursor, matches[start]!)) start++;
    }
    const tasks = matches.slice(start, start + q.pageSize).map((e) => e.task);
    const more = start + q.pageSize < matches.length;
    return {
      tasks,
      nextPageToken: more ? encodeCursor(tasks[tasks.length - 1]!) : '',
      totalSize: matches.length,
    };
  }

  async savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    const e = this.#visible(scope, config.taskId);
    if (!e) throw A2AError.taskNotFound(config.taskId);
    (e.configs ??= new Map()).set(config.id, config);
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<TaskPushNotificationConfig | undefined> {
    return this.#visible(scope, taskId)?.configs?.get(id);
  }

  async listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]> {
    const e = this.#visible(scope, taskId);
    if (!e) throw A2AError.taskNotFound(taskId);
    return e.configs ? [...e.configs.values()] : [];
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    this.#visible(scope, taskId)?.configs?.delete(id);
  }
}
