/**
 * The session manager's public shapes: its options (what the composition
 * injects: store, room loader, summary, path and write policies, clock) and
 * what its operations return.
 */
import type { SessionClient, SessionDrop, SessionStore } from '../store/session-store.js';
import type { RoomSummary, WorkspaceBinding } from './bindings.js';
import type { RoomKey } from './rooms.js';
import type { RoomHandle } from './session-entry.js';
import type { WorkspacePolicy } from './workspace-path.js';

export interface SessionManagerOptions<H extends RoomHandle> {
  readonly store: SessionStore;
  /** Joins (loading if needed) the room of a workspace. A MoorError it throws reaches the agent. */
  loadRoom(key: RoomKey): Promise<H>;
  /** The counts a loaded room reports (the lead maps the decisions pack's corpus onto them). */
  summarize(room: H): RoomSummary;
  /** Which paths connect accepts; default: directories owned by this process's user. */
  readonly policy?: WorkspacePolicy;
  /** Whether a bound workspace still exists; default: its root (and decisions folder) are directories. */
  isAvailable?(key: RoomKey): boolean;
  /** Whether tools that write may run in `root` (`--allow-writes DIR`); default: never. */
  writeAllowed?(root: string): boolean;
  readonly maxParked?: number;
  now?(): number;
  /** An unattached session lets go of its rooms after this long unused (default 5 min). */
  readonly holdIdleMs?: number;
  /** An unattached session leaves memory after this long unused (default 24 h; the store keeps it). */
  readonly forgetIdleMs?: number;
  /** Stored sessions unused this many days are swept (default 7). */
  readonly retentionDays?: number;
  /** Called when an active-change listener throws (the change itself stands). */
  onListenerError?(error: unknown): void;
  /** A session's record was written (other daemons sharing the store are told through this). */
  onSaved?(sessionKey: string): void;
  /**
   * Other daemons write the same store: each call re-reads its session's
   * record first, so a switch made on another daemon a moment ago is what
   * this call serves (their notice of it may still be on its way).
   */
  readonly sharedStore?: boolean;
}

export interface WorkspaceList {
  readonly active: WorkspaceBinding | null;
  /** Most recently used first. */
  readonly parked: readonly WorkspaceBinding[];
  readonly lastDrop: SessionDrop | null;
}

/** What a tool call runs against. */
export interface ResolvedWorkspace<H> {
  readonly binding: WorkspaceBinding;
  readonly key: RoomKey;
  readonly room: H;
}

export interface ActiveChange {
  readonly sessionKey: string;
  readonly active: WorkspaceBinding | null;
  readonly previous: WorkspaceBinding | null;
}

export interface ConnectRequest {
  /** The workspace root: absolute, or relative to `base`. */
  readonly root: string;
  /** A decision folder, absolute or relative to the root. */
  readonly decisions?: string | undefined;
  readonly base?: string | undefined;
}

export interface Disconnected {
  readonly disconnected: WorkspaceBinding;
  readonly active: WorkspaceBinding | null;
}

/** A binding as an operator sees it: whether the session holds its room now. */
export interface HeldBinding extends WorkspaceBinding {
  readonly loaded: boolean;
}

/** One session for operators (`moor sessions`, status): its bindings and who is attached. */
export interface SessionSnapshot {
  readonly key: string;
  readonly active: HeldBinding | null;
  /** Most recently used first. */
  readonly parked: readonly HeldBinding[];
  readonly lastDrop: SessionDrop | null;
  /** Connections attached now (a socket connection each; an HTTP session counts once while it is held). */
  readonly attachments: number;
  readonly lastUsedAt: number;
  /** False for a session only the store knows (e.g. after a restart, before it connected again). */
  readonly inMemory: boolean;
  /** The client its latest handshake named; null when none was seen. */
  readonly client: SessionClient | null;
}
