/**
 * Store selection (`--store URL`, `$MOOR_STORE`): the SQLite file in the
 * state dir by default, or PostgreSQL for `postgres://…` / `postgresql://…`
 * (several daemons sharing tasks and session bindings). A `schema` query
 * parameter in a PostgreSQL URL puts moor's tables in that schema.
 * PostgreSQL is loaded only when asked for.
 */
import path from 'node:path';
import type pg from 'pg';
import { MoorError } from '../errors.js';
import type { OpenStoreOptions } from './open-store.js';
import type { ClusterKeys } from './pg/cluster-secret.js';
import type { PgConnectOptions } from './pg/pool.js';
import type { SessionStore } from './session-store.js';
import type { TaskStore } from './task-store.js';

export type StoreKind = 'sqlite' | 'postgres';

export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connect: PgConnectOptions };

export interface Stores {
  readonly kind: StoreKind;
  readonly tasks: TaskStore;
  readonly sessions: SessionStore;
  /**
   * PostgreSQL only: the shared pool, how to connect again (the event bus listens on its own
   * connection), and the keys derived from the secret every daemon of the cluster reads.
   */
  readonly postgres?:
    | { readonly pool: pg.Pool; readonly connect: PgConnectOptions; readonly keys: ClusterKeys }
    | undefined;
  close(): Promise<void>;
}

/** Reads `--store` (or $MOOR_STORE); undefined or empty means the SQLite file `defaultFile`. */
export function parseStoreUrl(url: string | undefined, defaultFile: string): StoreLocation {
  if (url === undefined || url === '') return { kind: 'sqlite', file: defaultFile };
  if (/^postgres(ql)?:\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new MoorError('USAGE', '--store: not a valid postgres:// URL');
    }
    const schema = parsed.searchParams.get('schema') ?? undefined;
    parsed.searchParams.delete('schema');
    return { kind: 'postgres', connect: { url: parsed.toString(), schema } };
  }
  const file = url.replace(/^sqlite:(\/\/)?/i, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file) || !path.isAbsolute(file))
    throw new MoorError(
      'USAGE',
      `--store expects postgres://…, postgresql://…, sqlite:/absolute/file or an absolute file path; got ${url.replace(/\/\/[^@/]*@/, '//…@')}`,
    );
  return { kind: 'sqlite', file };
}

/**
 * `sqlite`: how a SQLite file that is no database is treated (refused, or moved aside with
 * `resetStore`); PostgreSQL has no such file.
 */
export async function openStores(
  location: StoreLocation,
  applicationName = 'moor',
  sqlite: Omit<OpenStoreOptions, 'file'> = {},
): Promise<Stores> {
  if (location.kind === 'sqlite') {
    const { openTaskStore } = await import('./open-store.js');
    const { SqliteSessionStore } = await import('./sqlite-session-store.js');
    const tasks = openTaskStore({ file: location.file, ...sqlite });
    const sessions = new SqliteSessionStore({ db: tasks.db });
    return {
      kind: 'sqlite',
      tasks,
      sessions,
      close: async () => {
        sessions.close();
        await tasks.close();
      },
    };
  }
  const { openPgPool } = await import('./pg/pool.js');
  const { migratePg } = await import('./pg/migrate.js');
  const { PgTaskStore } = await import('./pg/pg-task-store.js');
  const { PgSessionStore } = await import('./pg/pg-session-store.js');
  const connect = { ...location.connect, applicationName };
  const { clusterKeys, readClusterSecret } = await import('./pg/cluster-secret.js');
  const pool = await openPgPool(connect);
  let keys: ClusterKeys;
  try {
    await migratePg(pool);
    keys = clusterKeys(await readClusterSecret(pool));
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    kind: 'postgres',
    tasks: new PgTaskStore(pool),
    sessions: new PgSessionStore(pool),
    postgres: { pool, connect, keys },
    close: () => pool.end(),
  };
}
