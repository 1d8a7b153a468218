/**
 * Turns the corpus's refreshes into change announcements for the room.
 * Editors write in bursts (a save is often a write, a rename and a chmod,
 * spread over several refreshes), so changes are gathered until the corpus
 * has been quiet for `debounceMs`, then each file is announced once.
 *
 * What is announced is the difference between the burst's start and its
 * end, not the sum of the refreshes in between: a file rewritten by
 * truncating it first is, for a moment, empty (no decision), and a refresh
 * that catches that moment reports it removed, the next one added again.
 * So each file's presence when the burst began (from the first refresh that
 * touched it) is compared with its presence at the end: present both times
 * is one `resources/updated` for its URI; present only once is a change of
 * the list (one `resources/list_changed` for the burst); absent both times
 * (a file that came and went) is nothing.
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
  /** Files touched in this burst: whether each was a decision at its start, and is one now. */
  readonly #touched = new Map<string, { readonly before: boolean; now: boolean }>();
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
    // A changed or removed file was there before this refresh, an added one was not.
    for (const p of changes.changed) this.#touch(p, true, true);
    for (const p of changes.removed) this.#touch(p, true, false);
    for (const p of changes.added) this.#touch(p, false, true);
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = this.#timer.set(() => this.flush(), this.#debounceMs);
  }

  /** Announces the burst now. */
  flush(): void {
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
    const { announce, uriOf } = this.#options;
    const touched = [...this.#touched];
    this.#touched.clear();
    let listChanged = false;
    for (const [p, { before, now }] of touched) {
      if (before && now) announce.resourceUpdated(uriOf(p));
      else if (before !== now) listChanged = true;
    }
    if (listChanged) announce.listChanged('resources');
  }

  #touch(corpusPath: string, before: boolean, now: boolean): void {
    const known = this.#touched.get(corpusPath);
    if (known === undefined) this.#touched.set(corpusPath, { before, now });
    else known.now = now;
  }

  close(): void {
    this.#closed = true;
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
  }
}
