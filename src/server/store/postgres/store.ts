/**
 * PostgreSQL TaskStore: tasks (as ProtoJSON text beside the columns listing filters and sorts on) and
 * push configs, shared by every instance that points at the same database and schema. Writes are
 * conditional on the version read (optimistic concurrency); each operation is one statement, so a
 * synchronous agent's SendMessage costs one round trip (the insert of the finished task).
 */
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { A2AError, type Task, type TaskPushNotificationConfig } from '../../../protocol/index.js';
import { knownTaskJson, storedTaskJson } from '../../tasks/json.js';
import {
  encodeCursor,
  statusTime,
  TaskVersionConflict,
  type PushConfigStore,
  type Scope,
  type StoredPushConfig,
  type TaskPage,
  type TaskQuery,
  type TaskStore,
  type VersionedTask,
} from '../task-store.js';
import { translate, schemaName, type PostgresStoreOptions } from './config.js';
import { applyMigrations } from './migrations.js';
import { listQuery } from './list.js';
import { FinishedCache } from './finished-cache.js';

/** How the store reaches its database: the pool, whether closing the store ends it, and its URL for messages. */
export interface PostgresConnection {
  pool: Pool;
  /** End the pool on `close()` (true when the store built it). */
  owned: boolean;
  /** Where the database is, password masked: named in errors. */
  label: string;
}

/**
 * Tasks and push configs in PostgreSQL, for several instances of an agent behind one load balancer.
 * Build it with {@link postgresStore}; it migrates its schema on first use unless told not to.
 * A database out of reach makes calls fail with the `Unavailable` error kind; the pool reconnects by itself.
 */
export class PostgresTaskStore implements TaskStore, PushConfigStore {
  readonly persistent = true;
  /** See {@link PostgresStoreOptions.shared}. */
  readonly shared: boolean;
  readonly pool: Pool;
  readonly #conn: PostgresConnection;
  readonly #options: PostgresStoreOptions;
  readonly #schema: string;
  readonly #t: string;
  readonly #c: string;
  /** Prepared-statement names must be unique per connection: the schema is part of them. */
  readonly #p: string;
  #ready: Promise<void> | undefined;
  readonly #finished: FinishedCache;

  constructor(conn: PostgresConnection, options: PostgresStoreOptions = {}) {
    this.#conn = conn;
    this.pool = conn.pool;
    this.#options = options;
    this.#schema = schemaName(options);
    this.shared = options.shared ?? true;
    this.#finished = new FinishedCache(options.cacheFinished ?? 1000);
    this.#t = `"${this.#schema}".a2a_tasks`;
    this.#c = `"${this.#schema}".a2a_push_configs`;
    this.#p = `a2a_${this.#schema}_`;
    // Without a listener an idle connection dropped by a database restart would crash the process.
    this.pool.on('error', (err) => options.onError?.(err));
  }

