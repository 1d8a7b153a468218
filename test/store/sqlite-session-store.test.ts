/**
 * The SQLite session store beyond the contract every store keeps
 * (test/store/contract): durability across reopen, its shared-connection
 * mode and migration 002.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { SqliteSessionStore } from '../../src/store/sqlite-session-store.js';
import { SqliteTaskStore } from '../../src/store/sqlite-task-store.js';
import { cleanUp, tempDb } from './contract/stores.js';
import { sessionRecord as record } from './records.js';

afterEach(cleanUp);

describe('SqliteSessionStore', () => {
  it('keeps sessions across a reopen', async () => {
    const file = tempDb();
    const first = new SqliteSessionStore({ file });
    await first.save(record('s1'));
    first.close();
    const second = new SqliteSessionStore({ file });
    expect(await second.load('s1')).toEqual(record('s1'));
    second.close();
  });

  it('shares the task store connection and leaves it open on close', async () => {
    const tasks = new SqliteTaskStore({ file: tempDb() });
    const sessions = new SqliteSessionStore({ db: tasks.db });
    await sessions.save(record('s1'));
    sessions.close();
    expect(tasks.db.open).toBe(true);
    expect((tasks.db.prepare('SELECT count(*) AS n FROM session_bindings').get() as { n: number }).n).toBe(3);
    await tasks.close();
  });

  it('migration 002 creates the session tables after 001', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toEqual([1, 2]);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    )
      .map((t) => t.name)
      .sort();
    expect(tables).toEqual(['schema_migrations', 'session_bindings', 'sessions', 'tasks']);
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toEqual([]);
    db.close();
  });
});
