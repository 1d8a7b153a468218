/**
 * The daemon's durable SessionStore: tables in `moor.db` (migration 002).
 * It either shares the task store's connection (`db`: one file, one WAL)
 * or opens the file itself. A save deletes and rewrites the session's
 * binding rows inside one transaction, so a crash leaves the old record or
 * the new one, never a mix; when save() returns the record is committed.
 */
import type Database from 'better-sqlite3';
import { migrate } from './migrate.js';
import {
  type BindingRow,
  bindingPositions,
  lastDropJson,
  type SessionRow,
  sessionFromRows,
} from './session-row.js';
import type { SessionRecord, SessionStore, SessionSummary } from './session-store.js';
import { openSqliteFile } from './sqlite-file.js';

export type SqliteSessionStoreOptions =
  | { readonly db: Database.Database }
  | { readonly file: string; readonly busyTimeoutMs?: number };

function openFile(file: string, busyTimeoutMs: number): Database.Database {
  const db = openSqliteFile(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  return db;
}

export class SqliteSessionStore implements SessionStore {
  readonly db: Database.Database;
  readonly #ownsDb: boolean;
  readonly #getSession: Database.Statement;
  readonly #getBindings: Database.Statement;
  readonly #upsertSession: Database.Statement;
  readonly #deleteBindings: Database.Statement;
  readonly #insertBinding: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #sweepBindings: Database.Statement;
  readonly #sweep: Database.Statement;
  readonly #list: Database.Statement;
  readonly #saveAll: (record: SessionRecord) => void;

  constructor(options: SqliteSessionStoreOptions) {
    this.#ownsDb = !('db' in options);
    this.db = 'db' in options ? options.db : openFile(options.file, options.busyTimeoutMs ?? 5000);
    migrate(this.db);
    const db = this.db;
    this.#getSession = db.prepare('SELECT * FROM sessions WHERE key = ?');
    this.#getBindings = db.prepare('SELECT * FROM session_bindings WHERE session_key = ? ORDER BY position');
    this.#upsertSession = db.prepare(`INSERT INTO sessions
        (key, generation, created_at, last_used_at, last_drop_json, client_name, client_version)
      VALUES (@key, @generation, @createdAt, @lastUsedAt, @lastDrop, @clientName, @clientVersion)
      ON CONFLICT (key) DO UPDATE SET generation = excluded.generation,
        last_used_at = excluded.last_used_at, last_drop_json = excluded.last_drop_json,
        client_name = excluded.client_name, client_version = excluded.client_version`);
    this.#deleteBindings = db.prepare('DELETE FROM session_bindings WHERE session_key = ?');
    this.#insertBinding = db.prepare(`INSERT INTO session_bindings
      (session_key, position, root, decisions, generation, last_used_at, decision_count, problems)
      VALUES (@key, @position, @root, @decisions, @generation, @lastUsedAt, @decisionCount, @problems)`);
    this.#touch = db.prepare('UPDATE sessions SET last_used_at = ? WHERE key = ?');
    // Bindings are deleted explicitly too: a shared connection may not have foreign keys (cascades) on.
    this.#sweepBindings = db.prepare(
      'DELETE FROM session_bindings WHERE session_key IN (SELECT key FROM sessions WHERE last_used_at < ?)',
    );
    this.#sweep = db.prepare('DELETE FROM sessions WHERE last_used_at < ?');
    this.#list = db.prepare(`SELECT s.key, s.last_used_at,
        (SELECT root FROM session_bindings b WHERE b.session_key = s.key AND b.position = 0) AS active,
        (SELECT count(*) FROM session_bindings b WHERE b.session_key = s.key AND b.position > 0) AS parked
      FROM sessions s ORDER BY s.last_used_at DESC, s.key`);
    this.#saveAll = db.transaction((record: SessionRecord) => {
      this.#upsertSession.run({
        key: record.key,
        generation: record.generation,
        createdAt: record.createdAt,
        lastUsedAt: record.lastUsedAt,
        lastDrop: lastDropJson(record),
        clientName: record.client?.name ?? null,
        clientVersion: record.client?.version ?? null,
      });
      this.#deleteBindings.run(record.key);
      for (const [position, binding] of bindingPositions(record)) {
        this.#insertBinding.run({
          key: record.key,
          position,
          root: binding.root,
          decisions: binding.decisions ?? '',
          generation: binding.generation,
          lastUsedAt: binding.lastUsedAt,
          decisionCount: binding.decisionCount,
          problems: binding.problems,
        });
      }
    });
  }

  async load(key: string): Promise<SessionRecord | undefined> {
    const session = this.#getSession.get(key) as SessionRow | undefined;
    if (session === undefined) return undefined;
    return sessionFromRows(key, session, this.#getBindings.all(key) as BindingRow[]);
  }

  async save(record: SessionRecord): Promise<void> {
    this.#saveAll(record);
  }

  async touch(key: string, now: number): Promise<void> {
    this.#touch.run(now, key);
  }

  async sweep(unusedSince: number): Promise<number> {
    return this.db.transaction(() => {
      this.#sweepBindings.run(unusedSince);
      return this.#sweep.run(unusedSince).changes;
    })();
  }

  async list(): Promise<SessionSummary[]> {
    const rows = this.#list.all() as Array<{
      key: string;
      last_used_at: number;
      active: string | null;
      parked: number;
    }>;
    return rows.map((r) => ({ key: r.key, active: r.active, parked: r.parked, lastUsedAt: r.last_used_at }));
  }

  close(): void {
    if (this.#ownsDb && this.db.open) this.db.close();
  }
}
