/**
 * The daemon's sessions, composed: the SessionManager over the SQLite store
 * and the rooms, the caller scopes the host runs calls in (a socket
 * connection's, an HTTP session's), per-session tool-list announcements, and
 * the reaper.
 *
 * A connection is bound to its session, not to a workspace: every call
 * selects its workspace (the `workspace` argument, else the active one)
 * through the manager, which loads rooms lazily and answers the errors built
 * from the session's last drop.
 */
import path from 'node:path';
import { MoorError } from '../../errors.js';
import type { ClusterBus } from '../../events/bus.js';
import {
  type CallerScope,
  type CallWorkspace,
  oneWorkspaceScope,
  type Workspace,
} from '../../host/call-scope.js';
import type { EventRouter } from '../../host/events/router.js';
import type { Pack } from '../../host/pack.js';
import type { DecisionsState } from '../../packs/decisions/state.js';
import type { SessionSummary, SessionsControlReply, SessionsControlRequest } from '../../protocol/hello.js';
import type { WorkspaceBinding } from '../../sessions/bindings.js';
import { SessionManager } from '../../sessions/manager.js';
import { Reaper } from '../../sessions/reaper.js';
import { type Room, type RoomKey, type RoomLease, type Rooms, roomId } from '../../sessions/rooms.js';
import type { WorkspacePolicy } from '../../sessions/workspace-path.js';
import type { SessionClient, SessionStore } from '../../store/session-store.js';
import { sessionSummaries, sessionsControl } from '../control/session-views.js';

/** What a room holds: the workspace's pack states, opened through this room's own pack instances. */
export interface RoomContents {
  readonly workspace: Workspace;
  /** The catalog's pack → this room's instance of it (differs when the room has its own --decisions). */
  readonly packs: ReadonlyMap<Pack<unknown>, Pack<unknown>>;
  close(): void;
}

export type RoomHold = RoomLease<RoomContents>;

/** HTTP's Moor-Workspace: the workspace of calls that name none, served directly when the session lacks it. */
export interface Fallback {
  readonly root: string;
  direct(): CallWorkspace;
}

export interface DaemonSessionsOptions {
  readonly rooms: Rooms<RoomContents>;
  readonly store: SessionStore;
  /** The catalog's decisions pack: what a room's summary counts. */
  readonly decisionsPack: Pack<unknown>;
  readonly policy: WorkspacePolicy;
  /** `--allow-writes DIR`: workspaces (these directories or inside them) where write tools run. */
  readonly writeRoots: readonly string[];
  readonly maxParked?: number | undefined;
  readonly retentionDays?: number | undefined;
  /** How long an HTTP session stays attached after its last request. */
  readonly httpHoldMs: number;
  readonly reapIntervalMs?: number | undefined;
  /** Daemons sharing the store: a session saved here is announced, one saved there is re-read. */
  readonly bus?: ClusterBus | undefined;
  /** Where a session's tool-list change reaches its listen streams (the daemon's event router). */
  readonly events?: EventRouter | undefined;
  onError(error: unknown, what: string): void;
}

function inside(root: string, allowed: string): boolean {
  return root === allowed || root.startsWith(allowed.endsWith(path.sep) ? allowed : `${allowed}${path.sep}`);
}

export class DaemonSessions {
  readonly manager: SessionManager<RoomHold>;
  readonly reaper: Reaper;
  readonly #options: DaemonSessionsOptions;
  readonly #toolListeners = new Map<string, Set<() => void>>();
  readonly #httpAttachments = new Map<string, { release(): void; timer: NodeJS.Timeout }>();
  readonly #httpAttaching = new Map<string, Promise<void>>();

  constructor(options: DaemonSessionsOptions) {
    this.#options = options;
    this.manager = new SessionManager<RoomHold>({
      store: options.store,
      loadRoom: async (key) => options.rooms.acquire(key),
      summarize: (hold) => this.#summarize(hold.room),
      policy: options.policy,
      writeAllowed: (root) => this.writeAllowed(root),
      ...(options.maxParked === undefined ? {} : { maxParked: options.maxParked }),
      ...(options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays }),
      onListenerError: (error) => options.onError(error, 'tools/list_changed'),
      sharedStore: options.bus !== undefined,
      ...(options.bus === undefined
        ? {}
        : {
            onSaved: (sessionKey: string) => {
              const bus = options.bus;
              bus
                ?.publish({ kind: 'binding-changed', sessionTag: bus.sessionTag(sessionKey) })
                .catch((error: unknown) => options.onError(error, 'announcing a binding change'));
            },
          }),
    });
    options.bus?.subscribe((message) => {
      if (message.kind !== 'binding-changed') return;
      // The tag names the session without revealing its key: the one held here whose tag it is.
      const bus = options.bus;
      const sessionKey = this.manager.loadedKeys().find((key) => bus?.sessionTag(key) === message.sessionTag);
      if (sessionKey === undefined) return;
      this.manager.reloadFromStore(sessionKey).catch((error: unknown) => {
        options.onError(error, 're-reading a session another daemon changed');
      });
    });
    this.manager.onActiveChanged(({ sessionKey, active, previous }) => {
      if (this.#writesOf(active) === this.#writesOf(previous)) return;
      for (const listener of this.#toolListeners.get(sessionKey) ?? []) listener();
      options.events?.publishSession(sessionKey, { kind: 'tools_list_changed' });
    });
    this.reaper = new Reaper({
      sweeps: [(now) => options.rooms.reap(now), (now) => this.manager.reap(now)],
      ...(options.reapIntervalMs === undefined ? {} : { intervalMs: options.reapIntervalMs }),
      onError: (error) => options.onError(error, 'reaper'),
    });
  }

  writeAllowed(root: string): boolean {
    return this.#options.writeRoots.some((allowed) => inside(root, allowed));
  }

  #writesOf(binding: WorkspaceBinding | null): boolean {
    return binding !== null && this.writeAllowed(binding.root);
  }

