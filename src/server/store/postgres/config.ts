/**
 * Settings of the PostgreSQL store, and how its failures read: the URL is shown without its password,
 * and a database that cannot be reached is the `Unavailable` error kind (retry later), not `Internal`.
 */
import { A2AError } from '../../../protocol/index.js';
import type { PoolConfig } from 'pg';

/** Settings of {@link PostgresTaskStore} and {@link postgresStore}. */
export interface PostgresStoreOptions {
  /** Schema holding the tables (created when missing); default `public`. */
  schema?: string;
  /**
   * Apply pending schema migrations before the first query (default true). Turn it off when an
   * operator runs `a2a db migrate` before deploying.
   */
  migrate?: boolean;
  /**
   * Whether several instances use this database at once (default true). Then tasks left unfinished are
   * not failed at start (they may be running on another instance). Set false for a single instance to
   * have them failed (or resumed) at start, as with the SQLite store.
   */
  shared?: boolean;
  /**
   * Finished tasks kept in this process (they never change) so GetTask on them costs no round trip;
   * default 1000, 0 for none.
   */
  cacheFinished?: number;
  /** Options of the `pg.Pool` built from the URL (size, timeouts…); ignored when a pool is given. */
  pool?: Omit<PoolConfig, 'connectionString'>;
  /** Told of errors of idle pooled connections (the database restarted…); the next query reconnects. */
  onError?: (err: Error) => void;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The schema name, checked: it is spliced into SQL text. */
export function schemaName(options: PostgresStoreOptions): string {
  const schema = options.schema ?? 'public';
  if (!NAME.test(schema))
    throw new TypeError(
      `PostgreSQL schema name must be a plain identifier (letters, digits, _): ${JSON.stringify(schema)}`,
    );
  return schema;
}

/** Socket errors, and PostgreSQL's admin shutdown / starting up / connection failure classes. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|not queryable/i;

/** Whether the error says the database is out of reach (down, restarting, too many connections). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] } | undefined;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
  if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true;
  return typeof e.message === 'string' && CONNECTION_TEXT.test(e.message);
}

/** A connection failure as `Unavailable` naming the (masked) URL; anything else unchanged. */
export function translate(err: unknown, where: string): unknown {
  if (err instanceof A2AError || !isConnectionError(err)) return err;
  const why =
    (err as Error).message || String((err as { code?: string }).code ?? 'connection failed');
  return new A2AError(
    'Unavailable',
    `The task database (PostgreSQL at ${where}) is unavailable: ${why}`,
    [],
    { cause: err },
  );
}
