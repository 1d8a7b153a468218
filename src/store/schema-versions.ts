/**
 * What both dialects' migrators decide the same way: which migrations are
 * still to run, in version order, and whether the schema was written by a
 * newer moor (a version this one does not know), which is refused rather
 * than guessed at.
 */
import { MoorError } from '../errors.js';

interface Versioned {
  readonly version: number;
}

export function pendingMigrations<M extends Versioned>(
  migrations: readonly M[],
  applied: ReadonlySet<number>,
): M[] {
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new MoorError(
      'STORE_SCHEMA_NEWER',
      `the database has schema version(s) ${unknown.join(', ')} that this moor does not know; it was written by a newer moor`,
    );
  }
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
}