  #summarize(room: Room<RoomContents>): { decisionCount: number; problems: number } {
    const state = this.roomWorkspace(room).stateOf(this.#options.decisionsPack) as DecisionsState;
    if (state.kind !== 'loaded') return { decisionCount: 0, problems: 0 };
    return { decisionCount: state.corpus.decisions.length, problems: state.corpus.problems.length };
  }

  /** The sessions in memory, most recently used first, for status (keys shown by prefix only). */
  describeSessions(): SessionSummary[] {
    return sessionSummaries(this.manager.snapshots().sort((a, b) => b.lastUsedAt - a.lastUsedAt));
  }

  /** `moor sessions list|show|drop`. */
  control(request: SessionsControlRequest): Promise<SessionsControlReply> {
    return sessionsControl(this.manager, request);
  }

  /** Remembers the client a handshake of `sessionKey` named (kept with the session once it is stored). */
  noteClient(sessionKey: string, client: SessionClient): void {
    this.manager
      .noteClient(sessionKey, client)
      .catch((error: unknown) => this.#options.onError(error, 'recording a session client'));
  }

  /** One loaded room as the workspace a call runs in. */
  roomWorkspace(room: Room<RoomContents>): CallWorkspace {
    const { state, key } = room;
    return {
      root: key.root,
      writable: this.writeAllowed(key.root),
      stateOf: <S>(pack: Pack<S>): S =>
        state.workspace.stateOf((state.packs.get(pack as Pack<unknown>) ?? pack) as Pack<S>),
    };
  }

  /**
   * The scope of a caller without a session: one room, whose events it hears;
   * naming another workspace is answered by `refuseOther`.
   */
  roomScope(room: Room<RoomContents>, refuseOther: (named: string) => Error): CallerScope {
    return oneWorkspaceScope(this.roomWorkspace(room), {
      sessionKey: undefined,
      rooms: [roomId(room.key)],
      refuseOther,
    });
  }

  /**
   * A socket connection of `sessionKey` begins. A session the store does not
   * know begins with `initial` active, and is stored at its first call (a
   * known one keeps its bindings): one that never makes a call leaves
   * nothing behind. The active room is not loaded here: `warm` loads it (the
   * daemon calls it once the connection's first answer is out), and a call
   * that needs it sooner loads it itself; the two share one load.
   */
  async openConnection(
    sessionKey: string,
    initial: RoomKey,
  ): Promise<{ scope: CallerScope; warm(): void; close(): void }> {
    const attachment = await this.manager.attach(sessionKey, initial);
    let closed = false;
    const warm = () => {
      if (closed) return;
      this.manager.resolve(sessionKey, undefined, { use: false }).catch(() => {
        // No usable active workspace: the first call answers why.
      });
    };
    // Also a session an operator dropped while this connection stayed attached starts again at `initial`.
    const ready = () => this.manager.ensureStarted(sessionKey, initial);
    const begin = () => this.manager.ensureStarted(sessionKey, initial, false);
    return {
      scope: this.sessionScope(sessionKey, undefined, ready, undefined, begin),
      warm,
      close: () => {
        closed = true;
        attachment.release();
      },
    };
  }

  /**
   * The scope of a session: each call selects its workspace. `fallback`
   * (HTTP's Moor-Workspace) names the workspace of calls that name none;
   * when it is not one of the session's, `direct` serves it for the request.
   * `hold` keeps it loaded for a listen stream (a socket connection holds it
   * while connected, so there it holds nothing more). `ready` runs before a call (it saves a
   * new session); `begin` before what is no call (a listing, a listen), which saves nothing.
   */
  sessionScope(
    sessionKey: string,
    fallback?: Fallback,
    ready: () => Promise<void> = async () => {},
    hold: () => () => void = () => () => {},
    begin: () => Promise<void> = ready,
  ): CallerScope {
    const manager = this.manager;
    return {
      sessionKey,
      hold,
      namesWorkspaces: true,
      // The rooms this session holds, its active one first: its connections hear each of them.
      rooms: (): readonly string[] => {
        const keys = manager.heldRooms(sessionKey);
        // Moor-Workspace names this request's workspace: its streams hear that room alone.
        if (fallback !== undefined) {
          const bound = keys.find((k) => k.root === fallback.root);
          return [roomId(bound ?? { root: fallback.root, decisions: undefined })];
        }
        const held = keys.map(roomId);
        const active = manager.activeBinding(sessionKey);
        if (active === null) return held;
        const first = roomId({ root: active.root, decisions: active.decisions ?? undefined });
        return held.includes(first) ? [first, ...held.filter((id) => id !== first)] : held;
      },
      roomsChange: true,
      ready,
      select: async (named) => {
        await begin();
        if (named === undefined && fallback !== undefined) {
          const connected = await manager.list(sessionKey);
          const bound = [connected.active, ...connected.parked].some((b) => b?.root === fallback.root);
          if (!bound) return fallback.direct();
          named = fallback.root;
        }
        const resolved = await manager.resolve(sessionKey, named);
        return this.roomWorkspace(resolved.room.room);
      },
      others: async () => {
        await begin();
        const { parked } = await manager.list(sessionKey);
        const others: Array<{ root: string; workspace: CallWorkspace }> = [];
        for (const binding of parked) {
          try {
            const resolved = await manager.resolve(sessionKey, binding.root, { use: false });
            others.push({ root: binding.root, workspace: this.roomWorkspace(resolved.room.room) });
          } catch (error) {
            if (!(error instanceof MoorError)) throw error;
            // A parked workspace that is gone was dropped: it has nothing to list.
          }
        }
        return others;
      },
      writesListed: async () => {
        await begin();
        return manager.writeAllowed(sessionKey);
      },
      onToolsChanged: (listener) => {
        let listeners = this.#toolListeners.get(sessionKey);
        if (listeners === undefined) {
          listeners = new Set();
          this.#toolListeners.set(sessionKey, listeners);
        }
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
          if (listeners.size === 0) this.#toolListeners.delete(sessionKey);
        };
      },
    };
  }

