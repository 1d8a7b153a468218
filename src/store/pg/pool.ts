/**
 * The PostgreSQL connection pool the stores of one daemon share. A `schema`
 * puts every table in that schema (created when missing) through the
 * connections' search_path: tests give each run its own, and a deployment
 * may keep moor's tables apart from others in one database.
 */
import pg from 'pg';
import { MoorError } from '../../errors.js';

export interface PgConnectOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://…`). */
  readonly url: string;
  /** Schema for moor's tables; default the connection's search_path (usually `public`). */
  readonly schema?: string | undefined;
  /** Pool size (default 10). */
  readonly max?: number | undefined;
  /** Shown in pg_stat_activity. */
  readonly applicationName?: string | undefined;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The client configuration every connection of this store uses (the bus's listener too). */
export function pgClientConfig(options: PgConnectOptions): pg.ClientConfig {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema))
    throw new MoorError(
      'USAGE',
      `a PostgreSQL schema name is lower case letters, digits and _; got ${options.schema}`,
    );
  return {
    connectionString: options.url,
    application_name: options.applicationName ?? 'moor',
    ...(options.schema !== undefined ? { options: `-c search_path=${options.schema}` } : {}),
  };
}

/** A pool whose schema exists; fails with STORE_UNAVAILABLE when the server cannot be reached. */
export async function openPgPool(options: PgConnectOptions): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...pgClientConfig(options), max: options.max ?? 10 });
  // An idle connection the server drops must not crash the daemon; the pool replaces it.
  pool.on('error', () => {});
  // Nor one checked out (a transaction's): the driver emits the drop as an 'error' event besides
  // failing the query, and with no listener that event is an uncaught exception. The query's
  // rejection is what its caller handles; the pool discards the broken connection on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new MoorError('STORE_UNAVAILABLE', `cannot reach PostgreSQL: ${(error as Error).message}`);
  }
  answerOutagesInRegistryWords(pool);
  if (options.schema !== undefined) {
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    } catch (error) {
      // Daemons starting together race on IF NOT EXISTS: the loser sees a unique violation, the schema exists.
      const code = (error as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') {
        await pool.end().catch(() => {});
        throw error;
      }
    }
  }
  return pool;
}

/** SQLSTATE classes of a server gone or going: connection exceptions, operator intervention, shutdown. */
const OUTAGE_SQLSTATE = /^(08|57P0[1-4])/;
const OUTAGE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** Whether `error` says the server could not be reached (rather than that it refused this query). */
export function isStoreOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (OUTAGE_SQLSTATE.test(code) || OUTAGE_ERRNO.has(code))) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /^Connection terminated|timeout exceeded when trying to connect/.test(message)
  );
}

export const STORE_UNAVAILABLE_MESSAGE =
  'The task and session store (PostgreSQL) cannot be reached; nothing was done. Try again shortly.';

/**
 * A query the pool could not deliver fails as STORE_UNAVAILABLE with
 * `executed: false`, in moor's words: the driver's text names the host and
 * port, which a client has no business learning, and says nothing about
 * whether to retry. Other query errors are the store's own bugs and stay as
 * they are (logged, answered generically).
 */
function answerOutagesInRegistryWords(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args) => {
    try {
      return await query(...args);
    } catch (error) {
      throw inRegistryWords(error);
    }
  };
}

/** An outage as STORE_UNAVAILABLE; any other error as it is. Also for a checked-out connection's queries. */
export function inRegistryWords(error: unknown): unknown {
  return isStoreOutage(error)
    ? new MoorError('STORE_UNAVAILABLE', STORE_UNAVAILABLE_MESSAGE, { executed: false })
    : error;
}
