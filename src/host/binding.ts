/**
 * A binding is what one connection (or one HTTP request) runs against: a
 * workspace, the packs' states for it, and the caller's session key. The
 * direct stdio server has exactly one; the daemon makes one per socket
 * connection or request from its rooms.
 */
import type { Pack } from './pack.js';

export interface Binding {
  readonly workspaceRoot: string;
  readonly sessionKey: string | undefined;
  /** The pack's state for this workspace, opened on first use. */
  stateOf<S>(pack: Pack<S>): S;
}

/** Pack states for one workspace root, opened lazily and closed together. */
export class Workspace {
  readonly #states = new Map<Pack<unknown>, unknown>();

  constructor(readonly root: string) {}

  stateOf<S>(pack: Pack<S>): S {
    if (!this.#states.has(pack as Pack<unknown>)) {
      this.#states.set(pack as Pack<unknown>, pack.open({ root: this.root }));
    }
    return this.#states.get(pack as Pack<unknown>) as S;
  }

  /** The pack's state when it was opened already, else undefined (never opens it: for status views). */
  openedStateOf<S>(pack: Pack<S>): S | undefined {
    return this.#states.get(pack as Pack<unknown>) as S | undefined;
  }

  close(): void {
    for (const [pack, state] of this.#states) pack.close?.(state);
    this.#states.clear();
  }

  bind(sessionKey: string | undefined): Binding {
    return { workspaceRoot: this.root, sessionKey, stateOf: (pack) => this.stateOf(pack) };
  }
}
