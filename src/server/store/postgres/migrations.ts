/**
 * Versioned schema of the PostgreSQL store. Each migration runs once, in its own transaction, and is
 * recorded in `a2a_schema_migrations`; a session advisory lock per schema makes replicas that start
 * together apply them one at a time (the others then find nothing left to do).
 */
import type { Pool, PoolClient } from 'pg';

/** One step of the schema, identified by its version number (never reused or edited once released). */
export interface Migration {
  version: number;
  name: string;
  /** The SQL, given the quoted schema name. */
  sql(schema: string): string;
}

/** Every migration, in order. Append; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks and push configs',
    sql: (s) => `
CREATE TABLE ${s}.a2a_tasks (
  tenant TEXT NOT NULL, id TEXT COLLATE "C" NOT NULL, owner TEXT NOT NULL, context_id TEXT NOT NULL,
  state TEXT NOT NULL, status_ts BIGINT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX a2a_tasks_list ON ${s}.a2a_tasks (tenant, owner, status_ts DESC, id);
CREATE INDEX a2a_tasks_unfinished ON ${s}.a2a_tasks (state) WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING');
CREATE TABLE ${s}.a2a_push_configs (
  tenant TEXT NOT NULL, task_id TEXT NOT NULL, id TEXT COLLATE "C" NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (tenant, task_id, id)
);`,
  },
];

/** A migration that was applied by this call. */
export interface AppliedMigration {
  version: number;
  name: string;
}

/** Apply the pending migrations of `schema` (created when missing); resolves with those applied now. */
export async function applyMigrations(
  pool: Pool,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<AppliedMigration[]> {
  const s = `"${schema}"`;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`a2a-kit migrations ${schema}`]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.a2a_schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const done = new Set(
        (
          await client.query<{ version: number }>(`SELECT version FROM ${s}.a2a_schema_migrations`)
        ).rows.map((r) => r.version),
      );
      const applied: AppliedMigration[] = [];
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await inTransaction(client, async () => {
          await client.query(m.sql(s));
          await client.query(
            `INSERT INTO ${s}.a2a_schema_migrations (version, name) VALUES ($1, $2)`,
            [m.version, m.name],
          );
        });
        applied.push({ version: m.version, name: m.name });
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [
        `a2a-kit migrations ${schema}`,
      ]);
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    // A client whose session may still hold the lock or a failed transaction is not reused.
    client.release(broken ? true : undefined);
  }
}

async function inTransaction(client: PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
