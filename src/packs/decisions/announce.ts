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
 *
 * A burst whose last refresh found a file still there but no decision (empty
 * or half-written: a save caught between its truncate and its write) is not
 * settled at its quiet period: that file's next write is on its way, and
 * settling now would tell a removal and then an addition where there was
 * one update. The burst is held open for up to `unreadableHoldMs`; a file
 * still unreadable then is settled as it stands.
 *
 * Someone may read the list while a burst is open (a proxy checking whether
 * a push is news, a client re-listing after an earlier notification), and
 * then holds the list as it stood in the middle of the burst. Its end is
 * compared with what that reader saw as well: a marker removed and added
 * back within one burst is no change to a reader who listed before it, but
 * one to a reader who listed while it was gone, and that reader must hear
 * it, or it keeps the gap until some later change.
 */
import type { RoomAnnouncer } from '../../host/pack.js';
import type { CorpusChanges } from './corpus/corpus.js';

export const DEFAULT_ANNOUNCE_DEBOUNCE_MS = 100;
/** How long a burst waits for a file caught empty or half-written to be written out. */
export const DEFAULT_UNREADABLE_HOLD_MS = 1000;

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
  readonly unreadableHoldMs?: number | undefined;
  readonly timer?: AnnounceTimer | undefined;
  /** Milliseconds on a monotonic clock; tests pass a controlled one. */
  readonly clock?: (() => number) | undefined;
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
  /** The latest refresh found the file there, but no decision in it. */
  unreadable: boolean;
  /** A decision as the list last read showed it (its state at the burst's start until a list is read). */
  listedAs: boolean;
}

export class ChangeAnnouncer {
  readonly #options: ChangeAnnouncerOptions;
  readonly #timer: AnnounceTimer;
  readonly #debounceMs: number;
  readonly #holdMs: number;
  readonly #clock: () => number;
  /** When the burst was first held open for an unreadable file; undefined when it is not held. */
  #heldSince: number | undefined;
  /** Files touched in this burst: whether each was a decision at its start, and is one now. */
  readonly #touched = new Map<string, Touched>();
  #pending: unknown;
  #closed = false;

  constructor(options: ChangeAnnouncerOptions) {
    this.#options = options;
    this.#timer = options.timer ?? realTimer;
    this.#debounceMs = options.debounceMs ?? DEFAULT_ANNOUNCE_DEBOUNCE_MS;
    this.#holdMs = options.unreadableHoldMs ?? DEFAULT_UNREADABLE_HOLD_MS;
    this.#clock = options.clock ?? (() => performance.now());
  }

  /** One refresh's changes: joins the current burst and restarts its quiet period. */
  note(changes: CorpusChanges): void {
    if (this.#closed) return;
    // A changed or removed file was there before this refresh, an added one was not.
    const versionOf = (p: string) => changes.versions?.get(p) ?? '';
    const unreadable = new Set(changes.unreadable ?? []);
    for (const p of changes.changed) this.#touch(p, true, versionOf(p));
    for (const p of changes.removed) this.#touch(p, true, null, unreadable.has(p));
    for (const p of changes.added) this.#touch(p, false, versionOf(p));
    this.#arm(this.#debounceMs);
  }

  /**
   * The list was read while this burst is open: its end is compared with
   * what that read showed too. Call after the refresh that the read saw.
   */
  listed(): void {
    for (const t of this.#touched.values()) t.listedAs = t.now !== null;
  }

  #arm(ms: number): void {
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = this.#timer.set(() => this.#quiet(), ms);
  }

  /** The quiet period is over: settle the burst, unless a file caught half-written still may be written out. */
  #quiet(): void {
    this.#pending = undefined;
    const waiting = [...this.#touched.values()].some((t) => t.before && t.now === null && t.unreadable);
    if (waiting) {
      const now = this.#clock();
      this.#heldSince ??= now;
      const left = this.#heldSince + this.#holdMs - now;
      if (left > 0) {
        this.#arm(Math.min(left, this.#debounceMs));
        return;
      }
    }
    this.flush();
  }

  /** Announces the burst now. */
  flush(): void {
    if (this.#pending !== undefined) this.#timer.clear(this.#pending);
    this.#pending = undefined;
    this.#heldSince = undefined;
    const { announce, uriOf } = this.#options;
    const touched = [...this.#touched];
    this.#touched.clear();
    let listChanged = false;
    for (const [p, t] of touched) {
      const now = t.now !== null;
      if (t.before && now) {
        if (t.announced === undefined || t.diverged) announce.resourceUpdated(uriOf(p));
      } else if (t.before !== now) listChanged = true;
      if (t.listedAs !== now) listChanged = true;
    }
    if (listChanged) announce.listChanged('resources');
  }

  /** `now`: the version the refresh read, null when the file is no decision now. */
  #touch(corpusPath: string, before: boolean, now: string | null, unreadable = false): void {
    let t = this.#touched.get(corpusPath);
    if (t === undefined) {
      t = { before, now, announced: undefined, diverged: false, unreadable, listedAs: before };
      this.#touched.set(corpusPath, t);
    }
    t.now = now;
    t.unreadable = unreadable;
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
