/**
 * One step of the PostgreSQL schema's history: SQL run in one transaction
 * with its `schema_migrations` row. The PostgreSQL history is its own (it
 * starts where the SQLite one has got to, leases included); versions are
 * never reused once shipped.
 */
export interface PgMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
