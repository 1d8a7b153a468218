/**
 * What one step of the store's schema history is. Each migration lives in
 * its own file under migrations/ and imports only this; migrations/index.ts
 * lists them in order.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** Applied in ascending order; never reused once shipped. */
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}
