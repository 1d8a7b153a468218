/**
 * The daemon's durable TaskStore: one SQLite file in the state dir
 * (better-sqlite3, WAL, busy_timeout), versioned migrations. Writes are
 * synchronous: when create() returns, the row is committed, so a
 * CreateTaskResult is only ever sent for a task a tasks/get will find —
 * also after `kill -9` (WAL with synchronous=NORMAL survives a process
 * crash; only an OS crash may lose the last commits).
 *
 * Status writes are fenced in SQL (`… WHERE id = ? AND status IN
 * ('working','input_required')`): a terminal status never changes, whoever
 * writes second.
 */
import type Database from 'better-sqlite3';
import { MoorError } from '../errors.js';
import { migrate } from './migrate.js';
import { openSqliteFile } from './sqlite-file.js';
import { RUNNING, type TaskRow, taskFromRow, terminalColumns } from './task-row.js';
import {
  type NewTask,
  newTaskRecord,
  type TaskError,
  type TaskFinish,
  type TaskRecord,
  type TaskStore,
  type TerminalPayload,
  type TerminalStatus,
} from './task-store.js';

const NOT_EXPIRED = '(terminal_at IS NULL OR terminal_at + retention_ms > ?)';

export interface SqliteTaskStoreOptions {
  /** Database file; created 0600 with its directory. ':memory:' for tests. */
  readonly file: string;
  readonly busyTimeoutMs?: number;
}

export class SqliteTaskStore implements TaskStore {
  readonly shared = false;
  readonly db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #listAll: Database.Statement;
  readonly #listOwner: Database.Statement;
  readonly #setWorking: Database.Statement;
  readonly #setWorkingKeepMessage: Database.Statement;
  readonly #setInput: Database.Statement;
  readonly #finish: Database.Statement;
  readonly #requestCancel: Database.Statement;
  readonly #renew: Database.Statement;
  readonly #expired: Database.Statement;
  readonly #changedSince: Database.Statement;
  readonly #sweep: Database.Statement;
  readonly #finishMany: (finishes: readonly TaskFinish[], now: number) => boolean[];

