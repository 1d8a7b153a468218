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
  /** The pack's state for this workspace, opened on first use. */
  stateOf<S>(pack: Pack<S>): S;
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

  close(): void {
    for (const [pack, state] of this.#states) pack.close?.(state);
    this.#states.clear();
  }

  bind(sessionKey: string | undefined, rooms?: readonly string[]): Binding {
    return {
      workspaceRoot: this.root,
      sessionKey,
      ...(rooms === undefined ? {} : { rooms }),
      stateOf: (pack) => this.stateOf(pack),
    };
  }
}
