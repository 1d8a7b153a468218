/**
 * 003: messages between daemons too large for one NOTIFY (8000 bytes). The
 * sender writes the message here and notifies its id; receivers read it.
 * Rows are deleted after a minute: a daemon that reconnects later re-reads
 * the tables themselves, not old messages.
 */
import type { PgMigration } from '../migration.js';

export const busPayloads: PgMigration = {
  version: 3,
  name: 'bus-payloads',
  sql: `
    CREATE TABLE bus_payloads (
      id         BIGSERIAL PRIMARY KEY,
      created_at BIGINT NOT NULL,
      body       TEXT NOT NULL
    );
    CREATE INDEX bus_payloads_created ON bus_payloads (created_at);
  `,
};
