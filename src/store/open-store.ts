/**
 * Opening the daemon's store file, and what to do when it is not a database.
 *
 * A corrupt store is reported, never repaired or replaced silently: the user
 * may want it back. Only when asked (`moor daemon run --reset-store`) is it
 * moved aside, with its -wal and -shm files, to `moor.db.corrupt-<time>`,
 * and a fresh store started in its place.
 */
import fs from 'node:fs';
import { MoorError } from '../errors.js';
import { SqliteTaskStore } from './sqlite-task-store.js';

/** SQLite's answers for a file that is not (or no longer) a readable database. */
const CORRUPT_CODES = new Set([
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_CORRUPT_VTAB',
  'SQLITE_CORRUPT_SEQUENCE',
]);

export function isCorruptStoreError(error: unknown): boolean {
  return CORRUPT_CODES.has((error as { code?: unknown } | undefined)?.code as string);
}

export interface OpenStoreOptions {
  readonly file: string;
  /** Move a corrupt store aside and start fresh, instead of refusing to start. */
  readonly resetStore?: boolean | undefined;
  /** Told where a corrupt store was moved. */
  readonly onReset?: (movedTo: string) => void;
  /** Clock for the moved-aside name (tests). */
  readonly now?: () => Date;
}

/** `2026-05-01T101530.123Z`: ISO 8601 without colons, which some file systems refuse. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replaceAll(':', '');
}

/** Renames the store and its -wal/-shm companions to `<file>.corrupt-<time>[-wal|-shm]`; returns the new name. */
export function moveStoreAside(file: string, now: Date = new Date()): string {
  const target = `${file}.corrupt-${fileTimestamp(now)}`;
  // The companions first: a -wal left beside a fresh moor.db would be replayed into it.
  for (const suffix of ['-wal', '-shm', '']) {
    try {
      fs.renameSync(`${file}${suffix}`, `${target}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return target;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * A non-empty file that does not start with SQLite's header. Checked before
 * SQLite opens it: on closing a file it cannot read, SQLite may delete the
 * -wal and -shm beside it, and those belong to the user until they say so.
 */
function lacksSqliteHeader(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read > 0 && !head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}

function corruptStore(file: string, reason: string): MoorError {
  return new MoorError(
    'STORE_CORRUPT',
    `the task store ${file} is not a readable SQLite database (${reason}); moor left it untouched. Restore it from a backup, or run \`moor daemon run --reset-store\` to move it aside (to ${file}.corrupt-<time>) and start with an empty store`,
    { file },
  );
}

/** Opens the store; a corrupt one throws STORE_CORRUPT (untouched) unless `resetStore` moves it aside. */
export function openTaskStore(options: OpenStoreOptions): SqliteTaskStore {
  let corruption: MoorError;
  if (lacksSqliteHeader(options.file)) {
    corruption = corruptStore(options.file, 'it does not start with the SQLite header');
  } else {
    try {
      return new SqliteTaskStore({ file: options.file });
    } catch (error) {
      if (!isCorruptStoreError(error)) throw error;
      corruption = corruptStore(options.file, (error as Error).message);
    }
  }
  if (!options.resetStore) throw corruption;
  const movedTo = moveStoreAside(options.file, options.now?.() ?? new Date());
  options.onReset?.(movedTo);
  return new SqliteTaskStore({ file: options.file });
}
