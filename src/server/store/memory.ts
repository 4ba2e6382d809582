/** In-memory TaskStore: the default. Bounded: past `maxTasks`, the oldest terminal tasks are evicted. */
import { A2AError, isTerminal, type Task, type TaskPushNotificationConfig } from '../../protocol/index.js';
import {
  decodeCursor,
  encodeCursor,
  listsBefore,
  statusTime,
  type Scope,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
} from './task-store.js';
import { knownTaskJson, taskJson } from '../task-json.js';

/**
 * A stored task. A finished task never changes again, so it is kept as its JSON text (about a third
 * of the memory of the object tree), with the few fields listing filters on kept beside it.
 */
interface Entry {
  task: Task | undefined;
  json: string | undefined;
  time: number;
  contextId: string;
  state: Task['status']['state'];
  id: string;
  owner: string;
  tenant: string;
  configs?: Map<string, TaskPushNotificationConfig>;
}

function fill(e: Entry, task: Task): void {
  e.time = statusTime(task);
  e.contextId = task.contextId;
  e.state = task.status.state;
  if (isTerminal(task.status.state)) {
    e.json = taskJson(task);
    e.task = undefined;
  } else {
    e.task = task;
    e.json = undefined;
  }
}

const taskOf = (e: Entry): Task => e.task ?? knownTaskJson(JSON.parse(e.json!) as Task, e.json!);

export interface MemoryTaskStoreOptions {
  /** Most tasks kept; default 100 000. Only terminal tasks are evicted, oldest first. */
  maxTasks?: number;
}

// A client-sent id may hold NUL and so equal another tenant's key: lookups check the tenant as well.
const keyOf = (tenant: string, id: string): string => (tenant ? `${tenant}\u0000${id}` : id);

export class InMemoryTaskStore implements TaskStore {
  // Map iteration order is insertion order: the first entries are the oldest, which makes eviction cheap.
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#max = options.maxTasks ?? 100_000;
  }

  get size(): number {
    return this.#entries.size;
  }

  #visible(scope: Scope, id: string): Entry | undefined {
    const e = this.#entries.get(keyOf(scope.tenant, id));
    return e && e.owner === scope.owner && e.tenant === scope.tenant ? e : undefined;
  }

  async getTask(scope: Scope, id: string): Promise<Task | undefined> {
    const e = this.#visible(scope, id);
    return e ? taskOf(e) : undefined;
  }

  async saveTask(scope: Scope, task: Task): Promise<void> {
    const key = keyOf(scope.tenant, task.id);
    const e = this.#entries.get(key);
    if (e) {
      if (e.owner !== scope.owner || e.tenant !== scope.tenant) throw A2AError.taskNotFound(task.id);
      fill(e, task);
      return;
    }
    const entry = { id: task.id, owner: scope.owner, tenant: scope.tenant } as Entry;
    fill(entry, task);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#max) this.#evict();
  }

  /**
   * Evict down to 99 % of the cap at once: a Map keeps the slots of deleted entries until it is rebuilt,
   * so walking it from the oldest end once per insert would step over every earlier eviction again.
   */
  #evict(): void {
    let excess = this.#entries.size - (this.#max - Math.floor(this.#max / 100));
    for (const [key, e] of this.#entries) {
      if (excess <= 0) break;
      if (isTerminal(e.state)) {
        this.#entries.delete(key);
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
      if (!cursor) throw A2AError.invalidParams([{ field: 'pageToken', description: 'is not a token this server issued' }]);
      while (start < matches.length && !listsBefore(cursor, matches[start]!)) start++;
    }
    const tasks = matches.slice(start, start + q.pageSize).map(taskOf);
    const more = start + q.pageSize < matches.length;
    return { tasks, nextPageToken: more ? encodeCursor(tasks[tasks.length - 1]!) : '', totalSize: matches.length };
  }

  async savePushConfig(scope: Scope, config: TaskPushNotificationConfig & { id: string; taskId: string }): Promise<void> {
    const e = this.#visible(scope, config.taskId);
    if (!e) throw A2AError.taskNotFound(config.taskId);
    (e.configs ??= new Map()).set(config.id, config);
  }

  async getPushConfig(scope: Scope, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
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
