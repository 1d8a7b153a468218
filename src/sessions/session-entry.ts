/**
 * The sessions the daemon has in memory: each one's record (as last
 * committed to the store), its race counters, the rooms its bindings hold,
 * and how many connections it has. Opening a session reads the store once;
 * concurrent opens share that read.
 */
import { emptySessionRecord, type SessionRecord, type SessionStore } from '../store/session-store.js';
import type { WorkspaceBinding } from './bindings.js';
import { SerialLock } from './serial-lock.js';

/** A held room: what the manager's loader returns (e.g. a Rooms lease). */
export interface RoomHandle {
  /** Lets go of the room; called once per handle. */
  release(): void;
}

/** lastUsedAt is written at most this often per session: the sweeper counts in days. */
const TOUCH_INTERVAL_MS = 60_000;

export class SessionEntry<H extends RoomHandle> {
  record: SessionRecord;
  /** False until the session's first save (a session only looked at is not stored). */
  stored: boolean;
  /** Begun in memory (its first binding set) but not saved: no call has been made yet. */
  provisional = false;
  /** Advances on each connect to a new target and each disconnect; see SessionManager. */
  intent = 0;
  /** The connect being loaded, shared by calls for the same target. */
  inflight:
    | { readonly id: string; readonly intent: number; readonly promise: Promise<WorkspaceBinding> }
    | undefined;
  attachments = 0;
  lastUsedAt: number;
  /** Loaded rooms of this session's bindings, by binding id. */
  readonly rooms = new Map<string, H>();
  /** First-use loads in progress, by binding id. */
  readonly loading = new Map<string, Promise<H>>();
  readonly lock = new SerialLock();

  constructor(record: SessionRecord, stored: boolean, now: number) {
    this.record = record;
    this.stored = stored;
    this.lastUsedAt = now;
  }

  touch(now: number): void {
    this.lastUsedAt = Math.max(this.lastUsedAt, now);
  }

  releaseRoom(id: string): void {
    const room = this.rooms.get(id);
    this.rooms.delete(id);
    room?.release();
  }

  releaseRooms(): void {
    for (const id of [...this.rooms.keys()]) this.releaseRoom(id);
  }

  /** Something is attached, loading or writing: not to be reaped. */
  get busy(): boolean {
    return this.attachments > 0 || this.inflight !== undefined || this.loading.size > 0 || !this.lock.idle;
  }
}

export interface ReapLimits {
  /** An unattached session lets go of its rooms after this long unused. */
  readonly holdIdleMs: number;
  /** An unattached session leaves memory after this long unused (the store keeps it). */
  readonly forgetIdleMs: number;
}

export class SessionTable<H extends RoomHandle> {
  readonly #store: SessionStore;
  readonly #now: () => number;
  readonly #entries = new Map<string, SessionEntry<H>>();
  readonly #opening = new Map<string, Promise<SessionEntry<H>>>();

  constructor(store: SessionStore, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  async open(key: string): Promise<SessionEntry<H>> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) return entry;
    let opening = this.#opening.get(key);
    if (opening === undefined) {
      opening = this.#read(key).finally(() => this.#opening.delete(key));
      this.#opening.set(key, opening);
    }
    return opening;
  }

  async #read(key: string): Promise<SessionEntry<H>> {
    const now = this.#now();
    const stored = await this.#store.load(key);
    const entry = new SessionEntry<H>(stored ?? emptySessionRecord(key, now), stored !== undefined, now);
    this.#entries.set(key, entry);
    return entry;
  }

  loaded(key: string): SessionEntry<H> | undefined {
    return this.#entries.get(key);
  }

  /** One more connection of the session; the returned release is idempotent. */
  attach(entry: SessionEntry<H>): { release(): void } {
    entry.attachments += 1;
    entry.touch(this.#now());
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        entry.attachments -= 1;
        entry.touch(this.#now());
        // A session nobody is connected as holds no rooms: they go to their keep-alive.
        if (entry.attachments === 0) entry.releaseRooms();
      },
    };
  }

  /** Keeps a stored session's lastUsedAt roughly current without a write per call. */
  async touchStore(entry: SessionEntry<H>, now: number): Promise<void> {
    if (!entry.stored || now - entry.record.lastUsedAt < TOUCH_INTERVAL_MS) return;
    entry.record = { ...entry.record, lastUsedAt: now };
    await this.#store.touch(entry.record.key, now);
  }

  /** Lets idle unattached sessions go: their rooms first, later their memory. */
  reap(now: number, limits: ReapLimits): { released: number; forgotten: number } {
    let released = 0;
    let forgotten = 0;
    for (const [key, entry] of this.#entries) {
      if (entry.busy) continue;
      const idle = now - entry.lastUsedAt;
      if (idle >= limits.holdIdleMs && entry.rooms.size > 0) {
        entry.releaseRooms();
        released += 1;
      }
      if (idle >= limits.forgetIdleMs) {
        this.#entries.delete(key);
        forgotten += 1;
      }
    }
    return { released, forgotten };
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The sessions in memory, in the order they were opened. */
  entries(): IterableIterator<SessionEntry<H>> {
    return this.#entries.values();
  }

  /** Takes the session out of memory (an operator's drop; its record is already gone). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  releaseAll(): void {
    for (const entry of this.#entries.values()) entry.releaseRooms();
  }
}