  constructor(options: SqliteTaskStoreOptions) {
    this.db = openSqliteFile(options.file);
    try {
      this.#configure(options);
    } catch (error) {
      // A file that is no database (or a newer one) must not stay open: the caller may move it aside.
      this.db.close();
      throw error;
    }
    const db = this.db;
    this.#insert = db.prepare(`INSERT INTO tasks
      (id, owner_key, tool, status, status_message, created_at, last_updated_at, retention_ms, poll_interval_ms,
       lease_owner, lease_expires_at)
      VALUES (@id, @ownerKey, @tool, 'working', @statusMessage, @createdAt, @createdAt, @retentionMs, @pollIntervalMs,
       @leaseOwner, @leaseExpiresAt)`);
    this.#get = db.prepare(`SELECT * FROM tasks WHERE id = ? AND ${NOT_EXPIRED}`);
    this.#listAll = db.prepare(`SELECT * FROM tasks WHERE ${NOT_EXPIRED} ORDER BY created_at DESC`);
    this.#listOwner = db.prepare(
      `SELECT * FROM tasks WHERE owner_key = ? AND ${NOT_EXPIRED} ORDER BY created_at DESC`,
    );
    this.#setWorking = db.prepare(
      `UPDATE tasks SET status = 'working', status_message = ?, input_requests_json = NULL, last_updated_at = ? WHERE id = ? AND ${RUNNING}`,
    );
    this.#setWorkingKeepMessage = db.prepare(
      `UPDATE tasks SET status = 'working', input_requests_json = NULL, last_updated_at = ? WHERE id = ? AND ${RUNNING}`,
    );
    this.#setInput = db.prepare(
      `UPDATE tasks SET status = 'input_required', input_requests_json = ?, last_updated_at = ? WHERE id = ? AND ${RUNNING}`,
    );
    this.#finish = db.prepare(`UPDATE tasks SET status = @status,
      status_message = CASE WHEN @keepMessage = 1 THEN status_message ELSE @statusMessage END,
      result_json = @result, error_json = @error, input_requests_json = NULL,
      terminal_at = @now, last_updated_at = @now WHERE id = @id AND ${RUNNING}`);
    this.#requestCancel = db.prepare(
      `UPDATE tasks SET cancel_requested_at = COALESCE(cancel_requested_at, @now), last_updated_at = @now
       WHERE id = @id AND ${RUNNING}`,
    );
    this.#renew = db.prepare(
      `UPDATE tasks SET lease_expires_at = @expiresAt WHERE id = @id AND lease_owner = @owner AND ${RUNNING}
       RETURNING cancel_requested_at`,
    );
    this.#expired = db.prepare(
      `SELECT id FROM tasks WHERE ${RUNNING} AND lease_owner != @owner AND lease_expires_at <= @expiredBy`,
    );
    this.#changedSince = db.prepare(
      `SELECT * FROM tasks WHERE last_updated_at > ? AND ${NOT_EXPIRED} ORDER BY last_updated_at`,
    );
    this.#sweep = db.prepare(
      'DELETE FROM tasks WHERE terminal_at IS NOT NULL AND terminal_at + retention_ms <= ?',
    );
    this.#finishMany = db.transaction((finishes: readonly TaskFinish[], now: number) =>
      finishes.map((f) => this.#finishNow(f.id, f.status, f.payload, now)),
    );
  }

  async create(task: NewTask): Promise<TaskRecord> {
    try {
      this.#insertRow(task);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
        throw new MoorError('TASK_EXISTS', `task ${task.id} already exists`);
      throw error;
    }
    return newTaskRecord(task);
  }

  #insertRow(task: NewTask): void {
    this.#insert.run({
      id: task.id,
      ownerKey: task.ownerKey,
      tool: task.tool,
      statusMessage: task.statusMessage ?? null,
      createdAt: task.createdAt,
      retentionMs: task.retentionMs,
      pollIntervalMs: task.pollIntervalMs,
      leaseOwner: task.leaseOwner,
      leaseExpiresAt: task.leaseExpiresAt,
    });
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    const row = this.#get.get(id, now) as TaskRow | undefined;
    return row === undefined ? undefined : taskFromRow(row);
  }

  async list(ownerKey: string | undefined, now: number): Promise<TaskRecord[]> {
    const rows = (
      ownerKey === undefined ? this.#listAll.all(now) : this.#listOwner.all(ownerKey, now)
    ) as TaskRow[];
    return rows.map(taskFromRow);
  }

  async setWorking(id: string, statusMessage: string | null | undefined, now: number): Promise<boolean> {
    const info =
      statusMessage === undefined
        ? this.#setWorkingKeepMessage.run(now, id)
        : this.#setWorking.run(statusMessage, now, id);
    return info.changes === 1;
  }

  async setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): Promise<boolean> {
    return this.#setInput.run(JSON.stringify(inputRequests), now, id).changes === 1;
  }

  async finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): Promise<boolean> {
    return this.#finishNow(id, status, payload, now);
  }

  async finishMany(finishes: readonly TaskFinish[], now: number): Promise<boolean[]> {
    return finishes.length === 0 ? [] : this.#finishMany(finishes, now);
  }

  #finishNow(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): boolean {
    const columns = terminalColumns(payload);
    const info = this.#finish.run({ ...columns, id, status, keepMessage: columns.keepMessage ? 1 : 0, now });
    return info.changes === 1;
  }

  async requestCancel(id: string, now: number): Promise<boolean> {
    return this.#requestCancel.run({ id, now }).changes === 1;
  }

  async renewLeases(owner: string, ids: readonly string[], expiresAt: number): Promise<string[]> {
    const cancelled: string[] = [];
    for (const id of ids) {
      const row = this.#renew.get({ id, owner, expiresAt }) as
        | { cancel_requested_at: number | null }
        | undefined;
      if (row !== undefined && row.cancel_requested_at !== null) cancelled.push(id);
    }
    return cancelled;
  }

  async interruptExpired(owner: string, expiredBy: number, error: TaskError, now: number): Promise<string[]> {
    const ids = (this.#expired.all({ owner, expiredBy }) as Array<{ id: string }>).map((r) => r.id);
    const finishes = ids.map((id) => ({
      id,
      status: 'failed' as const,
      payload: { error, statusMessage: error.message },
    }));
    const applied = await this.finishMany(finishes, now);
    return ids.filter((_, i) => applied[i]);
  }

  async changedSince(since: number, now: number): Promise<TaskRecord[]> {
    return (this.#changedSince.all(since, now) as TaskRow[]).map(taskFromRow);
  }

  async sweep(now: number): Promise<number> {
    return this.#sweep.run(now).changes;
  }

  #configure(options: SqliteTaskStoreOptions): void {
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Checkpoints are what fsync in WAL mode: every 10,000 pages (~40 MB of WAL) rather than the
    // default 1,000 keeps them off most commits (task throughput roughly doubles); the WAL file is
    // truncated back to 64 MB after a checkpoint. Crash safety is unchanged: a commit is in the WAL.
    this.db.pragma('wal_autocheckpoint = 10000');
    this.db.pragma(`journal_size_limit = ${64 * 2 ** 20}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
