/**
 * The session layer: per session key, one active workspace binding and up to
 * eight parked ones, kept in the SessionStore and backed by loaded rooms.
 *
 * Races are settled by two counters and one lock per session. `intent`
 * advances on every connect to a new target and every disconnect, at call
 * time; a load carries the intent it started under and is installed only if
 * that is still the session's intent when it takes the lock, so a superseded
 * connect (A→B, or A→B→A's first A) is discarded and its room released. The
 * lock serialises installs, drops and their store writes. The record's
 * `generation` advances on every activation and drop and is what bindings
 * carry. Concurrent connects to the same target share one load.
 *
 * Rooms load lazily: after a restart a session's bindings come from the
 * store and each room loads on first use; a binding whose folder is gone is
 * then dropped as "unavailable", never served as an empty workspace.
 *
 * When daemons share the store, each call re-reads its session first: another
 * daemon's switch wins over this copy, whose notice may still be on the bus.
 */
import type { SessionClient, SessionRecord, StoredBinding } from '../store/session-store.js';
import { ActiveChanges } from './active-changes.js';
import {
  activate,
  bindingId,
  DEFAULT_MAX_PARKED,
  drop,
  findById,
  findByRoot,
  initialRecord,
  keyOf,
  markParkedUsed,
  parkedBehindFront,
  toWorkspaceBinding,
  type WorkspaceBinding,
  withSummary,
} from './bindings.js';
import type {
  ActiveChange,
  ConnectRequest,
  Disconnected,
  ResolvedWorkspace,
  SessionManagerOptions,
  SessionSnapshot,
  WorkspaceList,
} from './manager-types.js';
import { type RoomKey, roomId } from './rooms.js';
import {
  adoptStored,
  dropSession,
  keepCopyOnOutage,
  liveSnapshots,
  reapSessions,
  withClient,
  withStoredSessions,
  workspaceListOf,
} from './session-admin.js';
import { type RoomHandle, type SessionEntry, SessionTable } from './session-entry.js';
import {
  connectSuperseded,
  noActiveWorkspace,
  workspaceNotConnected,
  workspaceUnavailable,
} from './session-errors.js';
import {
  connectTarget,
  createWorkspacePolicy,
  namedRoot,
  type WorkspacePolicy,
  workspaceExists,
} from './workspace-path.js';

export type * from './manager-types.js';
export type { RoomHandle } from './session-entry.js';

export class SessionManager<H extends RoomHandle> {
  readonly maxParked: number;
  readonly #options: SessionManagerOptions<H>;
  readonly #policy: WorkspacePolicy;
  readonly #now: () => number;
  readonly #sessions: SessionTable<H>;
  readonly #changes: ActiveChanges;

  constructor(options: SessionManagerOptions<H>) {
    this.#options = options;
    this.maxParked = options.maxParked ?? DEFAULT_MAX_PARKED;
    this.#policy = options.policy ?? createWorkspacePolicy();
    this.#now = options.now ?? Date.now;
    this.#sessions = new SessionTable(options.store, this.#now);
    this.#changes = new ActiveChanges(options.onListenerError);
  }

  /** Sessions in memory (for /status and tests). */
  get loadedSessions(): number {
    return this.#sessions.size;
  }

