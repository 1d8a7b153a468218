/**
 * 003: task ownership by lease. The daemon running a task renews
 * `lease_expires_at` while the work goes on (the column `incarnation` becomes
 * `lease_owner`); a client's cancellation request is recorded in the row so
 * that it reaches the running daemon even when a message between daemons is
 * lost. Rows from before have an expired lease (0): the next daemon fails
 * them "interrupted", as it always did.
 */
import type { Migration } from '../migration.js';

export const taskLeases: Migration = {
  version: 3,
  name: 'task-leases',
  up(db) {
    db.exec(`
      ALTER TABLE tasks RENAME COLUMN incarnation TO lease_owner;
      ALTER TABLE tasks ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE tasks ADD COLUMN cancel_requested_at INTEGER;
      CREATE INDEX tasks_updated ON tasks (last_updated_at);
    `);
  },
};
