/**
 * How many resource URIs listen streams may hold: at most `maxUris`
 * distinct URIs on one stream, and `maxMemberships` (stream, URI) pairs
 * across every stream of the daemon (a URI two streams watch counts twice).
 * A stream over either bound is refused before its acknowledgement; the
 * first refusal of the budget's lifetime is logged once as a warning (a
 * client in a loop would otherwise fill the log). Closing a stream gives its
 * memberships back.
 */
import { MoorError } from '../../errors.js';

export const DEFAULT_LISTEN_MAX_URIS = 256;
export const DEFAULT_LISTEN_MAX_MEMBERSHIPS = 4096;

export interface ListenBudgetOptions {
  readonly maxUris?: number | undefined;
  readonly maxMemberships?: number | undefined;
  /** Called once, on the first refusal. */
  warn?(message: string): void;
}

export class ListenBudget {
  readonly maxUris: number;
  readonly maxMemberships: number;
  readonly #warn: ((message: string) => void) | undefined;
  #held = 0;
  #warned = false;

  constructor(options: ListenBudgetOptions = {}) {
    this.maxUris = options.maxUris ?? DEFAULT_LISTEN_MAX_URIS;
    this.maxMemberships = options.maxMemberships ?? DEFAULT_LISTEN_MAX_MEMBERSHIPS;
    this.#warn = options.warn;
  }

  /** Memberships held by open streams. */
  get held(): number {
    return this.#held;
  }

  /**
   * Reserves one stream's URIs; returns the release (idempotent). Throws
   * `LISTEN_LIMIT` when the stream or the daemon would go over its bound.
   */
  reserve(uris: readonly string[]): () => void {
    const count = new Set(uris).size;
    if (count > this.maxUris) {
      this.#refuse(
        `A listen stream may watch at most ${this.maxUris} resource URIs; this one asks for ${count}. Split it into several streams or watch fewer resources.`,
      );
    }
    if (this.#held + count > this.maxMemberships) {
      this.#refuse(
        `The daemon's listen streams already watch ${this.#held} resource URIs (at most ${this.maxMemberships}); this stream's ${count} more do not fit. Close other streams or watch fewer resources.`,
      );
    }
    this.#held += count;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= count;
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
    });
  }
}
