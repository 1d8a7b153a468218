/**
 * Applies pending migrations in version order, each in its own transaction
 * with its `schema_migrations` row, so a crash leaves the schema at a
 * version boundary. A database written by a newer moor (a version we do not
 * know) is refused rather than guessed at.
 */
import type Database from 'better-sqlite3';
import type { Migration } from './migration.js';
import { MIGRATIONS } from './migrations/index.js';
import { pendingMigrations } from './schema-versions.js';

export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    ),
  );
  const ran: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of pendingMigrations(migrations, applied)) {
    db.transaction(() => {
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    ran.push(migration.version);
  }
  return ran;
}
