/**
 * Both SessionStore implementations against one contract (whole-record
 * saves, parked order, touch, sweep, list), plus the SQLite store's
 * durability across reopen, its shared-connection mode and migration 002.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/store/memory-session-store.js';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { emptySessionRecord, type SessionRecord, type SessionStore } from '../../src/store/session-store.js';
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

const stores: Array<[string, () => SessionStore]> = [
  ['memory', () => new MemorySessionStore()],
  ['sqlite', () => new SqliteSessionStore({ file: tempDb() })],
];

describe.each(stores)('%s session store', (_name, make) => {
  it('returns undefined for an unknown key', async () => {
    expect(await make().load('nobody')).toBeUndefined();
  });

  it('loads exactly what was saved, parked order kept', async () => {
    const store = make();
    await store.save(record('s1'));
    expect(await store.load('s1')).toEqual(record('s1'));
  });

  it('a save replaces the whole record: bindings that left are gone', async () => {
    const store = make();
    await store.save(record('s1'));
    await store.save({
      ...record('s1'),
      active: null,
      parked: [binding('/c', 1)],
      lastDrop: null,
      generation: 4,
    });
    const loaded = await store.load('s1');
    expect(loaded?.active).toBeNull();
    expect(loaded?.parked.map((b) => b.root)).toEqual(['/c']);
    expect(loaded?.lastDrop).toBeNull();
    expect(loaded?.generation).toBe(4);
    expect(loaded?.createdAt).toBe(50);
  });

  it('touch moves lastUsedAt; unknown keys are ignored', async () => {
    const store = make();
    await store.save(record('s1'));
    await store.touch('s1', 5000);
    await store.touch('nobody', 5000);
    expect((await store.load('s1'))?.lastUsedAt).toBe(5000);
    expect(await store.load('nobody')).toBeUndefined();
  });

  it('sweeps sessions unused since the cut-off, bindings included', async () => {
    const store = make();
    await store.save(record('old', 100));
    await store.save(record('edge', 200));
    await store.save(record('new', 300));
    expect(await store.sweep(200)).toBe(1);
    expect(await store.load('old')).toBeUndefined();
    expect((await store.load('edge'))?.active?.root).toBe('/a');
    expect((await store.list()).map((s) => s.key)).toEqual(['new', 'edge']);
  });

  it('lists sessions most recently used first with their active root and parked count', async () => {
    const store = make();
    await store.save(record('s1', 100));
    await store.save({ ...emptySessionRecord('s2', 10), lastUsedAt: 200 });
    expect(await store.list()).toEqual([
      { key: 's2', active: null, parked: 0, lastUsedAt: 200 },
      { key: 's1', active: '/a', parked: 2, lastUsedAt: 100 },
    ]);
  });
});

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
    tasks.close();
  });

  it('migration 002 creates the session tables after 001', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS)).toEqual([1, 2]);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    )
      .map((t) => t.name)
      .sort();
    expect(tables).toEqual(['schema_migrations', 'session_bindings', 'sessions', 'tasks']);
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    db.close();
  });
});
