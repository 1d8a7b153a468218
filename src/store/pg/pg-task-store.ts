/**
 * The TaskStore several daemons share: the `tasks` table in PostgreSQL.
 * Every write is one statement (autocommit), committed when its promise
 * resolves, so a CreateTaskResult still follows its row. Status writes are
 * fenced in SQL like SQLite's; a group of terminal writes is one UPDATE over
 * an unnest of arrays (one round trip, one commit). BIGINT columns come back
 * as strings from node-postgres and are read with Number (epoch ms fit).
 */
import type pg from 'pg';
import { MoorError } from '../../errors.js';
import { RUNNING, type TaskRow, taskFromRow, terminalColumns } from '../task-row.js';
import {
  type NewTask,
  newTaskRecord,
  type TaskError,
  type TaskFinish,
  type TaskRecord,
  type TaskStore,
  type TerminalPayload,
  type TerminalStatus,
} from '../task-store.js';

const NOT_EXPIRED = '(terminal_at IS NULL OR terminal_at + retention_ms > $NOW)';

const FINISH_MANY = `UPDATE tasks AS t SET status = v.status,
    status_message = CASE WHEN v.keep THEN t.status_message ELSE v.message END,
    result_json = v.result, error_json = v.error, input_requests_json = NULL,
    terminal_at = $7, last_updated_at = $7
  FROM unnest($1::text[], $2::text[], $3::bool[], $4::text[], $5::text[], $6::text[])
    AS v(id, status, keep, message, result, error)
  WHERE t.id = v.id AND t.${RUNNING}
  RETURNING t.id`;

