/**
 * `a2a-kit/server/postgres`: the PostgreSQL task store for several instances of an agent, and its
 * schema migrations for operators. Needs the optional peer dependency `pg` (version 8).
 *
 * @example
 * ```ts
 * import { postgresStore } from 'a2a-kit/server/postgres';
 * const server = createAgentServer({ card, executor, store: postgresStore(process.env.DATABASE_URL!) });
 * ```
 */
import type pg from 'pg';
import { importPeer } from '../../../protocol/peer.js';
import { schemaName, translate, type PostgresStoreOptions } from './config.js';
import { maskUrl } from '../../util/mask-url.js';
import { applyMigrations, type AppliedMigration } from './migrations.js';
import { PostgresTaskStore } from './store.js';

// pg is an optional peer: without it, importing this entry point says what to install.
const driver = (await importPeer(() => import('pg'), 'pg', 'a2a-kit/server/postgres')).default;

export { PostgresTaskStore, type PostgresConnection } from './store.js';
export { MIGRATIONS, type Migration, type AppliedMigration } from './migrations.js';
export { type PostgresStoreOptions } from './config.js';

/**
 * A PostgreSQL store from a connection URL (`postgres://user:password@host:5432/db`) or an existing
 * `pg.Pool` (left open on close). Nothing connects until the first call; with `createAgentServer` that
 * is at start, which fails with an error naming the URL (password masked) when the database is out of reach.
 *
 * @example
 * ```ts
 * postgresStore('postgres://app@127.0.0.1:5432/agents', { schema: 'a2a', pool: { max: 20 } });
 * ```
 */
export function postgresStore(
  target: string | pg.Pool,
  options: PostgresStoreOptions = {},
): PostgresTaskStore {
  if (typeof target !== 'string')
    return new PostgresTaskStore({ pool: target, owned: false, label: 'the given pool' }, options);
  const pool = new driver.Pool({
    connectionTimeoutMillis: 5000,
    max: 10,
    ...options.pool,
    connectionString: target,
  });
  return new PostgresTaskStore({ pool, owned: true, label: maskUrl(target) }, options);
}

/**
 * Apply the store's pending schema migrations and return them (empty when the schema is current): for
 * operators who migrate before deploying (`a2a db migrate URL` does this). Safe to run concurrently.
 */
export async function migrate(
  url: string,
  options: Pick<PostgresStoreOptions, 'schema'> = {},
): Promise<AppliedMigration[]> {
  const schema = schemaName(options);
  const pool = new driver.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined);
  try {
    return await applyMigrations(pool, schema);
  } catch (err) {
    throw translate(err, maskUrl(url));
  } finally {
    await pool.end();
  }
}
