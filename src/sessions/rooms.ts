/**
 * Rooms: the daemon's loaded state for one workspace (for the decisions pack:
 * the parsed corpus and its watcher), shared by every connection bound to it,
 * so two clients on one repository parse it once. Ref-counted: when the last
 * connection leaves, the room is unloaded after a keep-alive (30 s default),
 * unless someone joins again first.
 *
 * The reaper (reap()) is the backstop for rooms the keep-alive does not end
 * (a long keep-alive, a timer that never fired): rooms nobody holds are
 * unloaded once unused for a day, and at most 32 are kept loaded, the least
 * recently used unheld ones going first. Rooms in use are never reaped.
 */

export const DEFAULT_ROOM_KEEPALIVE_MS = 30_000;
export const DEFAULT_ROOM_IDLE_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_LOADED_ROOMS = 32;

export interface RoomKey {
  /** Absolute, resolved workspace root. */
  readonly root: string;
  /** Absolute `--decisions` folder, when the client named one. */
  readonly decisions?: string | undefined;
}

export interface RoomState {
  close(): void;
}

export interface Room<S extends RoomState> {
  readonly key: RoomKey;
  readonly state: S;
  readonly connections: number;
}

export interface RoomLease<S extends RoomState> {
  readonly room: Room<S>;
  /** Leaves the room; idempotent. */
  release(): void;
}

export interface RoomsOptions<S extends RoomState> {
  readonly keepAliveMs?: number;
  /** reap(): an unheld room unused this long is unloaded (default 24 h). */
  readonly idleTtlMs?: number;
  /** reap(): at most this many rooms stay loaded, counting held ones (default 32). */
  readonly maxLoaded?: number;
  /** The clock for last-use times (tests inject one). */
  now?(): number;
  open(key: RoomKey): S;
  onUnload?(key: RoomKey): void;
}

class RoomEntry<S extends RoomState> implements Room<S> {
  connections = 0;
  /** True while keep() holds the room (counted as one connection). */
  kept = false;
  /** The room's one keep-alive timer: ending keep()'s hold, or unloading an unheld room. */
  timer: NodeJS.Timeout | undefined;
  constructor(
    readonly key: RoomKey,
    readonly state: S,
    public lastUsedAt: number,
  ) {}
}

export function roomId(key: RoomKey): string {
  return `${key.root}\u0000${key.decisions ?? ''}`;
}

export class Rooms<S extends RoomState> {
  readonly #rooms = new Map<string, RoomEntry<S>>();
  readonly #keepAliveMs: number;
  readonly #options: RoomsOptions<S>;
  readonly #now: () => number;

  constructor(options: RoomsOptions<S>) {
    this.#options = options;
    this.#keepAliveMs = options.keepAliveMs ?? DEFAULT_ROOM_KEEPALIVE_MS;
    this.#now = options.now ?? Date.now;
  }

  #entry(key: RoomKey): RoomEntry<S> {
    const id = roomId(key);
    let entry = this.#rooms.get(id);
    if (!entry) {
      entry = new RoomEntry(key, this.#options.open(key), this.#now());
      this.#rooms.set(id, entry);
    }
    return entry;
  }

  /** Joins the room for `key`, opening it on first use. */
  acquire(key: RoomKey): RoomLease<S> {
    const id = roomId(key);
    const entry = this.#entry(key);
    // A pending unload is called off; keep()'s timer (which only ends its own hold) runs on.
    if (entry.timer && !entry.kept) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    entry.connections += 1;
    entry.lastUsedAt = this.#now();
    const joined = entry;
    let released = false;
    return {
      room: joined,
      release: () => {
        if (released) return;
        released = true;
        this.#leave(id, joined);
      },
    };
  }

  /**
   * Holds the room for `key` (opening it on first use) until the keep-alive
   * has passed since the last keep(): what callers without a connection
   * (session-less HTTP requests) hold a room by. While held it counts as one
   * connection; afterwards the room is unheld like any other, so it unloads
   * one more keep-alive later unless someone joins.
   */
  keep(key: RoomKey): Room<S> {
    const id = roomId(key);
    const entry = this.#entry(key);
    entry.lastUsedAt = this.#now();
    if (entry.timer) clearTimeout(entry.timer);
    if (!entry.kept) {
      entry.kept = true;
      entry.connections += 1;
    }
    entry.timer = setTimeout(() => {
      entry.kept = false;
      entry.timer = undefined;
      this.#leave(id, entry);
    }, this.#keepAliveMs);
    entry.timer.unref();
    return entry;
  }

  #leave(id: string, entry: RoomEntry<S>): void {
    entry.connections -= 1;
    entry.lastUsedAt = this.#now();
    if (entry.connections > 0) return;
    entry.timer = setTimeout(() => this.#unload(id, entry), this.#keepAliveMs);
    entry.timer.unref();
  }

  #unload(id: string, entry: RoomEntry<S>): void {
    // Someone rejoined, or a newer room replaced this one: keep it.
    if (entry.connections > 0 || this.#rooms.get(id) !== entry) return;
    this.#rooms.delete(id);
    entry.timer = undefined;
    entry.state.close();
    this.#options.onUnload?.(entry.key);
  }

  /**
   * Unloads unheld rooms unused for the idle TTL, then, while more than
   * `maxLoaded` rooms are loaded, the least recently used unheld ones (ties:
   * the one loaded first). Returns the keys unloaded, in order.
   */
  reap(now: number = this.#now()): RoomKey[] {
    const ttl = this.#options.idleTtlMs ?? DEFAULT_ROOM_IDLE_TTL_MS;
    const max = this.#options.maxLoaded ?? DEFAULT_MAX_LOADED_ROOMS;
    // Map order is load order, and the sort is stable: equal last-use times keep it.
    const unheld = [...this.#rooms]
      .filter(([, entry]) => entry.connections === 0)
      .sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt);
    const unloaded: RoomKey[] = [];
    for (const [id, entry] of unheld) {
      if (now - entry.lastUsedAt < ttl && this.#rooms.size <= max) break;
      if (entry.timer) clearTimeout(entry.timer);
      this.#unload(id, entry);
      unloaded.push(entry.key);
    }
    return unloaded;
  }

  /** Loaded rooms, with their connection counts (idle ones in keep-alive show 0). */
  list(): Array<{ root: string; decisions: string | undefined; connections: number }> {
    return [...this.#rooms.values()].map((e) => ({
      root: e.key.root,
      decisions: e.key.decisions,
      connections: e.connections,
    }));
  }

  /** The loaded rooms themselves, in load order (status views read their state). */
  loaded(): Array<Room<S>> {
    return [...this.#rooms.values()];
  }

  get size(): number {
    return this.#rooms.size;
  }

  /** Unloads every room now (shutdown). */
  closeAll(): void {
    for (const [id, entry] of this.#rooms) {
      if (entry.timer) clearTimeout(entry.timer);
      this.#rooms.delete(id);
      entry.state.close();
    }
  }
}
