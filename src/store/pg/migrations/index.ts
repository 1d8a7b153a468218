/**
 * The PostgreSQL schema's history, oldest first. Never edit a migration that
 * has shipped — add the next: a `NNN-name.ts` file exporting a `PgMigration`,
 * appended here.
 */
import type { PgMigration } from '../migration.js';
import { tasksTable } from './001-tasks.js';
import { sessionsTables } from './002-sessions.js';
import { busPayloads } from './003-bus-payloads.js';
import { clusterSecret } from './004-cluster-secret.js';
import { sessionClient } from './005-session-client.js';

export const PG_MIGRATIONS: readonly PgMigration[] = [
  tasksTable,
  sessionsTables,
  busPayloads,
  clusterSecret,
  sessionClient,
];
