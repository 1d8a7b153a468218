/**
 * 002: session bindings. One row per session (its generation, last drop and
 * when it was last used) and one row per bound workspace: position 0 is the
 * active one, 1.. the parked ones, most recently used first. A session with
 * no active workspace has no position-0 row. Times are epoch milliseconds;
 * "no decisions folder" is the empty string so the key stays unique.
 */
import type { Migration } from '../migration.js';

export const sessionsTables: Migration = {
  version: 2,
  name: 'sessions',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        key            TEXT PRIMARY KEY,
        generation     INTEGER NOT NULL,
        created_at     INTEGER NOT NULL,
        last_used_at   INTEGER NOT NULL,
        last_drop_json TEXT
      );
      CREATE INDEX sessions_last_used ON sessions (last_used_at);
      CREATE TABLE session_bindings (
        session_key    TEXT NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
        position       INTEGER NOT NULL CHECK (position >= 0),
        root           TEXT NOT NULL,
        decisions      TEXT NOT NULL,
        generation     INTEGER NOT NULL,
        last_used_at   INTEGER NOT NULL,
        decision_count INTEGER,
        problems       INTEGER,
        PRIMARY KEY (session_key, position),
        UNIQUE (session_key, root, decisions)
      );
    `);
  },
};
