/**
 * Opens a SQLite database file the way both SQLite stores want it: its
 * directory created 0700 and the file itself created 0600 before
 * better-sqlite3 opens it (which would otherwise create it with the umask's
 * mode). ':memory:' is passed through for tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export function openSqliteFile(file: string): Database.Database {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  return new Database(file);
}
