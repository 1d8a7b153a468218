/**
 * How many resource URIs listen streams may hold: at most `maxUris`
 * distinct URIs on one stream, at most `maxPerSession` (stream, URI) pairs
 * across one session's streams (streams without a session share one such
 * share), and `maxMemberships` pairs across every stream of the daemon (a
 * URI two streams watch counts twice). Without the session share one client
 * could open streams until the daemon's bound is spent and every other
 * session is refused. A URI that names no resource costs nothing from the
 * session's or the daemon's bound (it can never fire, and made-up URIs are
 * how a client would fill them); it still counts on its stream.
 * A stream over any bound is refused before its acknowledgement; the first
 * refusal of the budget's lifetime is logged once as a warning (a client in
 * a loop would otherwise fill the log). Closing a stream gives its
 * memberships back.
 */
import { MoorError } from '../../errors.js';

export const DEFAULT_LISTEN_MAX_URIS = 256;
export const DEFAULT_LISTEN_MAX_MEMBERSHIPS = 4096;

export interface ListenBudgetOptions {
  readonly maxUris?: number | undefined;
  readonly maxMemberships?: number | undefined;
  /** Default: a quarter of maxMemberships, and never less than maxUris (one full stream). */
  readonly maxPerSession?: number | undefined;
  /** Called once, on the first refusal. */
  warn?(message: string): void;
}

/** Whose stream it is, and which of its URIs name a resource (the others cost no share). */
export interface ListenShare {
  readonly owner: string | undefined;
  readonly names?: (uri: string) => boolean;
}

export class ListenBudget {
  readonly maxUris: number;
  readonly maxMemberships: number;
  readonly maxPerSession: number;
  readonly #warn: ((message: string) => void) | undefined;
  readonly #bySession = new Map<string, number>();
  #held = 0;
  #warned = false;

  constructor(options: ListenBudgetOptions = {}) {
    this.maxUris = options.maxUris ?? DEFAULT_LISTEN_MAX_URIS;
    this.maxMemberships = options.maxMemberships ?? DEFAULT_LISTEN_MAX_MEMBERSHIPS;
    this.maxPerSession = options.maxPerSession ?? Math.max(this.maxUris, Math.floor(this.maxMemberships / 4));
    this.#warn = options.warn;
  }

  /** Memberships held by open streams. */
  get held(): number {
    return this.#held;
  }

  /** Memberships held by one session's streams (undefined: the streams without a session). */
  heldBy(owner: string | undefined): number {
    return this.#bySession.get(owner ?? '') ?? 0;
  }

  /**
   * Reserves one stream's URIs; returns the release (idempotent). Throws
   * `LISTEN_LIMIT` when the stream, its session or the daemon would go over
   * its bound. Without `share` (one client in process) there is no session
   * share and every URI counts.
   */
  reserve(uris: readonly string[], share?: ListenShare): () => void {
    const distinct = [...new Set(uris)];
    if (distinct.length > this.maxUris) {
      this.#refuse(
        `A listen stream may watch at most ${this.maxUris} resource URIs; this one asks for ${distinct.length}. Split it into several streams or watch fewer resources.`,
      );
    }
    const names = share?.names;
    const count = names === undefined ? distinct.length : distinct.filter((uri) => names(uri)).length;
    const bucket = share === undefined ? undefined : (share.owner ?? '');
    if (bucket !== undefined) {
      const mine = this.#bySession.get(bucket) ?? 0;
      if (mine + count > this.maxPerSession) {
        this.#refuse(
          `This session's listen streams already watch ${mine} resource URIs (at most ${this.maxPerSession} per session); this stream's ${count} more do not fit. Close some of its streams or watch fewer resources.`,
        );
      }
    }
    if (this.#held + count > this.maxMemberships) {
      this.#refuse(
        `The daemon's listen streams already watch ${this.#held} resource URIs (at most ${this.maxMemberships}); this stream's ${count} more do not fit. Close other streams or watch fewer resources.`,
      );
    }
    this.#held += count;
    if (bucket !== undefined) this.#bySession.set(bucket, (this.#bySession.get(bucket) ?? 0) + count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= count;
      if (bucket === undefined) return;
      const left = (this.#bySession.get(bucket) ?? 0) - count;
      if (left > 0) this.#bySession.set(bucket, left);
      else this.#bySession.delete(bucket);
    };
  }

  #refuse(message: string): never {
    if (!this.#warned) {
      this.#warned = true;
      this.#warn?.(`listen stream refused: ${message} (logged once)`);
    }
    throw new MoorError('LISTEN_LIMIT', message, {
      maxUris: this.maxUris,
      maxMemberships: this.maxMemberships,
      maxPerSession: this.maxPerSession,
    });
  }
}
