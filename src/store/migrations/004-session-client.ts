/**
 * 004: which client a session is. The name and version from its handshake
 * (2025 `initialize` clientInfo, or the 2026-07-28 envelope's client info),
 * kept so that an operator can attribute a session's work after a restart.
 * Sessions stored before have none (NULL).
 */
import type { Migration } from '../migration.js';

export const sessionClient: Migration = {
  version: 4,
  name: 'session-client',
  up(db) {
    db.exec(`
      ALTER TABLE sessions ADD COLUMN client_name TEXT;
      ALTER TABLE sessions ADD COLUMN client_version TEXT;
    `);
  },
};
