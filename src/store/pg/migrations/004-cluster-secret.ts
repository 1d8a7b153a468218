/**
 * 004: the secret every daemon of a PostgreSQL cluster shares. One row, its
 * bytes chosen by the first daemon that needs it (INSERT … ON CONFLICT DO
 * NOTHING, so that daemons starting together agree on one). Daemons derive
 * from it the key that signs bus messages and the key that seals input
 * rounds. PUBLIC is refused explicitly: only moor's role reads it.
 */
import type { PgMigration } from '../migration.js';

export const clusterSecret: PgMigration = {
  version: 4,
  name: 'cluster-secret',
  sql: `
    CREATE TABLE cluster_secret (
      id     SMALLINT PRIMARY KEY CHECK (id = 1),
      secret BYTEA NOT NULL CHECK (octet_length(secret) >= 32)
    );
    REVOKE ALL ON cluster_secret FROM PUBLIC;
  `,
};
