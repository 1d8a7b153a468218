/**
 * The store's schema history, oldest first. A migration is applied once, in
 * one transaction with its row in `schema_migrations`; never edit one that
 * has shipped — add the next: a `NNN-name.ts` file exporting a `Migration`
 * (src/store/migration.ts), appended here.
 */
import type { Migration } from '../migration.js';
import { tasksTable } from './001-tasks.js';
import { sessionsTables } from './002-sessions.js';
import { taskLeases } from './003-task-leases.js';
import { sessionClient } from './004-session-client.js';

export const MIGRATIONS: readonly Migration[] = [tasksTable, sessionsTables, taskLeases, sessionClient];