  /** Connect and apply pending migrations (once; retried on the next call after a failure). */
  ready(): Promise<void> {
    return (this.#ready ??= this.#prepare().catch((err: unknown) => {
      this.#ready = undefined;
      throw translate(err, this.#conn.label);
    }));
  }

  /** One round trip to the database: what the server's readiness endpoint reports as `store`. */
  async ping(): Promise<void> {
    await this.#q('ping', 'SELECT 1', []);
  }

  async #prepare(): Promise<void> {
    if (this.#options.migrate === false) await this.pool.query('SELECT 1');
    else await applyMigrations(this.pool, this.#schema);
  }

  async #q<R extends QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    await (this.#ready ?? this.ready());
    const config: QueryConfig = { name: this.#p + name, text, values };
    try {
      return await this.pool.query<R>(config);
    } catch (err) {
      throw translate(err, this.#conn.label);
    }
  }

  async getTask(scope: Scope, id: string): Promise<Task | undefined> {
    return (await this.readTask(scope, id))?.task;
  }

  async readTask(scope: Scope, id: string): Promise<VersionedTask | undefined> {
    const cached = this.#finished.get(scope, id);
    if (cached)
      return {
        task: knownTaskJson(parse<Task>(cached.body, id), cached.body),
        version: cached.version,
      };
    const r = await this.#q<{ body: string; version: number; state: Task['status']['state'] }>(
      'get',
      `SELECT body, version, state FROM ${this.#t} WHERE tenant = $1 AND id = $2 AND owner = $3`,
      [scope.tenant, id, scope.owner],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    this.#finished.put(scope, id, row.state, row.body, row.version);
    return { task: knownTaskJson(parse<Task>(row.body, id), row.body), version: row.version };
  }

  async saveTask(scope: Scope, task: Task, expected?: number): Promise<number> {
    const body = storedTaskJson(task);
    const version = await this.#write(scope, task, expected, body);
    this.#finished.put(scope, task.id, task.status.state, body, version);
    return version;
  }

  async #write(
    scope: Scope,
    task: Task,
    expected: number | undefined,
    body: string,
  ): Promise<number> {
    const cols = [task.contextId, task.status.state, statusTime(task), body];
    const key = [scope.tenant, task.id, scope.owner];
    let r: QueryResult<{ version: number }>;
    if (expected === undefined) {
      r = await this.#q(
        'upsert',
        `INSERT INTO ${this.#t} AS t (context_id, state, status_ts, body, tenant, id, owner, version) VALUES ($1, $2, $3, $4, $5, $6, $7, 1)
        ON CONFLICT (tenant, id) DO UPDATE SET context_id = $1, state = $2, status_ts = $3, body = $4, version = t.version + 1
        WHERE t.owner = $7 RETURNING version`,
        [...cols, ...key],
      );
      if (r.rows[0]) return r.rows[0].version;
      throw A2AError.taskNotFound(task.id);
    }
    r =
      expected === 0
        ? await this.#q(
            'insert',
            `INSERT INTO ${this.#t} (context_id, state, status_ts, body, tenant, id, owner, version) VALUES ($1, $2, $3, $4, $5, $6, $7, 1)
            ON CONFLICT (tenant, id) DO NOTHING RETURNING version`,
            [...cols, ...key],
          )
        : await this.#q(
            'update',
            `UPDATE ${this.#t} SET context_id = $1, state = $2, status_ts = $3, body = $4, version = version + 1
            WHERE tenant = $5 AND id = $6 AND owner = $7 AND version = $8 RETURNING version`,
            [...cols, ...key, expected],
          );
    if (r.rows[0]) return r.rows[0].version;
    // The rare path: tell a task of another scope (not found) from a lost race.
    const other = await this.#q<{ owner: string }>(
      'owner',
      `SELECT owner FROM ${this.#t} WHERE tenant = $1 AND id = $2`,
      [scope.tenant, task.id],
    );
    if (other.rows[0] && other.rows[0].owner !== scope.owner) throw A2AError.taskNotFound(task.id);
    throw new TaskVersionConflict(task.id, expected);
  }

  async listTasks(scope: Scope, q: TaskQuery): Promise<TaskPage> {
    const { text, values } = listQuery(this.#t, scope, q);
    await (this.#ready ?? this.ready());
    let r: QueryResult<{ total: number; id: string | null; body: string | null }>;
    try {
      r = await this.pool.query({ text, values });
    } catch (err) {
      throw translate(err, this.#conn.label);
    }
    const rows = r.rows.filter((row) => row.id !== null);
    const tasks = rows.slice(0, q.pageSize).map((row) => parse<Task>(row.body!, row.id!));
    const more = rows.length > q.pageSize;
    return {
      tasks,
      nextPageToken: more ? encodeCursor(tasks[tasks.length - 1]!) : '',
      totalSize: r.rows[0]?.total ?? 0,
    };
  }

  async unfinishedTasks(): Promise<Array<{ scope: Scope; task: Task; version: number }>> {
    const r = await this.#q<{
      tenant: string;
      owner: string;
      id: string;
      body: string;
      version: number;
    }>(
      'unfinished',
      `SELECT tenant, owner, id, body, version FROM ${this.#t} WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')`,
      [],
    );
    return r.rows.map((row) => ({
      scope: { tenant: row.tenant, owner: row.owner },
      task: parse<Task>(row.body, row.id),
      version: row.version,
    }));
  }

  async savePushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    // The owner check and the write in one statement: nothing is written for a task of another scope.
    const r = await this.#q(
      'put_config',
      `INSERT INTO ${this.#c} (tenant, task_id, id, body)
        SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM ${this.#t} WHERE tenant = $1 AND id = $2 AND owner = $5)
        ON CONFLICT (tenant, task_id, id) DO UPDATE SET body = excluded.body`,
      [scope.tenant, config.taskId, config.id, JSON.stringify(config), scope.owner],
    );
    if (r.rowCount === 0) throw A2AError.taskNotFound(config.taskId);
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<TaskPushNotificationConfig | undefined> {
    const r = await this.#q<{ body: string }>(
      'get_config',
      `SELECT c.body FROM ${this.#c} c JOIN ${this.#t} t ON t.tenant = c.tenant AND t.id = c.task_id
        WHERE c.tenant = $1 AND c.task_id = $2 AND c.id = $3 AND t.owner = $4`,
      [scope.tenant, taskId, id, scope.owner],
    );
    return r.rows[0] ? parse<TaskPushNotificationConfig>(r.rows[0].body, id) : undefined;
  }

  async listPushConfigs(scope: Scope, taskId: string): Promise<TaskPushNotificationConfig[]> {
    // No row: no such task in this scope; one row with a null body: a task without configs.
    const r = await this.#q<{ body: string | null }>(
      'list_configs',
      `SELECT c.body FROM ${this.#t} t LEFT JOIN ${this.#c} c ON c.tenant = t.tenant AND c.task_id = t.id
        WHERE t.tenant = $1 AND t.id = $2 AND t.owner = $3 ORDER BY c.id`,
      [scope.tenant, taskId, scope.owner],
    );
    if (r.rows.length === 0) throw A2AError.taskNotFound(taskId);
    return r.rows
      .filter((row) => row.body !== null)
      .map((row) => parse<TaskPushNotificationConfig>(row.body!, taskId));
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    await this.#q(
      'delete_config',
      `DELETE FROM ${this.#c} c USING ${this.#t} t
        WHERE c.tenant = $1 AND c.task_id = $2 AND c.id = $3 AND t.tenant = c.tenant AND t.id = c.task_id AND t.owner = $4`,
      [scope.tenant, taskId, id, scope.owner],
    );
  }

  /** Ends the pool when the store built it; a pool passed in stays open for its owner. */
  async close(): Promise<void> {
    if (this.#conn.owned && !this.pool.ended) await this.pool.end();
  }
}

function parse<T>(text: string, id: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new A2AError('Internal', `Stored record ${id} is unreadable`, [], { cause });
  }
}
