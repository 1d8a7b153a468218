/**
 * Applies pending PostgreSQL migrations under a session advisory lock, so
 * that daemons starting together apply each one exactly once: the first
 * takes the lock and migrates, the others wait on it and then find nothing
 * left to do. Each migration runs in its own transaction with its
 * `schema_migrations` row. A schema with a version this moor does not know
 * was written by a newer one and is refused.
 */
import type pg from 'pg';
import { pendingMigrations } from '../schema-versions.js';
import type { PgMigration } from './migration.js';
import { PG_MIGRATIONS } from './migrations/index.js';

/** The advisory lock's key: one per schema, so that two schemas in a database migrate independently. */
const LOCK_KEY = "hashtext('moor-migrate:' || current_schema())";

export async function migratePg(
  pool: pg.Pool,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      const ran: number[] = [];
      for (const migration of pendingMigrations(migrations, applied)) {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        ran.push(migration.version);
      }
      return ran;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
    }
  } finally {
    client.release();
  }
}
