/**
 * SQLite TaskStore (better-sqlite3): the embedded store that survives restarts. One file, WAL
 * mode, tasks as ProtoJSON text beside the columns that listing filters and sorts on.
 */
import { createRequire } from 'node:module';
import { A2AError, type Task, type TaskPushNotificationConfig } from '../../protocol/index.js';
import { knownTaskJson, parseStoredTask, storedTaskJson } from '../tasks/json.js';
import {
  decodeCursor,
  encodeCursor,
  statusTime,
  TaskVersionConflict,
  type Scope,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
  type PushConfigStore,
  type StoredPushConfig,
  type VersionedTask,
} from './task-store.js';
import { sqliteUnavailable } from './sqlite-driver.js';

export { sqliteUnavailable };

type Db = import('better-sqlite3').Database;
type Stmt = import('better-sqlite3').Statement;

/** Settings of {@link SqliteTaskStore}. */
export interface SqliteTaskStoreOptions {
  /** File path, or `:memory:`. */
  path: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS a2a_tasks (
  tenant TEXT NOT NULL, id TEXT NOT NULL, owner TEXT NOT NULL, context_id TEXT NOT NULL,
  state TEXT NOT NULL, status_ts INTEGER NOT NULL, body TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX IF NOT EXISTS a2a_tasks_list ON a2a_tasks (tenant, owner, status_ts DESC, id);
CREATE TABLE IF NOT EXISTS a2a_push_configs (
  tenant TEXT NOT NULL, task_id TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (tenant, task_id, id)
);`;

/**
 * Tasks and push configs in one SQLite file, so they survive a restart of the process: the embedded
 * store for a single instance. Needs the optional peer dependency `better-sqlite3` (12 on Node
 * 20, 13 on Node 22 and later), loaded only when a store is constructed; {@link sqliteUnavailable}
 * says beforehand whether it can be.
 *
 * @example
 * ```ts
 * import { SqliteTaskStore } from 'a2a-kit/server/sqlite';
 * const server = createAgentServer({ card, executor, store: new SqliteTaskStore({ path: './tasks.db' }) });
 * ```
 */
export class SqliteTaskStore implements TaskStore, PushConfigStore {
  readonly persistent = true;
  readonly #db: Db;
  readonly #get: Stmt;
  readonly #upsert: Stmt;
  readonly #insert: Stmt;
  readonly #update: Stmt;
  readonly #version: Stmt;
  readonly #owner: Stmt;
  readonly #putConfig: Stmt;
  readonly #getConfig: Stmt;
  readonly #listConfigs: Stmt;
  readonly #deleteConfig: Stmt;

  constructor(options: SqliteTaskStoreOptions) {
    // better-sqlite3 is CommonJS; load it lazily so apps that never use SQLite never load it.
    this.#db = new (loadDriver())(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.exec(SCHEMA);
    // Files written before versions existed get the column (every old row at version 1).
    const columns = this.#db.prepare('PRAGMA table_info(a2a_tasks)').all() as Array<{
      name: string;
    }>;
    if (!columns.some((c) => c.name === 'version'))
      this.#db.exec('ALTER TABLE a2a_tasks ADD COLUMN version INTEGER NOT NULL DEFAULT 1');
    this.#get = this.#db.prepare(
      'SELECT body FROM a2a_tasks WHERE tenant = ? AND id = ? AND owner = ?',
    );
    this.#version = this.#db.prepare(
      'SELECT body, version FROM a2a_tasks WHERE tenant = ? AND id = ? AND owner = ?',
    );
    this.#insert = this.#db.prepare(
      `INSERT INTO a2a_tasks (tenant, id, owner, context_id, state, status_ts, body, version) VALUES (?, ?, ?, ?, ?, ?, ?, 1)
       ON CONFLICT (tenant, id) DO NOTHING`,
    );
    this.#update = this.#db.prepare(
      `UPDATE a2a_tasks SET context_id = ?, state = ?, status_ts = ?, body = ?, version = version + 1
       WHERE tenant = ? AND id = ? AND owner = ? AND version = ?`,
    );
    this.#owner = this.#db.prepare('SELECT owner FROM a2a_tasks WHERE tenant = ? AND id = ?');
    this.#upsert = this.#db.prepare(
      `INSERT INTO a2a_tasks (tenant, id, owner, context_id, state, status_ts, body) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant, id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
         status_ts = excluded.status_ts, body = excluded.body, version = a2a_tasks.version + 1
       WHERE a2a_tasks.owner = excluded.owner RETURNING version`,
    );
    this.#putConfig = this.#db.prepare(
      'INSERT INTO a2a_push_configs (tenant, task_id, id, body) VALUES (?, ?, ?, ?) ON CONFLICT (tenant, task_id, id) DO UPDATE SET body = excluded.body',
    );
    this.#getConfig = this.#db.prepare(
      'SELECT body FROM a2a_push_configs WHERE tenant = ? AND task_id = ? AND id = ?',
    );
    this.#listConfigs = this.#db.prepare(
      'SELECT body FROM a2a_push_configs WHERE tenant = ? AND task_id = ? ORDER BY id',
    );
    this.#deleteConfig = this.#db.prepare(
      'DELETE FROM a2a_push_configs WHERE tenant = ? AND task_id = ? AND id = ?',
    );
  }

  async getTask(scope: Scope, id: string): Promise<Task | undefined> {
    const row = this.#get.get(scope.tenant, id, scope.owner) as { body: string } | undefined;
    return row ? parseStoredTask(row.body, (text) => parse<Task>(text, id)) : undefined;
  }

  async readTask(scope: Scope, id: string): Promise<VersionedTask | undefined> {
    const row = this.#version.get(scope.tenant, id, scope.owner) as
      { body: string; version: number } | undefined;
    return row
      ? { task: knownTaskJson(parse<Task>(row.body, id), row.body), version: row.version }
      : undefined;
  }

  async saveTask(scope: Scope, task: Task, expected?: number): Promise<number> {
    const body = storedTaskJson(task);
    if (expected === undefined) {
      const row = this.#upsert.get(
        scope.tenant,
        task.id,
        scope.owner,
        task.contextId,
        task.status.state,
        statusTime(task),
        body,
      ) as { version: number } | undefined;
      if (!row) throw A2AError.taskNotFound(task.id);
      return row.version;
    }
    const r =
      expected === 0
        ? this.#insert.run(
            scope.tenant,
            task.id,
            scope.owner,
            task.contextId,
            task.status.state,
            statusTime(task),
            body,
          )
        : this.#update.run(
            task.contextId,
            task.status.state,
            statusTime(task),
            body,
            scope.tenant,
            task.id,
            scope.owner,
            expected,
          );
    if (r.changes === 1) return expected + 1;
    const row = this.#owner.get(scope.tenant, task.id) as { owner: string } | undefined;
    if (row && row.owner !== scope.owner) throw A2AError.taskNotFound(task.id);
    throw new TaskVersionConflict(task.id, expected);
  }

  async listTasks(scope: Scope, q: TaskQuery): Promise<TaskPage> {
    const where = ['tenant = ?', 'owner = ?'];
    const args: unknown[] = [scope.tenant, scope.owner];
    const add = (clause: string, value: unknown): void => {
      where.push(clause);
      args.push(value);
    };
    if (q.contextId !== undefined) add('context_id = ?', q.contextId);
    if (q.status !== undefined) add('state = ?', q.status);
    if (q.statusTimestampAfter !== undefined) add('status_ts >= ?', q.statusTimestampAfter);
    const filter = where.join(' AND ');
    const total = (
      this.#db.prepare(`SELECT COUNT(*) AS n FROM a2a_tasks WHERE ${filter}`).get(...args) as {
        n: number;
      }
    ).n;
    const pageArgs = [...args];
    let page = filter;
    if (q.pageToken) {
      const c = decodeCursor(q.pageToken);
      if (!c)
        throw A2AError.invalidParams([
          { field: 'pageToken', description: 'is not a token this server issued' },
        ]);
      page += ' AND (status_ts < ? OR (status_ts = ? AND id > ?))';
      pageArgs.push(c.time, c.time, c.id);
    }
    const rows = this.#db
      .prepare(
        `SELECT id, body FROM a2a_tasks WHERE ${page} ORDER BY status_ts DESC, id ASC LIMIT ?`,
      )
      .all(...pageArgs, q.pageSize + 1) as Array<{ id: string; body: string }>;
    const tasks = rows.slice(0, q.pageSize).map((r) => parse<Task>(r.body, r.id));
    const more = rows.length > q.pageSize;
    return {
      tasks,
      nextPageToken: more ? encodeCursor(tasks[tasks.length - 1]!) : '',
      totalSize: total,
    };
  }

  async unfinishedTasks(): Promise<Array<{ scope: Scope; task: Task; version: number }>> {
    const rows = this.#db
      .prepare(
        `SELECT tenant, owner, id, body, version FROM a2a_tasks WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')`,
      )
      .all() as Array<{ tenant: string; owner: string; id: string; body: string; version: number }>;
    return rows.map((r) => ({
      scope: { tenant: r.tenant, owner: r.owner },
      task: parse<Task>(r.body, r.id),
      version: r.version,
    }));
  }

  #visible(scope: Scope, taskId: string): boolean {
    const row = this.#owner.get(scope.tenant, taskId) as { owner: string } | undefined;
    return row !== undefined && row.owner === scope.owner;
  }

  async savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    if (!this.#visible(scope, config.taskId)) throw A2AError.taskNotFound(config.taskId);
    this.#putConfig.run(scope.tenant, config.taskId, config.id, JSON.stringify(config));
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<TaskPushNotificationConfig | undefined> {
    if (!this.#visible(scope, taskId)) return undefined;
    const row = this.#getConfig.get(scope.tenant, taskId, id) as { body: string } | undefined;
    return row ? parse<TaskPushNotificationConfig>(row.body, id) : undefined;
  }

  async listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]> {
    if (!this.#visible(scope, taskId)) throw A2AError.taskNotFound(taskId);
    return (this.#listConfigs.all(scope.tenant, taskId) as Array<{ body: string }>).map((r) =>
      parse(r.body, taskId),
    );
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    if (this.#visible(scope, taskId)) this.#deleteConfig.run(scope.tenant, taskId, id);
  }

  /** A trivial query: rejects once the database is closed or cannot be read. */
  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

function parse<T>(text: string, id: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new A2AError('Internal', `Stored record ${id} is unreadable`, [], { cause });
  }
}

/** better-sqlite3 itself, or an error saying what to install (sqlite-driver.ts). */
function loadDriver(): typeof import('better-sqlite3') {
  const problem = sqliteUnavailable();
  if (problem) throw new Error(problem);
  return createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
}
