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
 *
 * Updates do not wait for the quiet period: the first refresh of a burst
 * that finds a file there before and there now, parsed as a decision, says
 * `resources/updated` for it at once (an editor's single save reaches the
 * client in the time of one refresh). A refresh that finds it empty or gone
 * says nothing then; the burst's end settles it as above. So per burst and
 * file a subscriber hears one `updated`, and a second one at the end only
 * when a later refresh read different text than the first one announced
 * (the client may have read the older text in between). Each refresh tells
 * what it read as a version (a hash of the text), so writing the same text
 * again and again is not a second update.
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

interface Touched {
  /** A decision when the burst began. */
  readonly before: boolean;
  /** The version the latest refresh read; null when it found no decision. */
  now: string | null;
  /** The version announced on the leading edge, if one was. */
  announced: string | undefined;
  /** A later refresh read another version than the announced one. */
  diverged: boolean;
}

export class ChangeAnnouncer {
  readonly #options: ChangeAnnouncerOptions;
  readonly #timer: AnnounceTimer;
  readonly #debounceMs: number;
  /** Files touched in this burst: whether each was a decision at its start, and is one now. */
  readonly #touched = new Map<string, Touched>();
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
    const versionOf = (p: string) => changes.versions?.get(p) ?? '';
    for (const p of changes.changed) this.#touch(p, true, versionOf(p));
    for (const p of changes.removed) this.#touch(p, true, null);
    for (const p of changes.added) this.#touch(p, false, versionOf(p));
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
    for (const [p, t] of touched) {
      const now = t.now !== null;
      if (t.before && now) {
        if (t.announced === undefined || t.diverged) announce.resourceUpdated(uriOf(p));
      } else if (t.before !== now) listChanged = true;
    }
    if (listChanged) announce.listChanged('resources');
  }

  /** `now`: the version the refresh read, null when the file is no decision now. */
  #touch(corpusPath: string, before: boolean, now: string | null): void {
    let t = this.#touched.get(corpusPath);
    if (t === undefined) {
      t = { before, now, announced: undefined, diverged: false };
      this.#touched.set(corpusPath, t);
    }
    t.now = now;
    if (now === null || !t.before) return;
    if (t.announced === undefined) {
      // The leading edge: there before, there and parsed now.
      t.announced = now;
      this.#options.announce.resourceUpdated(this.#options.uriOf(corpusPath));
    } else if (now !== t.announced) t.diverged = true;
  }

  close(): void {
    this.#closed = true;
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
  }
}
