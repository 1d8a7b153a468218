/**
 * 001: durable tasks, owned by lease. Times are epoch milliseconds (BIGINT);
 * result / error / input requests are JSON kept as TEXT, so that the bytes a
 * client reads back are the bytes that were written (jsonb would reorder keys).
 */
import type { PgMigration } from '../migration.js';

export const tasksTable: PgMigration = {
  version: 1,
  name: 'tasks',
  sql: `
    CREATE TABLE tasks (
      id                  TEXT PRIMARY KEY,
      owner_key           TEXT NOT NULL,
      tool                TEXT NOT NULL,
      status              TEXT NOT NULL CHECK (status IN ('working','input_required','completed','failed','cancelled')),
      status_message      TEXT,
      created_at          BIGINT NOT NULL,
      last_updated_at     BIGINT NOT NULL,
      terminal_at         BIGINT,
      retention_ms        BIGINT NOT NULL,
      poll_interval_ms    BIGINT NOT NULL,
      result_json         TEXT,
      error_json          TEXT,
      input_requests_json TEXT,
      lease_owner         TEXT NOT NULL,
      lease_expires_at    BIGINT NOT NULL,
      cancel_requested_at BIGINT
    );
    CREATE INDEX tasks_owner ON tasks (owner_key, created_at);
    CREATE INDEX tasks_running ON tasks (lease_expires_at) WHERE status IN ('working','input_required');
    CREATE INDEX tasks_expiry ON tasks (terminal_at) WHERE terminal_at IS NOT NULL;
    CREATE INDEX tasks_updated ON tasks (last_updated_at);
  `,
};
