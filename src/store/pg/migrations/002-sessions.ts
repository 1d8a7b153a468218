/**
 * 002: session bindings, as in the SQLite store: one row per session, one
 * per bound workspace (position 0 active, 1.. parked, most recent first);
 * "no decisions folder" is the empty string so the key stays unique.
 */
import type { PgMigration } from '../migration.js';

export const sessionsTables: PgMigration = {
  version: 2,
  name: 'sessions',
  sql: `
    CREATE TABLE sessions (
      key            TEXT PRIMARY KEY,
      generation     BIGINT NOT NULL,
      created_at     BIGINT NOT NULL,
      last_used_at   BIGINT NOT NULL,
      last_drop_json TEXT
    );
    CREATE INDEX sessions_last_used ON sessions (last_used_at);
    CREATE TABLE session_bindings (
      session_key    TEXT NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
      position       INTEGER NOT NULL CHECK (position >= 0),
      root           TEXT NOT NULL,
      decisions      TEXT NOT NULL,
      generation     BIGINT NOT NULL,
      last_used_at   BIGINT NOT NULL,
      decision_count INTEGER,
      problems       INTEGER,
      PRIMARY KEY (session_key, position),
      UNIQUE (session_key, root, decisions)
    );
  `,
};
