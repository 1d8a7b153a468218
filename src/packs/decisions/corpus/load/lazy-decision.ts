/**
 * A decision whose body stays on disk until asked for. A class rather than
 * per-object getters: every instance shares one hidden class and the getter
 * lives on the prototype, where `Object.defineProperty` with a closure per
 * object gave each of 10,000 decisions its own hidden class (megamorphic
 * property access everywhere) and an extra closure and context.
 *
 * `body` is not an own property: spreading a decision drops it, so copy it
 * explicitly. `toJSON` includes it.
 */
import type {
  DateOrderEvidence,
  Decision,
  DecisionFormat,
  DecisionLinks,
  DecisionStatus,
  TitleSource,
} from '../model.js';

/** Where bodies come from (the corpus's body cache). */
export interface BodySource {
  /** `keep` false: read without caching it (see BodyCache.get). */
  get(readPath: string, stamp: string, keep?: boolean): string;
  prefix(readPath: string, stamp: string, bytes: number): { text: string; complete: boolean };
}

export type PlainDecision = Omit<Decision, 'body'>;

export class LazyDecision implements Decision {
  readonly id: string;
  readonly number: number | null;
  readonly slug: string;
  readonly path: string;
  readonly corpusPath: string;
  readonly title: string;
  readonly status: DecisionStatus;
  readonly statusRaw: string;
  /** Not readonly: the corpus settles a date that reads both ways for all its records at once. */
  date: string | null;
  readonly dateReadings: { readonly monthFirst: string; readonly dayFirst: string } | undefined;
  readonly dateOrder: DateOrderEvidence | undefined;
  readonly titleSource: TitleSource | undefined;
  readonly updated: string | undefined;
  readonly deciders: readonly string[];
  readonly consulted: readonly string[];
  readonly informed: readonly string[];
  readonly tags: readonly string[];
  readonly format: DecisionFormat;
  readonly links: DecisionLinks;
  readonly governs: readonly string[];
  readonly #source: BodySource;
  readonly #readPath: string;
  readonly #stamp: string;

  constructor(f: PlainDecision, source: BodySource, readPath: string, stamp: string) {
    this.id = f.id;
    this.number = f.number;
    this.slug = f.slug;
    this.path = f.path;
    this.corpusPath = f.corpusPath;
    this.title = f.title;
    this.status = f.status;
    this.statusRaw = f.statusRaw;
    this.date = f.date;
    // Always assigned, undefined when absent, so every instance keeps one hidden class.
    this.dateReadings = f.dateReadings;
    this.dateOrder = f.dateOrder;
    this.titleSource = f.titleSource;
    this.updated = f.updated;
    this.deciders = f.deciders;
    this.consulted = f.consulted;
    this.informed = f.informed;
    this.tags = f.tags;
    this.format = f.format;
    this.links = f.links;
    this.governs = f.governs;
    this.#source = source;
    this.#readPath = readPath;
    this.#stamp = stamp;
  }

  /** The Markdown after the front matter, read from the file (through a small cache). */
  get body(): string {
    return this.#source.get(this.#readPath, this.#stamp);
  }

  /** The body as `body` reads it, left out of the cache: for indexing every record once. */
  bodyUncached(): string {
    return this.#source.get(this.#readPath, this.#stamp, false);
  }

  /** About the first `bytes` of the body (all of it when `complete`), without caching it. */
  bodyPrefix(bytes: number): { text: string; complete: boolean } {
    return this.#source.prefix(this.#readPath, this.#stamp, bytes);
  }

  toJSON(): Decision {
    return { ...this, body: this.body };
  }
}
