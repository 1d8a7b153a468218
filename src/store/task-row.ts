/**
 * A `tasks` row as the SQL stores read and write it, and the mapping to and
 * from a TaskRecord. Both dialects share the table's shape; they differ in
 * how BIGINT columns come back (numbers from better-sqlite3, strings from
 * node-postgres), which Number() reads alike (epoch ms fit).
 */
import type { TaskError, TaskRecord, TaskStatus, TerminalPayload } from './task-store.js';

type Bigint = number | string;

export interface TaskRow {
  id: string;
  owner_key: string;
  tool: string;
  status: TaskStatus;
  status_message: string | null;
  created_at: Bigint;
  last_updated_at: Bigint;
  terminal_at: Bigint | null;
  retention_ms: Bigint;
  poll_interval_ms: Bigint;
  result_json: string | null;
  error_json: string | null;
  input_requests_json: string | null;
  lease_owner: string;
  lease_expires_at: Bigint;
  cancel_requested_at: Bigint | null;
}

/** The fence every status write carries: a terminal status never changes, whoever writes second. */
export const RUNNING = "status IN ('working','input_required')";

/** The columns a terminal write sets; `keepMessage` leaves the status message as it was. */
export interface TerminalColumns {
  readonly keepMessage: boolean;
  readonly statusMessage: string | null;
  readonly result: string | null;
  readonly error: string | null;
}

export function terminalColumns(payload: TerminalPayload): TerminalColumns {
  return {
    keepMessage: payload.statusMessage === undefined,
    statusMessage: payload.statusMessage ?? null,
    result: payload.result === undefined ? null : JSON.stringify(payload.result),
    error: payload.error === undefined ? null : JSON.stringify(payload.error),
  };
}

function numberOrNull(value: Bigint | null): number | null {
  return value === null ? null : Number(value);
}

export function taskFromRow(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    ownerKey: row.owner_key,
    tool: row.tool,
    status: row.status,
    statusMessage: row.status_message,
    createdAt: Number(row.created_at),
    lastUpdatedAt: Number(row.last_updated_at),
    terminalAt: numberOrNull(row.terminal_at),
    retentionMs: Number(row.retention_ms),
    pollIntervalMs: Number(row.poll_interval_ms),
    result: row.result_json === null ? null : JSON.parse(row.result_json),
    error: row.error_json === null ? null : (JSON.parse(row.error_json) as TaskError),
    inputRequests:
      row.input_requests_json === null
        ? null
        : (JSON.parse(row.input_requests_json) as Record<string, unknown>),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: Number(row.lease_expires_at),
    cancelRequestedAt: numberOrNull(row.cancel_requested_at),
  };
}
