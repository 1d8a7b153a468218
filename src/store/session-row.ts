/**
 * `sessions` and `session_bindings` rows as the SQL stores read and write
 * them, and the mapping to and from a SessionRecord. A record's bindings are
 * rows by position: 0 is the active one, 1… the parked ones in order. BIGINT
 * columns come back as numbers from better-sqlite3 and as strings from
 * node-postgres; Number() reads both.
 */
import type { SessionDrop, SessionRecord, StoredBinding } from './session-store.js';

type Bigint = number | string;

export interface SessionRow {
  generation: Bigint;
  created_at: Bigint;
  last_used_at: Bigint;
  last_drop_json: string | null;
  client_name: string | null;
  client_version: string | null;
}

export interface BindingRow {
  position: number;
  root: string;
  decisions: string;
  generation: Bigint;
  last_used_at: Bigint;
  decision_count: number | null;
  problems: number | null;
}

/** The record's bindings with their positions, the active one (if any) first. */
export function bindingPositions(record: SessionRecord): Array<[number, StoredBinding]> {
  const rows: Array<[number, StoredBinding]> = record.parked.map((b, i) => [i + 1, b]);
  if (record.active !== null) rows.unshift([0, record.active]);
  return rows;
}

/** The `last_drop_json` column for a record. */
export function lastDropJson(record: SessionRecord): string | null {
  return record.lastDrop === null ? null : JSON.stringify(record.lastDrop);
}

export function sessionFromRows(
  key: string,
  session: SessionRow,
  bindings: readonly BindingRow[],
): SessionRecord {
  const active = bindings.find((b) => b.position === 0);
  return {
    key,
    active: active === undefined ? null : bindingFromRow(active),
    parked: bindings.filter((b) => b.position > 0).map(bindingFromRow),
    lastDrop: session.last_drop_json === null ? null : (JSON.parse(session.last_drop_json) as SessionDrop),
    generation: Number(session.generation),
    createdAt: Number(session.created_at),
    lastUsedAt: Number(session.last_used_at),
    client:
      session.client_name === null
        ? null
        : { name: session.client_name, version: session.client_version ?? '' },
  };
}

function bindingFromRow(row: BindingRow): StoredBinding {
  return {
    root: row.root,
    // The column is NOT NULL: '' stands for the workspace's own decision folder.
    decisions: row.decisions === '' ? null : row.decisions,
    generation: Number(row.generation),
    lastUsedAt: Number(row.last_used_at),
    decisionCount: row.decision_count,
    problems: row.problems,
  };
}
