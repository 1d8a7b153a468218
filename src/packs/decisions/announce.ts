/**
 * Turns the corpus's refreshes into change announcements for the room.
 * Editors write in bursts (a save is often a write, a rename and a chmod,
 * spread over several refreshes), so changes are gathered until the corpus
 * has been quiet for `debounceMs`, then each file is announced once: an
 * edited decision as `resources/updated` for its URI, and any decision
 * added, removed or renamed as one `resources/list_changed`.
 */
import type { RoomAnnouncer } from '../../host/pack.js';
import type { CorpusChanges } from './corpus/corpus.js';

export const DEFAULT_ANNOUNCE_DEBOUNCE_MS = 100;

/** The timer the coalescer waits on; tests pass a controlled one. */
export interface AnnounceTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: AnnounceTimer = {
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface ChangeAnnouncerOptions {
  readonly announce: RoomAnnouncer;
  /** Corpus-relative path → resource URI. */
  uriOf(corpusPath: string): string;
  readonly debounceMs?: number | undefined;
  readonly timer?: AnnounceTimer | undefined;
}

export class ChangeAnnouncer {
  readonly #options: ChangeAnnouncerOptions;
  readonly #timer: AnnounceTimer;
  readonly #debounceMs: number;
  readonly #updated = new Set<string>();
  #listChanged = false;
  #pending: unknown;
  #closed = false;

  constructor(options: ChangeAnnouncerOptions) {
    this.#options = options;
    this.#timer = options.timer ?? realTimer;
    this.#debounceMs = options.debounceMs ?? DEFAULT_ANNOUNCE_DEBOUNCE_MS;
  }

  /** One refresh's changes: joins the current burst and restarts its quiet period. */
  note(changes: CorpusChanges): void {
    if (this.#closed) return;
    for (const p of changes.changed) this.#updated.add(p);
    if (changes.added.length > 0 || changes.removed.length > 0) this.#listChanged = true;
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = this.#timer.set(() => this.flush(), this.#debounceMs);
  }

  /** Announces the burst now. */
  flush(): void {
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
    const { announce, uriOf } = this.#options;
    const updated = [...this.#updated];
    const listChanged = this.#listChanged;
    this.#updated.clear();
    this.#listChanged = false;
    for (const p of updated) announce.resourceUpdated(uriOf(p));
    if (listChanged) announce.listChanged('resources');
  }

  close(): void {
    this.#closed = true;
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
  }
}
