/**
 * The seam between the host and whoever hosts it, in two parts:
 *
 * - a `CallerScope` is who is asking: the caller's session key, the rooms
 *   its connection hears, the tools it sees, and how it picks the workspace
 *   of each call. The direct stdio server has one; the daemon makes one per
 *   socket connection or HTTP request.
 * - a `CallWorkspace` is the workspace one call runs in: its root, its pack
 *   states, whether write tools may run there.
 *
 * Neither has optional members, so a wrapper (an HTTP request's lazy scope)
 * cannot forget to pass one on: the compiler names what it lacks.
 * ("Binding" is the session's record of a workspace it connected, in
 * src/sessions; this file holds no binding.)
 */
import type { Pack, RoomAnnouncer } from './pack.js';

export interface CallWorkspace {
  readonly root: string;
  /** Whether write tools may run here (`--allow-writes`). */
  readonly writable: boolean;
  /** The pack's state for this workspace, opened on first use. */
  stateOf<S>(pack: Pack<S>): S;
}

export interface CallerScope {
  readonly sessionKey: string | undefined;
  /**
   * The rooms whose change events this caller's connection hears, the active
   * one first (announcements made during a request go there); empty: it
   * hears nothing and announces nothing.
   */
  rooms(): readonly string[];
  /** True when `rooms()` changes while the scope lives (a session's): listeners ask it at each event. */
  readonly roomsChange: boolean;
  /** True when calls and resource URIs may name one of several workspaces (a session's scope). */
  readonly namesWorkspaces: boolean;
  /** Keeps what the scope serves loaded while a long-lived stream is open; returns the release. */
  hold(): () => void;
  /**
   * Makes the caller's session one that is kept: a session begins unsaved
   * and is stored at its first tool call (one that never makes a call
   * leaves nothing behind), and one an operator dropped begins again. What
   * every tools/call awaits before it runs.
   */
  ready(): Promise<void>;
  /**
   * The workspace a call runs in: the connected one `named` names (active or
   * parked), else the active one. Rejects with a MoorError saying why there
   * is none.
   */
  select(named: string | undefined): Promise<CallWorkspace>;
  /** The other connected workspaces (parked ones), for resources/list. */
  others(): Promise<ReadonlyArray<{ readonly root: string; readonly workspace: CallWorkspace }>>;
  /** Whether write tools are listed for the caller now (its active workspace allows writes). */
  writesListed(): Promise<boolean>;
  /** Calls `listener` when this caller's tool list changed (its session switched); returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
}

export interface OneWorkspaceOptions {
  readonly sessionKey: string | undefined;
  /** The rooms its connection hears (none by default). */
  readonly rooms?: readonly string[];
  /** What naming another workspace is answered with; by default the name is ignored. */
  refuseOther?(named: string): Error;
}

/** The scope of a caller who has exactly one workspace (no session of several): every call runs there. */
export function oneWorkspaceScope(workspace: CallWorkspace, options: OneWorkspaceOptions): CallerScope {
  const rooms = options.rooms ?? [];
  return {
    sessionKey: options.sessionKey,
    rooms: () => rooms,
    roomsChange: false,
    namesWorkspaces: false,
    hold: () => () => {},
    ready: () => Promise.resolve(),
    select: async (named) => {
      if (named !== undefined && named !== workspace.root && options.refuseOther !== undefined)
        throw options.refuseOther(named);
      return workspace;
    },
    others: async () => [],
    writesListed: async () => true,
    onToolsChanged: () => () => {},
  };
}

/** Pack states for one workspace root, opened lazily and closed together. */
export class Workspace implements CallWorkspace {
  readonly #states = new Map<Pack<unknown>, unknown>();

  readonly #announce: RoomAnnouncer | undefined;

  /** A workspace of its own (tests, the one-shot CLI) allows writes; the daemon's rooms decide per root. */
  readonly writable = true;

  constructor(
    readonly root: string,
    announce?: RoomAnnouncer,
  ) {
    this.#announce = announce;
  }

  stateOf<S>(pack: Pack<S>): S {
    if (!this.#states.has(pack as Pack<unknown>)) {
      const info =
        this.#announce === undefined ? { root: this.root } : { root: this.root, announce: this.#announce };
      this.#states.set(pack as Pack<unknown>, pack.open(info));
    }
    return this.#states.get(pack as Pack<unknown>) as S;
  }

  /** The pack's state when it is open already; never opens it (status must not load a corpus). */
  opened<S>(pack: Pack<S>): S | undefined {
    return this.#states.get(pack as Pack<unknown>) as S | undefined;
  }

  close(): void {
    for (const [pack, state] of this.#states) pack.close?.(state);
    this.#states.clear();
  }

  /** This workspace as the one scope of a caller. */
  scope(sessionKey: string | undefined, rooms?: readonly string[]): CallerScope {
    return oneWorkspaceScope(this, { sessionKey, ...(rooms === undefined ? {} : { rooms }) });
  }
}
