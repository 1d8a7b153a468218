/**
 * The SQLite task store beyond the contract every store keeps
 * (test/store/contract): durability across reopen, WAL, and its versioned
 * migrations, 003 (leases) included.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite-task-store.js';
import { cleanUp, tempDb } from './contract/stores.js';
import { newTaskBase } from './records.js';

afterEach(cleanUp);

const base = newTaskBase(5000);

describe('sqlite task store', () => {
  it('is durable: a reopened store reads what the last one committed', async () => {
    const file = tempDb();
    const first = new SqliteTaskStore({ file });
    await first.create({ ...base, id: 't1', createdAt: 1 });
    await first.finish('t1', 'completed', { result: { content: [{ type: 'text', text: 'x' }] } }, 2);
    await first.close();
    const second = new SqliteTaskStore({ file });
    expect(await second.get('t1', 3)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'x' }] },
    });
    await second.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('runs in WAL mode with a busy timeout', () => {
    const store = new SqliteTaskStore({ file: tempDb() });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    store.close();
  });

  it('records migrations once, and refuses a database from a newer moor', () => {
    const file = tempDb();
    new SqliteTaskStore({ file }).close();
    const db = new Database(file);
    expect(db.prepare('SELECT version, name FROM schema_migrations').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
    );
    expect(migrate(db)).toEqual([]);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, ?)').run(
      'future',
      'x',
    );
    expect(() => migrate(db)).toThrow(/newer moor/);
    db.close();
  });

  it('migration 003 turns the rows of a previous daemon into expired leases', () => {
    const db = new Database(tempDb());
    migrate(db, MIGRATIONS.slice(0, 2));
    db.prepare(
      `INSERT INTO tasks (id, owner_key, tool, status, created_at, last_updated_at, retention_ms, poll_interval_ms, incarnation)
       VALUES ('old', 'k', 'slow', 'working', 1, 1, 1000, 500, 'inc-old')`,
    ).run();
    expect(migrate(db)).toEqual([3, 4]);
    expect(db.prepare('SELECT lease_owner, lease_expires_at, cancel_requested_at FROM tasks').get()).toEqual({
      lease_owner: 'inc-old',
      lease_expires_at: 0,
      cancel_requested_at: null,
    });
    db.close();
  });
});
