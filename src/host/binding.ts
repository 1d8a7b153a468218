/**
 * A binding is what one connection (or one HTTP request) runs against: a
 * workspace, the packs' states for it, and the caller's session key. The
 * direct stdio server has exactly one; the daemon makes one per socket
 * connection or request from its rooms.
 */
import type { Pack, RoomAnnouncer } from './pack.js';

export interface Binding {
  readonly workspaceRoot: string;
  readonly sessionKey: string | undefined;
  /**
   * The rooms whose change events this binding's connection hears, the
   * active one first (announcements made during a request go there). Absent:
   * the binding hears nothing and announces nothing.
   */
  readonly rooms?: readonly string[];
  /** True when `rooms` changes while the binding lives (a session's): listeners ask it at each event. */
  readonly roomsChange?: boolean;
  /** Keeps what the binding serves loaded while a long-lived stream is open; returns the release. */
  hold?(): () => void;
  /** The pack's state for this workspace, opened on first use. */
  stateOf<S>(pack: Pack<S>): S;
  /**
   * Present when the caller has a session of several workspaces: the binding
   * a call runs in, for the connected workspace `named` names (active or
   * parked), else the session's active one. Rejects with a ToolError saying
   * why there is none. Absent: this binding is the one workspace of every call.
   */
  select?(named: string | undefined): Promise<Binding>;
  /**
   * Begins the caller's session when it must begin before use (an HTTP
   * session's first request, a session an operator dropped): what select()
   * awaits first, and what session-level tools await before they run. Not
   * optional, so no binding (and no wrapper of one) can leave it out: a
   * binding with nothing to begin resolves at once.
   */
  ready(): Promise<void>;
  /** The other connected workspaces (parked ones), for resources/list; absent: none. */
  others?(): Promise<ReadonlyArray<{ readonly root: string; readonly binding: Binding }>>;
  /** Whether write tools are listed for the caller now (its active workspace allows writes); absent: yes. */
  writesListed?(): boolean | Promise<boolean>;
  /** Whether write tools may run in this (selected) workspace; absent: yes. */
  readonly writable?: boolean;
  /** Calls `listener` when this caller's tool list changed (its session switched); returns the unsubscribe. */
  onToolsChanged?(listener: () => void): () => void;
}

/** The binding one call runs in: the one `named` selects when the binding has sessions, else the binding itself. */
export function selectBinding(binding: Binding, named: string | undefined): Promise<Binding> {
  return binding.select === undefined ? Promise.resolve(binding) : binding.select(named);
}

/** Pack states for one workspace root, opened lazily and closed together. */
export class Workspace {
  readonly #states = new Map<Pack<unknown>, unknown>();

  readonly #announce: RoomAnnouncer | undefined;

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

  bind(sessionKey: string | undefined, rooms?: readonly string[]): Binding {
    return {
      workspaceRoot: this.root,
      sessionKey,
      ...(rooms === undefined ? {} : { rooms }),
      ready: () => Promise.resolve(),
      stateOf: (pack) => this.stateOf(pack),
    };
  }
}
