/**
 * Where session bindings live: for each session key, its active workspace,
 * its parked ones (most recently used first) and the last binding it lost.
 * Two implementations share this interface today, SQLite (the daemon's,
 * durable across restarts) and memory (tests); a PostgreSQL one shared by
 * several daemons will implement it too, which is why every method returns
 * a promise even though SQLite answers synchronously.
 *
 * A save replaces the whole record in one transaction: a reader never sees
 * half of a switch (the new active without the old one parked).
 */

export type DropReason = 'switched' | 'disconnected' | 'evicted' | 'unavailable';

export const DEFAULT_SESSION_RETENTION_DAYS = 7;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** One workspace a session is bound to. */
export interface StoredBinding {
  /** Absolute, resolved workspace root. */
  readonly root: string;
  /** Absolute decision folder the session named, or null for the workspace's own. */
  readonly decisions: string | null;
  /** The session generation at which this binding was last activated. */
  readonly generation: number;
  /** Epoch milliseconds of the last call that used it. */
  readonly lastUsedAt: number;
  /** Counts from the last time its room was loaded; null before the first load. */
  readonly decisionCount: number | null;
  readonly problems: number | null;
}

/** The last binding a session lost: what an error tells the agent when no workspace is active. */
export interface SessionDrop {
  readonly reason: DropReason;
  readonly root: string;
  readonly decisions: string | null;
  /** Epoch milliseconds. */
  readonly at: number;
  /** The path to connect to get it back, when that can work (it is parked, or was only evicted). */
  readonly rejoinTarget?: string | undefined;
}

/** The client a session's handshake named (its `clientInfo`). */
export interface SessionClient {
  readonly name: string;
  readonly version: string;
}

export interface SessionRecord {
  readonly key: string;
  readonly active: StoredBinding | null;
  /** Most recently used first; the last one is evicted first. */
  readonly parked: readonly StoredBinding[];
  readonly lastDrop: SessionDrop | null;
  /** Advances on every activation and every drop; never goes back, also across restarts. */
  readonly generation: number;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  /** The client the session's latest handshake named; null when none was seen. */
  readonly client: SessionClient | null;
}

export interface SessionSummary {
  readonly key: string;
  readonly active: string | null;
  readonly parked: number;
  readonly lastUsedAt: number;
}

export interface SessionStore {
  /** The session's record, or undefined when the key is unknown (or was swept). */
  load(key: string): Promise<SessionRecord | undefined>;
  /** Writes the whole record (bindings, last drop, generation) in one transaction; committed on return. */
  save(record: SessionRecord): Promise<void>;
  /** Marks the session used at `now` (keeps the sweeper away); a no-op for an unknown key. */
  touch(key: string, now: number): Promise<void>;
  /** Deletes sessions last used before `unusedSince` with their bindings; returns how many. */
  sweep(unusedSince: number): Promise<number>;
  /** Every stored session, most recently used first. */
  list(): Promise<SessionSummary[]>;
  close(): void;
}

export function emptySessionRecord(key: string, now: number): SessionRecord {
  return {
    key,
    active: null,
    parked: [],
    lastDrop: null,
    generation: 0,
    createdAt: now,
    lastUsedAt: now,
    client: null,
  };
}

export function summarizeSession(record: SessionRecord): SessionSummary {
  return {
    key: record.key,
    active: record.active?.root ?? null,
    parked: record.parked.length,
    lastUsedAt: record.lastUsedAt,
  };
}
