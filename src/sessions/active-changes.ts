/**
 * Announcements of a session's active binding changing (switch, disconnect,
 * a drop), so the composition can send `tools/list_changed` to that session
 * alone: which tools it may list (writes or not) follows its active workspace.
 */
import type { StoredBinding } from '../store/session-store.js';
import { toWorkspaceBinding } from './bindings.js';
import type { ActiveChange } from './manager-types.js';

export class ActiveChanges {
  readonly #listeners = new Set<(change: ActiveChange) => void>();
  readonly #onListenerError: ((error: unknown) => void) | undefined;

  constructor(onListenerError?: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  subscribe(listener: (change: ActiveChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Announces when the active binding is another activation than before (generations are unique). */
  announce(sessionKey: string, previous: StoredBinding | null, active: StoredBinding | null): void {
    if (previous?.generation === active?.generation) return;
    const change: ActiveChange = {
      sessionKey,
      active: active && toWorkspaceBinding(active),
      previous: previous && toWorkspaceBinding(previous),
    };
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        // A listener's failure must not undo or hide a change that is already committed.
        this.#onListenerError?.(error);
      }
    }
  }
}
