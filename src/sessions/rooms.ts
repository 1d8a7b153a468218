/**
 * Rooms: the daemon's loaded state for one workspace (for the decisions pack:
 * the parsed corpus and its watcher), shared by every connection bound to it,
 * so two clients on one repository parse it once. Ref-counted: when the last
 * connection leaves, the room is unloaded after a keep-alive (30 s default),
 * unless someone joins again first.
 */

export const DEFAULT_ROOM_KEEPALIVE_MS = 30_000;

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
  open(key: RoomKey): S;
  onUnload?(key: RoomKey): void;
}

class RoomEntry<S extends RoomState> implements Room<S> {
  connections = 0;
  timer: NodeJS.Timeout | undefined;
  constructor(
    readonly key: RoomKey,
    readonly state: S,
  ) {}
}

export function roomId(key: RoomKey): string {
  return `${key.root}\u0000${key.decisions ?? ''}`;
}

export class Rooms<S extends RoomState> {
  readonly #rooms = new Map<string, RoomEntry<S>>();
  readonly #keepAliveMs: number;
  readonly #options: RoomsOptions<S>;

  constructor(options: RoomsOptions<S>) {
    this.#options = options;
    this.#keepAliveMs = options.keepAliveMs ?? DEFAULT_ROOM_KEEPALIVE_MS;
  }

  /** Joins the room for `key`, opening it on first use. */
  acquire(key: RoomKey): RoomLease<S> {
    const id = roomId(key);
    let entry = this.#rooms.get(id);
    if (!entry) {
      entry = new RoomEntry(key, this.#options.open(key));
      this.#rooms.set(id, entry);
    }
    if (entry.timer) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    entry.connections += 1;
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

  #leave(id: string, entry: RoomEntry<S>): void {
    entry.connections -= 1;
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

  /** Loaded rooms, with their connection counts (idle ones in keep-alive show 0). */
  list(): Array<{ root: string; decisions: string | undefined; connections: number }> {
    return [...this.#rooms.values()].map((e) => ({
      root: e.key.root,
      decisions: e.key.decisions,
      connections: e.connections,
    }));
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
