/**
 * The SessionStore several daemons share: `sessions` and `session_bindings`
 * in PostgreSQL (migration 002). A save rewrites the session's binding rows
 * in one transaction on one pooled connection, so a reader on any daemon
 * sees the old record or the new one, never a mix; committed on return.
 */
import type pg from 'pg';
import {
  type BindingRow,
  bindingPositions,
  lastDropJson,
  type SessionRow,
  sessionFromRows,
} from '../session-row.js';
import type { SessionRecord, SessionStore, SessionSummary } from '../session-store.js';
import { inRegistryWords } from './pool.js';

export class PgSessionStore implements SessionStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async load(key: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.#pool.query<SessionRow & { bindings: BindingRow[] | null }>(
      `SELECT s.generation, s.created_at, s.last_used_at, s.last_drop_json, s.client_name, s.client_version,
         (SELECT json_agg(b ORDER BY b.position) FROM session_bindings b WHERE b.session_key = s.key) AS bindings
       FROM sessions s WHERE s.key = $1`,
      [key],
    );
    const session = rows[0];
    if (session === undefined) return undefined;
    return sessionFromRows(key, session, session.bindings ?? []);
  }

  async save(record: SessionRecord): Promise<void> {
    const rows = bindingPositions(record);
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw inRegistryWords(error);
    });
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO sessions
           (key, generation, created_at, last_used_at, last_drop_json, client_name, client_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (key) DO UPDATE SET generation = excluded.generation,
           last_used_at = excluded.last_used_at, last_drop_json = excluded.last_drop_json,
           client_name = excluded.client_name, client_version = excluded.client_version`,
        [
          record.key,
          record.generation,
          record.createdAt,
          record.lastUsedAt,
          lastDropJson(record),
          record.client?.name ?? null,
          record.client?.version ?? null,
        ],
      );
      await client.query('DELETE FROM session_bindings WHERE session_key = $1', [record.key]);
      if (rows.length > 0) {
        await client.query(
          `INSERT INTO session_bindings
             (session_key, position, root, decisions, generation, last_used_at, decision_count, problems)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::int[], $8::int[])`,
          [
            record.key,
            rows.map(([position]) => position),
            rows.map(([, b]) => b.root),
            rows.map(([, b]) => b.decisions ?? ''),
            rows.map(([, b]) => b.generation),
            rows.map(([, b]) => b.lastUsedAt),
            rows.map(([, b]) => b.decisionCount),
            rows.map(([, b]) => b.problems),
          ],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      // The transaction's connection is not the pool's query(): its outages need the same words.
      throw inRegistryWords(error);
    } finally {
      client.release();
    }
  }

  async touch(key: string, now: number): Promise<void> {
    await this.#pool.query('UPDATE sessions SET last_used_at = $1 WHERE key = $2', [now, key]);
  }

  async sweep(unusedSince: number): Promise<number> {
    // Bindings go with their session (ON DELETE CASCADE).
    const result = await this.#pool.query('DELETE FROM sessions WHERE last_used_at < $1', [unusedSince]);
    return result.rowCount ?? 0;
  }

  async list(): Promise<SessionSummary[]> {
    const { rows } = await this.#pool.query<{
      key: string;
      last_used_at: string;
      active: string | null;
      parked: string;
    }>(`SELECT s.key, s.last_used_at,
        (SELECT root FROM session_bindings b WHERE b.session_key = s.key AND b.position = 0) AS active,
        (SELECT count(*) FROM session_bindings b WHERE b.session_key = s.key AND b.position > 0) AS parked
      FROM sessions s ORDER BY s.last_used_at DESC, s.key COLLATE "C"`);
    return rows.map((r) => ({
      key: r.key,
      active: r.active,
      parked: Number(r.parked),
      lastUsedAt: Number(r.last_used_at),
    }));
  }

  /** The pool belongs to whoever opened it (src/store/open.ts). */
  close(): void {}
}