  /**
   * An HTTP request of `sessionKey`: the session stays attached while
   * requests keep coming (released `httpHoldMs` after the last one), and
   * starts, when the store does not know it, with `initial` active.
   */
  httpScope(sessionKey: string, initial: RoomKey, fallback?: Fallback): CallerScope {
    return this.sessionScope(
      sessionKey,
      fallback,
      async () => {
        await this.#attachHttp(sessionKey, initial);
        await this.manager.ensureStarted(sessionKey, initial);
      },
      () => this.#holdForStream(sessionKey, initial, fallback),
      async () => {
        await this.#attachHttp(sessionKey, initial);
        await this.manager.ensureStarted(sessionKey, initial, false);
      },
    );
  }

  /**
   * A listen stream outlives the request that opened it: while it is open the
   * session stays attached (its rooms loaded and watched), and so does the
   * room Moor-Workspace named for it. Returns the release.
   */
  #holdForStream(sessionKey: string, initial: RoomKey, fallback?: Fallback): () => void {
    let released = false;
    let release: (() => void) | undefined;
    this.manager
      .attach(sessionKey, initial)
      .then((attachment) => {
        if (released) attachment.release();
        else release = () => attachment.release();
      })
      .catch((error: unknown) => this.#options.onError(error, 'holding a session for its listen stream'));
    const lease =
      fallback === undefined
        ? undefined
        : this.#options.rooms.acquire({ root: fallback.root, decisions: undefined });
    return () => {
      if (released) return;
      released = true;
      release?.();
      lease?.release();
    };
  }

  #attachHttp(sessionKey: string, initial: RoomKey): Promise<void> {
    const held = this.#httpAttachments.get(sessionKey);
    if (held !== undefined) {
      held.timer.refresh();
      return Promise.resolve();
    }
    let attaching = this.#httpAttaching.get(sessionKey);
    if (attaching === undefined) {
      attaching = this.manager
        .attach(sessionKey, initial)
        .then((attachment) => {
          const timer = setTimeout(() => {
            this.#httpAttachments.delete(sessionKey);
            attachment.release();
          }, this.#options.httpHoldMs);
          timer.unref();
          this.#httpAttachments.set(sessionKey, { release: () => attachment.release(), timer });
        })
        .finally(() => this.#httpAttaching.delete(sessionKey));
      this.#httpAttaching.set(sessionKey, attaching);
    }
    return attaching;
  }

  start(): void {
    this.reaper.start();
  }

  close(): void {
    this.reaper.stop();
    for (const { release, timer } of this.#httpAttachments.values()) {
      clearTimeout(timer);
      release();
    }
    this.#httpAttachments.clear();
    this.manager.close();
  }
}
