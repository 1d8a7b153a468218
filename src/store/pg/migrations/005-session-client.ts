/**
 * 005: which client a session is, as in the SQLite store: the name and
 * version from its handshake, NULL for sessions stored before.
 */
import type { PgMigration } from '../migration.js';

export const sessionClient: PgMigration = {
  version: 5,
  name: 'session-client',
  sql: `
    ALTER TABLE sessions ADD COLUMN client_name TEXT;
    ALTER TABLE sessions ADD COLUMN client_version TEXT;
  `,
};
