/**
 * Both TaskStore implementations against the same contract: fenced status
 * writes, retention and ttl, interruption of a previous incarnation's tasks,
 * the sweeper; plus the SQLite store's durability across reopen and its
 * versioned migrations.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTaskStore } from '../../src/store/memory-task-store.js';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite-task-store.js';
import { type TaskStore, ttlMsOf } from '../../src/store/task-store.js';

function defined<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('expected a stored task');
  return value;
}

const dirs: string[] = [];
function tempDb(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-store-'));
  dirs.push(dir);
  return path.join(dir, 'moor.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const base = {
  ownerKey: 'owner-key-1',
  tool: 'slow',
  retentionMs: 1000,
  pollIntervalMs: 500,
  incarnation: 'inc-a',
};

const stores: Array<[string, () => TaskStore]> = [
  ['memory', () => new MemoryTaskStore()],
  ['sqlite', () => new SqliteTaskStore({ file: tempDb() })],
];

describe.each(stores)('%s task store', (_name, make) => {
  it('creates a working task that get and list find', () => {
    const store = make();
    const task = store.create({ ...base, id: 't1', createdAt: 100 });
    expect(task.status).toBe('working');
    expect(store.get('t1', 100)).toMatchObject({ id: 't1', status: 'working', ownerKey: 'owner-key-1' });
    expect(store.list('owner-key-1', 100).map((t) => t.id)).toEqual(['t1']);
    expect(store.list('someone-else', 100)).toEqual([]);
    expect(ttlMsOf(defined(store.get('t1', 100)))).toBeNull();
    store.close();
  });

  it('fences terminal statuses: the first finish wins, later writes change nothing', () => {
    const store = make();
    store.create({ ...base, id: 't1', createdAt: 100 });
    expect(store.setInputRequired('t1', { a: { method: 'elicitation/create' } }, 110)).toBe(true);
    expect(store.get('t1', 110)?.status).toBe('input_required');
    expect(store.setWorking('t1', 'halfway', 120)).toBe(true);
    expect(store.get('t1', 120)).toMatchObject({
      status: 'working',
      statusMessage: 'halfway',
      inputRequests: null,
    });
    expect(store.finish('t1', 'cancelled', { statusMessage: 'Cancelled.' }, 130)).toBe(true);
    expect(store.finish('t1', 'completed', { result: { content: [] } }, 140)).toBe(false);
    expect(store.setWorking('t1', 'late', 150)).toBe(false);
    expect(store.setInputRequired('t1', {}, 150)).toBe(false);
    const done = defined(store.get('t1', 150));
    expect(done).toMatchObject({
      status: 'cancelled',
      statusMessage: 'Cancelled.',
      result: null,
      terminalAt: 130,
    });
    expect(ttlMsOf(done)).toBe(130 + 1000 - 100);
    store.close();
  });

  it('keeps results and errors as JSON', () => {
    const store = make();
    store.create({ ...base, id: 'ok', createdAt: 1 });
    store.create({ ...base, id: 'bad', createdAt: 2 });
    const result = { content: [{ type: 'text', text: 'é' }], isError: true };
    store.finish('ok', 'completed', { result }, 3);
    store.finish('bad', 'failed', { error: { code: -32603, message: 'no', data: { x: 1 } } }, 4);
    expect(store.get('ok', 5)?.result).toEqual(result);
    expect(store.get('bad', 5)?.error).toEqual({ code: -32603, message: 'no', data: { x: 1 } });
    store.close();
  });

  it('hides a finished task once its retention ends, and the sweeper deletes it', () => {
    const store = make();
    store.create({ ...base, id: 't1', createdAt: 0 });
    store.create({ ...base, id: 'running', createdAt: 0 });
    store.finish('t1', 'completed', { result: {} }, 500);
    expect(store.get('t1', 1499)?.id).toBe('t1');
    expect(store.get('t1', 1500)).toBeUndefined();
    expect(store.sweep(1499)).toBe(0);
    expect(store.sweep(1500)).toBe(1);
    expect(store.get('running', 10_000)?.status).toBe('working');
    store.close();
  });

  it('fails the running tasks of other incarnations, never its own or finished ones', () => {
    const store = make();
    store.create({ ...base, id: 'old-working', createdAt: 1, incarnation: 'old' });
    store.create({ ...base, id: 'old-input', createdAt: 1, incarnation: 'old' });
    store.setInputRequired('old-input', { k: {} }, 2);
    store.create({ ...base, id: 'old-done', createdAt: 1, incarnation: 'old' });
    store.finish('old-done', 'completed', { result: { content: [] } }, 2);
    store.create({ ...base, id: 'mine', createdAt: 1, incarnation: 'new' });
    const error = { code: -32603, message: 'Task interrupted: the daemon restarted' };
    expect(store.interruptOthers('new', error, 10)).toBe(2);
    expect(store.get('old-working', 10)).toMatchObject({
      status: 'failed',
      error,
      statusMessage: error.message,
    });
    expect(store.get('old-input', 10)).toMatchObject({ status: 'failed', inputRequests: null });
    expect(store.get('old-done', 10)?.status).toBe('completed');
    expect(store.get('mine', 10)?.status).toBe('working');
    store.close();
  });
});

describe('sqlite task store', () => {
  it('is durable: a reopened store reads what the last one committed', () => {
    const file = tempDb();
    const first = new SqliteTaskStore({ file });
    first.create({ ...base, id: 't1', createdAt: 1 });
    first.finish('t1', 'completed', { result: { content: [{ type: 'text', text: 'x' }] } }, 2);
    first.close();
    const second = new SqliteTaskStore({ file });
    expect(second.get('t1', 3)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'x' }] },
    });
    second.close();
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
});
