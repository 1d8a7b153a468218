/**
 * The store's schema history, oldest first. A migration is applied once, in
 * one transaction with its row in `schema_migrations`; never edit one that
 * has shipped — add the next.
 */
import type Database from 'better-sqlite3';
import { tasksTable } from './001-tasks.js';
import { sessionsTables } from './002-sessions.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [tasksTable, sessionsTables];
