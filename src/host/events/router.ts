/**
 * Change events, routed by room. A room is one loaded workspace: what a pack
 * announces for it (a decision edited, a file added) reaches only the
 * connections and listen streams bound to that room, never another
 * workspace's. A connection subscribes once per room its caller's scope holds, so a
 * session that holds several rooms (an active and parked workspaces) hears
 * each of them through the same listener.
 *
 * Task status changes are routed by owner instead: a task belongs to a
 * session key, and only that session's streams hear about it. So are a
 * session's own list changes (its tool list follows its active workspace).
 */
import type { ServerEvent } from '@modelcontextprotocol/server';
import type { ListKind, RoomAnnouncer } from '../pack.js';

export type RoomListener = (event: ServerEvent, roomId: string) => void;

/** A task's state as `tasks/get` answers it (the extension's DetailedTask). */
export interface TaskStatusEvent {
  readonly taskId: string;
  readonly detailed: Readonly<Record<string, unknown>>;
}

export type TaskListener = (event: TaskStatusEvent) => void;

/**
 * The current state of those of `taskIds` that `ownerKey` owns (unknown and
 * foreign ids left out); without `taskIds`, of every task it owns.
 */
export type TaskStateReader = (ownerKey: string, taskIds?: readonly string[]) => Promise<TaskStatusEvent[]>;

export type SessionListener = (event: ServerEvent) => void;

export class EventRouter {
  readonly #rooms = new Map<string, Set<RoomListener>>();
  readonly #everyRoom = new Set<RoomListener>();
  readonly #owners = new Map<string, Set<TaskListener>>();
  readonly #sessions = new Map<string, Set<SessionListener>>();
  readonly #onError: ((error: unknown) => void) | undefined;
  #taskState: TaskStateReader | undefined;

  constructor(onError?: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Hears every event of these rooms until the returned function is called. */
  subscribe(roomIds: readonly string[], listener: RoomListener): () => void {
    return this.#add(this.#rooms, roomIds, listener);
  }

  /**
   * Hears every room's events, for a listener whose rooms change while it
   * listens (a session switching workspaces): it filters by the room id.
   */
  subscribeAll(listener: RoomListener): () => void {
    this.#everyRoom.add(listener);
    return () => {
      this.#everyRoom.delete(listener);
    };
  }

  publish(roomId: string, event: ServerEvent): void {
    for (const listener of [...(this.#rooms.get(roomId) ?? []), ...this.#everyRoom]) {
      try {
        listener(event, roomId);
      } catch (error) {
        this.#onError?.(error);
      }
    }
  }

  /** What a pack state is given to announce its room's changes. */
  announcer(roomId: string): RoomAnnouncer {
    return {
      listChanged: (list: ListKind) => this.publish(roomId, { kind: `${list}_list_changed` }),
      resourceUpdated: (uri: string) => this.publish(roomId, { kind: 'resource_updated', uri }),
    };
  }

  /** Hears the status changes of `ownerKey`'s tasks. */
  subscribeTasks(ownerKey: string, listener: TaskListener): () => void {
    return this.#add(this.#owners, [ownerKey], listener);
  }

  /** True when someone listens to `ownerKey`'s tasks (so building the status is worth it). */
  hasTaskListeners(ownerKey?: string): boolean {
    return ownerKey === undefined ? this.#owners.size > 0 : this.#owners.has(ownerKey);
  }

  /** Set by the task feed, which can read the task rows. */
  provideTaskState(reader: TaskStateReader): void {
    this.#taskState = reader;
  }

  /**
   * What a stream that just started listening to these tasks (without ids:
   * to all of the owner's) is told first; none without tasks.
   */
  currentTasks(ownerKey: string, taskIds?: readonly string[]): Promise<TaskStatusEvent[]> {
    return this.#taskState === undefined ? Promise.resolve([]) : this.#taskState(ownerKey, taskIds);
  }

  publishTask(ownerKey: string, event: TaskStatusEvent): void {
    for (const listener of [...(this.#owners.get(ownerKey) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        this.#onError?.(error);
      }
    }
  }

  /** Hears the events of one session alone (e.g. its tool list changed after a switch). */
  subscribeSession(sessionKey: string, listener: SessionListener): () => void {
    return this.#add(this.#sessions, [sessionKey], listener);
  }

  publishSession(sessionKey: string, event: ServerEvent): void {
    for (const listener of [...(this.#sessions.get(sessionKey) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        this.#onError?.(error);
      }
    }
  }

  #add<L>(map: Map<string, Set<L>>, keys: readonly string[], listener: L): () => void {
    const unique = [...new Set(keys)];
    for (const key of unique) {
      const set = map.get(key) ?? new Set<L>();
      map.set(key, set);
      set.add(listener);
    }
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      for (const key of unique) {
        const set = map.get(key);
        set?.delete(listener);
        if (set?.size === 0) map.delete(key);
      }
    };
  }
}
