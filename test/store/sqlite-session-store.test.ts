/**
 * The SQLite session store beyond the contract every store keeps
 * (test/store/contract): durability across reopen, its shared-connection
 * mode and migration 002.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { emptySessionRecord, type SessionRecord } from '../../src/store/session-store.js';
import { SqliteSessionStore } from '../../src/store/sqlite-session-store.js';
import { SqliteTaskStore } from '../../src/store/sqlite-task-store.js';

const dirs: string[] = [];
function tempDb(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-sessions-'));
  dirs.push(dir);
  return path.join(dir, 'moor.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function binding(root: string, generation: number, decisions: string | null = null) {
  return { root, decisions, generation, lastUsedAt: 100 + generation, decisionCount: 3, problems: 0 };
}

function record(key: string, lastUsedAt = 1000): SessionRecord {
  return {
    ...emptySessionRecord(key, 50),
    active: binding('/a', 3),
    parked: [binding('/b', 2, '/b/adr'), { ...binding('/c', 1), decisionCount: null, problems: null }],
    lastDrop: { reason: 'switched', root: '/b', decisions: '/b/adr', at: 900, rejoinTarget: '/b' },
    generation: 3,
    lastUsedAt,
  };
}

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