export class PgTaskStore implements TaskStore {
  readonly shared = true;
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    await this.#insert(task).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505')
        throw new MoorError('TASK_EXISTS', `task ${task.id} already exists`);
      throw error;
    });
    return newTaskRecord(task);
  }

  #insert(task: NewTask): Promise<unknown> {
    return this.#pool.query(
      `INSERT INTO tasks (id, owner_key, tool, status, status_message, created_at, last_updated_at,
        retention_ms, poll_interval_ms, lease_owner, lease_expires_at)
       VALUES ($1, $2, $3, 'working', $4, $5, $5, $6, $7, $8, $9)`,
      [
        task.id,
        task.ownerKey,
        task.tool,
        task.statusMessage ?? null,
        task.createdAt,
        task.retentionMs,
        task.pollIntervalMs,
        task.leaseOwner,
        task.leaseExpiresAt,
      ],
    );
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    if (!storable(id)) return undefined;
    const { rows } = await this.#pool.query<TaskRow>(
      `SELECT * FROM tasks WHERE id = $1 AND ${NOT_EXPIRED.replace('$NOW', '$2')}`,
      [id, now],
    );
    return rows[0] === undefined ? undefined : taskFromRow(rows[0]);
  }

  async list(ownerKey: string | undefined, now: number): Promise<TaskRecord[]> {
    if (ownerKey !== undefined && !storable(ownerKey)) return [];
    const { rows } =
      ownerKey === undefined
        ? await this.#pool.query<TaskRow>(
            `SELECT * FROM tasks WHERE ${NOT_EXPIRED.replace('$NOW', '$1')} ORDER BY created_at DESC`,
            [now],
          )
        : await this.#pool.query<TaskRow>(
            `SELECT * FROM tasks WHERE owner_key = $1 AND ${NOT_EXPIRED.replace('$NOW', '$2')} ORDER BY created_at DESC`,
            [ownerKey, now],
          );
    return rows.map(taskFromRow);
  }

  async setWorking(id: string, statusMessage: string | null | undefined, now: number): Promise<boolean> {
    if (!storable(id)) return false;
    const result =
      statusMessage === undefined
        ? await this.#pool.query(
            `UPDATE tasks SET status = 'working', input_requests_json = NULL, last_updated_at = $2 WHERE id = $1 AND ${RUNNING}`,
            [id, now],
          )
        : await this.#pool.query(
            `UPDATE tasks SET status = 'working', status_message = $3, input_requests_json = NULL, last_updated_at = $2
             WHERE id = $1 AND ${RUNNING}`,
            [id, now, statusMessage],
          );
    return result.rowCount === 1;
  }

  async setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): Promise<boolean> {
    if (!storable(id)) return false;
    const result = await this.#pool.query(
      `UPDATE tasks SET status = 'input_required', input_requests_json = $3, last_updated_at = $2
       WHERE id = $1 AND ${RUNNING}`,
      [id, now, JSON.stringify(inputRequests)],
    );
    return result.rowCount === 1;
  }

  async finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): Promise<boolean> {
    const [applied] = await this.finishMany([{ id, status, payload }], now);
    return applied === true;
  }

  async finishMany(finishes: readonly TaskFinish[], now: number): Promise<boolean[]> {
    if (finishes.length === 0) return [];
    if (!finishes.every((f) => storable(f.id))) {
      const stored = finishes.filter((f) => storable(f.id));
      const applied = await this.finishMany(stored, now);
      return finishes.map((f) => (storable(f.id) ? (applied[stored.indexOf(f)] ?? false) : false));
    }
    const columns = finishes.map((f) => terminalColumns(f.payload));
    const { rows } = await this.#pool.query<{ id: string }>(FINISH_MANY, [
      finishes.map((f) => f.id),
      finishes.map((f) => f.status),
      columns.map((c) => c.keepMessage),
      columns.map((c) => c.statusMessage),
      columns.map((c) => c.result),
      columns.map((c) => c.error),
      now,
    ]);
    const applied = new Set(rows.map((r) => r.id));
    // An id given twice is applied once: the first entry wins, like two finish() calls in a row.
    const seen = new Set<string>();
    return finishes.map((f) => {
      const first = !seen.has(f.id);
      seen.add(f.id);
      return first && applied.has(f.id);
    });
  }

  async requestCancel(id: string, now: number): Promise<boolean> {
    if (!storable(id)) return false;
    const result = await this.#pool.query(
      `UPDATE tasks SET cancel_requested_at = COALESCE(cancel_requested_at, $2), last_updated_at = $2
       WHERE id = $1 AND ${RUNNING}`,
      [id, now],
    );
    return result.rowCount === 1;
  }

  async renewLeases(owner: string, ids: readonly string[], expiresAt: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.#pool.query<{ id: string; cancel_requested_at: string | null }>(
      `UPDATE tasks SET lease_expires_at = $3 WHERE id = ANY($1::text[]) AND lease_owner = $2 AND ${RUNNING}
       RETURNING id, cancel_requested_at`,
      [ids, owner, expiresAt],
    );
    return rows.filter((r) => r.cancel_requested_at !== null).map((r) => r.id);
  }

  async interruptExpired(owner: string, expiredBy: number, error: TaskError, now: number): Promise<string[]> {
    const { rows } = await this.#pool.query<{ id: string }>(
      `UPDATE tasks SET status = 'failed', status_message = $3, error_json = $4, input_requests_json = NULL,
        terminal_at = $5, last_updated_at = $5
       WHERE ${RUNNING} AND lease_owner <> $1 AND lease_expires_at <= $2
       RETURNING id`,
      [owner, expiredBy, error.message, JSON.stringify(error), now],
    );
    return rows.map((r) => r.id);
  }

  async changedSince(since: number, now: number): Promise<TaskRecord[]> {
    const { rows } = await this.#pool.query<TaskRow>(
      `SELECT * FROM tasks WHERE last_updated_at > $1 AND ${NOT_EXPIRED.replace('$NOW', '$2')} ORDER BY last_updated_at`,
      [since, now],
    );
    return rows.map(taskFromRow);
  }

  async sweep(now: number): Promise<number> {
    const result = await this.#pool.query(
      'DELETE FROM tasks WHERE terminal_at IS NOT NULL AND terminal_at + retention_ms <= $1',
      [now],
    );
    return result.rowCount ?? 0;
  }

  /** The pool belongs to whoever opened it (src/store/open.ts); nothing to release here. */
  async close(): Promise<void> {}
}

/**
 * PostgreSQL text cannot hold U+0000 (the query fails with "invalid byte
 * sequence"), so no stored task has such an id: answer as for any unknown
 * one instead of sending the server a query it refuses.
 */
function storable(text: string): boolean {
  return !text.includes('\u0000');
}