  /** For the reaper: idle unattached sessions let go of rooms, then of memory; old stored ones are swept. */
  reap(now = this.#now()): Promise<{ released: number; forgotten: number; swept: number }> {
    return reapSessions(this.#sessions, this.#options, now);
  }

  /**
   * A connection (or request) of `sessionKey` begins. A session the store does not know begins
   * with `initial` active, unsaved until its first call (ensureStarted); a known one keeps what
   * it has, also when it has nothing active (a disconnect is not undone).
   */
  async attach(sessionKey: string, initial?: RoomKey): Promise<{ release(): void }> {
    const entry = await this.#sessions.open(sessionKey);
    // The session's first binding is no change to announce: the connection is new.
    if (initial !== undefined) await this.#start(entry, initial, false, true);
    return this.#sessions.attach(entry);
  }

  /**
   * Before a call: the session is saved (it was unsaved until its first call); one an operator
   * dropped meanwhile starts again like a new one, with `initial` active. `save` false is for
   * what is no call (a listing, a listen): a new session begins, unsaved.
   */
  async ensureStarted(sessionKey: string, initial: RoomKey, save = true): Promise<void> {
    const entry = await this.#sessions.open(sessionKey);
    if (!entry.stored) await this.#start(entry, initial, true, !save);
    if (save && entry.provisional) await entry.lock.run(() => this.#persistProvisional(entry));
    else if (this.#options.sharedStore === true)
      await entry.lock.run(() => this.#adoptStored(entry)).catch(keepCopyOnOutage);
  }

  /** The first save of a session begun unsaved; a record stored meanwhile (another daemon) wins over our default. */
  async #persistProvisional(entry: SessionEntry<H>): Promise<void> {
    if (entry.provisional && !(await this.#adoptStored(entry)))
      await this.#commit(entry, entry.record, [], false, true);
  }

  /** The store is the truth: what it holds for the session replaces what this daemon last read (under the lock). */
  async #adoptStored(entry: SessionEntry<H>): Promise<boolean> {
    const stored = await this.#options.store.load(entry.record.key);
    if (stored === undefined) return false;
    const previous = entry.record.active;
    adoptStored(entry, stored);
    this.#changes.announce(stored.key, previous, stored.active);
    return true;
  }

  async #start(
    entry: SessionEntry<H>,
    initial: RoomKey,
    announce: boolean,
    provisional: boolean,
  ): Promise<void> {
    if (entry.stored) return;
    await entry.lock.run(async () => {
      if (entry.stored) return;
      entry.provisional = provisional;
      await this.#commit(entry, initialRecord(entry.record, initial, this.#now()), [], announce);
    });
  }

  async connect(sessionKey: string, request: ConnectRequest): Promise<WorkspaceBinding> {
    const key = connectTarget(this.#policy, request);
    const entry = await this.#sessions.open(sessionKey);
    const id = roomId(key);
    // Join a load for the same target only while it is still the session's latest intent.
    const inflight = entry.inflight;
    if (inflight?.id === id && inflight.intent === entry.intent) return inflight.promise;
    entry.intent += 1;
    const promise = this.#activate(entry, key, id, entry.intent);
    entry.inflight = { id, intent: entry.intent, promise };
    const settle = () => {
      if (entry.inflight?.promise === promise) entry.inflight = undefined;
    };
    promise.then(settle, settle);
    return promise;
  }

  async #activate(
    entry: SessionEntry<H>,
    key: RoomKey,
    id: string,
    intent: number,
  ): Promise<WorkspaceBinding> {
    entry.touch(this.#now());
    const fresh = entry.rooms.has(id) ? undefined : await this.#options.loadRoom(key);
    const installed = await entry.lock.run(async () => {
      if (entry.intent !== intent) {
        fresh?.release();
        throw connectSuperseded(key.root);
      }
      // A first use may have loaded the same room while this load ran: keep that one.
      const existing = entry.rooms.get(id);
      if (existing !== undefined && fresh !== undefined) fresh.release();
      const room = existing ?? fresh;
      // The room held when this connect began was let go meanwhile (a detach): load it again.
      if (room === undefined) return undefined;
      let installed: StoredBinding;
      try {
        const summary = this.#options.summarize(room);
        const activation = activate(entry.record, key, summary, this.#now(), this.maxParked);
        // A connect is the session's own doing: it is saved, also when it was unsaved.
        await this.#commit(entry, activation.record, activation.removed, true, true);
        installed = activation.active;
      } catch (error) {
        if (existing === undefined) room.release();
        throw error;
      }
      entry.rooms.set(id, room);
      return toWorkspaceBinding(installed);
    });
    return installed ?? this.#activate(entry, key, id, intent);
  }

  /** No root: the active binding ends (nothing becomes active). With a root: that binding ends. */
  async disconnect(sessionKey: string, root?: string): Promise<Disconnected> {
    const entry = await this.#sessions.open(sessionKey);
    // A connect still loading must not install after the disconnect that followed it.
    entry.intent += 1;
    return entry.lock.run(async () => {
      const record = entry.record;
      const named = root === undefined ? undefined : namedRoot(this.#policy, root);
      const target = named === undefined ? record.active : findByRoot(record, named);
      if (target === null) throw noActiveWorkspace(record, this.maxParked);
      if (target === undefined) throw workspaceNotConnected(record, named ?? '', this.maxParked);
      const transition = drop(record, bindingId(target), 'disconnected', this.#now());
      await this.#commit(entry, transition.record, transition.removed, true, true);
      const active = entry.record.active;
      return { disconnected: toWorkspaceBinding(target), active: active && toWorkspaceBinding(active) };
    });
  }

  async list(sessionKey: string): Promise<WorkspaceList> {
    return workspaceListOf((await this.#sessions.open(sessionKey)).record);
  }

  /**
   * The binding a tool call runs in: the connected workspace `workspace`
   * names (active or parked), else the active one. Loads its room on first use.
   */
  async resolve(
    sessionKey: string,
    workspace?: string,
    options: { readonly use?: boolean } = {},
  ): Promise<ResolvedWorkspace<H>> {
    const entry = await this.#sessions.open(sessionKey);
    const now = this.#now();
    const use = options.use ?? true;
    entry.touch(now);
    if (use) await this.#sessions.touchStore(entry, now);
    const record = entry.record;
    const named = workspace === undefined ? undefined : namedRoot(this.#policy, workspace);
    const target = named === undefined ? record.active : findByRoot(record, named);
    if (target === null) throw noActiveWorkspace(record, this.maxParked);
    if (target === undefined) throw workspaceNotConnected(record, named ?? '', this.maxParked);
    const id = bindingId(target);
    const room = entry.rooms.get(id) ?? (await this.#firstUse(entry, id));
    if (use && parkedBehindFront(entry.record, id)) {
      // Naming a parked workspace uses it: it is now the last to be evicted.
      await entry.lock.run(() => this.#commit(entry, markParkedUsed(entry.record, id, this.#now()), []));
    }
    const current = findById(entry.record, id) ?? target;
    return { binding: toWorkspaceBinding(current), key: keyOf(current), room };
  }

  /** Concurrent first uses of one binding share its load. */
  #firstUse(entry: SessionEntry<H>, id: string): Promise<H> {
    const pending = entry.loading.get(id);
    if (pending !== undefined) return pending;
    const loading = this.#loadBound(entry, id);
    entry.loading.set(id, loading);
    const settle = () => entry.loading.delete(id);
    loading.then(settle, settle);
    return loading;
  }

  async #loadBound(entry: SessionEntry<H>, id: string): Promise<H> {
    const bound = findById(entry.record, id);
    if (bound === undefined) throw noActiveWorkspace(entry.record, this.maxParked);
    const key = keyOf(bound);
    if (!(this.#options.isAvailable ?? workspaceExists)(key)) {
      return entry.lock.run(async () => {
        const transition = drop(entry.record, id, 'unavailable', this.#now());
        if (transition.removed.length > 0) await this.#commit(entry, transition.record, transition.removed);
        throw workspaceUnavailable(key.root, this.maxParked);
      });
    }
    const room = await this.#options.loadRoom(key);
    return entry.lock.run(async () => {
      // The binding may have ended while its room loaded (disconnected, evicted): do not hold it then.
      if (findById(entry.record, id) === undefined) {
        room.release();
        throw entry.record.active === null
          ? noActiveWorkspace(entry.record, this.maxParked)
          : workspaceNotConnected(entry.record, key.root, this.maxParked);
      }
      try {
        await this.#commit(entry, withSummary(entry.record, id, this.#options.summarize(room)), []);
      } catch (error) {
        room.release();
        throw error;
      }
      entry.rooms.set(id, room);
      return room;
    });
  }

  /** The roots of the rooms the session holds now (loaded bindings), for event routing and status. */
  heldRooms(sessionKey: string): RoomKey[] {
    const entry = this.#sessions.loaded(sessionKey);
    if (entry === undefined) return [];
    return [...entry.rooms.keys()].flatMap((id) => {
      const bound = findById(entry.record, id);
      return bound === undefined ? [] : [keyOf(bound)];
    });
  }

  /** The session's active binding, when it is in memory (tools/list filtering needs an answer now). */
  activeBinding(sessionKey: string): WorkspaceBinding | null {
    const active = this.#sessions.loaded(sessionKey)?.record.active;
    return active ? toWorkspaceBinding(active) : null;
  }

  /** Whether write tools may be listed for the session: its active workspace is write-allowed. */
  writeAllowed(sessionKey: string): boolean {
    const active = this.activeBinding(sessionKey);
    return active !== null && (this.#options.writeAllowed?.(active.root) ?? false);
  }

  /** Called after a session's active binding changed (switch, disconnect, drop); returns the unsubscribe. */
  onActiveChanged(listener: (change: ActiveChange) => void): () => void {
    return this.#changes.subscribe(listener);
  }

  /** Writes `record` (not while provisional), makes it the session's, releases `removed`, announces the active. */
  async #commit(
    entry: SessionEntry<H>,
    record: SessionRecord,
    removed: readonly StoredBinding[],
    announce = true,
    persist = false,
  ): Promise<void> {
    const previous = entry.record.active;
    if (persist) entry.provisional = false;
    if (!entry.provisional) await this.#options.store.save(record);
    entry.record = record;
    entry.stored = true;
    if (!entry.provisional) this.#options.onSaved?.(record.key);
    for (const binding of removed) entry.releaseRoom(bindingId(binding));
    if (announce) this.#changes.announce(record.key, previous, record.active);
  }

  /** Another daemon changed this session in the shared store: re-read it (connects in flight here lose). */
  async reloadFromStore(sessionKey: string): Promise<void> {
    const entry = this.#sessions.loaded(sessionKey);
    if (entry === undefined) return;
    entry.intent += 1;
    await entry.lock.run(() => this.#adoptStored(entry));
  }

  /** Keys of the sessions in memory: what a session tag heard from another daemon may name. */
  loadedKeys(): string[] {
    return [...this.#sessions.entries()].map((entry) => entry.record.key);
  }

  /** The sessions in memory, for operators: those that have begun (a dropped one begins again on its next call). */
  snapshots(): SessionSnapshot[] {
    return liveSnapshots(this.#sessions.entries());
  }

  /** Every session, in memory or only in the store, most recently used first. */
  allSnapshots(): Promise<SessionSnapshot[]> {
    return withStoredSessions(this.snapshots(), this.#options.store);
  }

  /** A handshake's client: kept in memory until the first call stores the session, rewritten when it changed. */
  async noteClient(sessionKey: string, client: SessionClient): Promise<void> {
    const entry = await this.#sessions.open(sessionKey);
    await entry.lock.run(async () => {
      const record = withClient(entry.record, client);
      if (record === undefined) return;
      if (entry.stored) await this.#commit(entry, record, [], false);
      else entry.record = record;
    });
  }

  /**
   * Forgets a session (an operator's drop): its record leaves the store, its
   * rooms are released, a connect still loading is superseded. A connection
   * still attached keeps its key; its next call starts the session again
   * (ensureStarted). Returns false when neither memory nor store knew it.
   */
  drop(sessionKey: string): Promise<boolean> {
    return dropSession(this.#sessions, this.#options.store, this.#changes, sessionKey, this.#now());
  }

  /** Releases every room the sessions hold (shutdown). */
  close(): void {
    this.#sessions.releaseAll();
  }
}
