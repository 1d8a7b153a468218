/**
 * An in-memory SessionStore with the SQLite store's semantics: for tests and
 * keyless set-ups. Records are frozen copies, so a caller mutating what it
 * saved cannot change what a later load returns. Nothing survives the process.
 */
import {
  type SessionRecord,
  type SessionStore,
  type SessionSummary,
  summarizeSession,
} from './session-store.js';

function copy(record: SessionRecord): SessionRecord {
  return structuredClone(record);
}

export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, SessionRecord>();

  async load(key: string): Promise<SessionRecord | undefined> {
    const record = this.#sessions.get(key);
    return record === undefined ? undefined : copy(record);
  }

  async save(record: SessionRecord): Promise<void> {
    this.#sessions.set(record.key, copy(record));
  }

  async touch(key: string, now: number): Promise<void> {
    const record = this.#sessions.get(key);
    if (record !== undefined) this.#sessions.set(key, { ...record, lastUsedAt: now });
  }

  async sweep(unusedSince: number): Promise<number> {
    let swept = 0;
    for (const [key, record] of this.#sessions) {
      if (record.lastUsedAt < unusedSince) {
        this.#sessions.delete(key);
        swept += 1;
      }
    }
    return swept;
  }

  async list(): Promise<SessionSummary[]> {
    return [...this.#sessions.values()]
      .map(summarizeSession)
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt || a.key.localeCompare(b.key));
  }

  close(): void {
    this.#sessions.clear();
  }
}
