/**
 * The stores the contract suite runs against: memory, SQLite (a temporary
 * file) and PostgreSQL (a fresh schema per store, on a real server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemorySessionStore } from '../../../src/store/memory-session-store.js';
import { MemoryTaskStore } from '../../../src/store/memory-task-store.js';
import { openStores, type Stores } from '../../../src/store/open.js';
import type { SessionStore } from '../../../src/store/session-store.js';
import { SqliteSessionStore } from '../../../src/store/sqlite-session-store.js';
import { SqliteTaskStore } from '../../../src/store/sqlite-task-store.js';
import type { TaskStore } from '../../../src/store/task-store.js';
import { dropSchemas, freshSchema, pgUrl } from '../../helpers/pg.js';

const dirs: string[] = [];
const opened: Stores[] = [];

export function tempDb(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-store-'));
  dirs.push(dir);
  return path.join(dir, 'moor.db');
}

/** A PostgreSQL store set in a fresh schema, closed by cleanUp(). */
export async function openPg(): Promise<Stores> {
  const url = pgUrl();
  if (url === null) throw new Error('no PostgreSQL server');
  const stores = await openStores({ kind: 'postgres', connect: { url, schema: freshSchema() } });
  opened.push(stores);
  return stores;
}

export async function cleanUp(): Promise<void> {
  for (const stores of opened.splice(0)) await stores.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function cleanUpAll(): Promise<void> {
  await cleanUp();
  await dropSchemas();
}

const withPg = pgUrl() !== null;

export const TASK_STORES: Array<[string, () => Promise<TaskStore>]> = [
  ['memory', async () => new MemoryTaskStore()],
  ['sqlite', async () => new SqliteTaskStore({ file: tempDb() })],
  ...(withPg ? [['postgres', async () => (await openPg()).tasks] as [string, () => Promise<TaskStore>]] : []),
];

export const SESSION_STORES: Array<[string, () => Promise<SessionStore>]> = [
  ['memory', async () => new MemorySessionStore()],
  ['sqlite', async () => new SqliteSessionStore({ file: tempDb() })],
  ...(withPg
    ? [['postgres', async () => (await openPg()).sessions] as [string, () => Promise<SessionStore>]]
    : []),
];
