/**
 * 001: durable tasks (the io.modelcontextprotocol/tasks extension). Times are
 * epoch milliseconds; result / error / input requests are JSON text.
 */
import type { Migration } from '../migration.js';

export const tasksTable: Migration = {
  version: 1,
  name: 'tasks',
  up(db) {
    db.exec(`
      CREATE TABLE tasks (
        id              TEXT PRIMARY KEY,
        owner_key       TEXT NOT NULL,
        tool            TEXT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('working','input_required','completed','failed','cancelled')),
        status_message  TEXT,
        created_at      INTEGER NOT NULL,
        last_updated_at INTEGER NOT NULL,
        terminal_at     INTEGER,
        retention_ms    INTEGER NOT NULL,
        poll_interval_ms INTEGER NOT NULL,
        result_json     TEXT,
        error_json      TEXT,
        input_requests_json TEXT,
        incarnation     TEXT NOT NULL
      );
      CREATE INDEX tasks_owner ON tasks (owner_key, created_at);
      CREATE INDEX tasks_running ON tasks (status) WHERE status IN ('working','input_required');
      CREATE INDEX tasks_expiry ON tasks (terminal_at) WHERE terminal_at IS NOT NULL;
    `);
  },
};
