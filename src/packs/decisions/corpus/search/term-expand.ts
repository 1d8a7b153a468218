/**
 * Query-term expansion: the exact term, longer terms it is a prefix of, and
 * terms within a small edit distance. Prefixes come from a sorted term array
 * (binary search, then a forward walk); typo candidates only from terms of
 * nearby length, pre-filtered by a letter-set signature.
 */
import { boundedDistance } from './edit-distance.js';
import type { Expansion } from './search-index.js';
import type { TermDict } from './term-dict.js';

export const MIN_PREFIX = 3;
const MAX_PREFIX_TERMS = 16;
const MAX_FUZZY_TERMS = 8;
const EXACT = 1;
const FUZZY_1 = 0.45;
const FUZZY_2 = 0.3;

function letterMask(term: string): number {
  let m = 0;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    m |= 1 << (c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? 26 + ((c - 48) % 5) : 31);
  }
  return m;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Prefix weight: between 0.5 and 0.8, closer to 0.8 when the prefix is most of the term. */
function prefixWeight(queryLength: number, termLength: number): number {
  return 0.5 + (0.3 * queryLength) / termLength;
}

/**
 * Expansions answered by walking every term before the sorted list and the
 * length buckets are built: a one-shot search asks for a word or two, and
 * sorting tens of thousands of terms would cost it more than its answer.
 */
const SCANS_BEFORE_INDEXING = 8;

export class TermExpander {
  /** Expansions answered by a walk so far; past SCANS_BEFORE_INDEXING the structures are built. */
  private scans = 0;
  private sorted: number[] = [];
  private byLength: number[][] = [];
  private masks = new Int32Array(1024);
  /** Dictionary ids below this are already in `sorted`, `byLength` and `masks`. */
  private known = 0;

  constructor(private readonly dict: TermDict) {}

  /** Bring the helper structures up to date with terms interned since the last call. */
  sync(): void {
    const size = this.dict.size;
    if (size === this.known) return;
    if (this.masks.length < size) {
      const masks = new Int32Array(Math.max(size, this.masks.length * 2));
      masks.set(this.masks);
      this.masks = masks;
    }
    const fresh: number[] = [];
    for (let id = this.known; id < size; id++) {
      const term = this.dict.term(id);
      this.masks[id] = letterMask(term);
      let bucket = this.byLength[term.length];
      if (bucket === undefined) {
        bucket = [];
        this.byLength[term.length] = bucket;
      }
      bucket.push(id);
      fresh.push(id);
    }
    const terms = this.dict.terms;
    const cmp = (a: number, b: number): number => {
      const ta = terms[a] as string;
      const tb = terms[b] as string;
      return ta < tb ? -1 : ta > tb ? 1 : 0;
    };
    if (fresh.length > 256 || this.sorted.length === 0) {
      this.sorted.push(...fresh);
      this.sorted.sort(cmp);
    } else {
      for (const id of fresh) this.sorted.splice(this.lowerBound(terms[id] as string), 0, id);
    }
    this.known = size;
  }

  /**
   * Expansions for one lowercase query word; `df` filters out terms no live
   * document has. The candidates are the same whether they are found by a
   * walk or in the built structures, and each list is put in one total order
   * (ties broken by id) before it is cut, so the answer is too.
   */
  expand(word: string, df: (id: number) => number): Expansion[] {
    const walk = this.known === 0 && this.scans < SCANS_BEFORE_INDEXING;
    if (walk) this.scans += 1;
    else this.sync();
    const out: Expansion[] = [];
    const exact = this.dict.lookup(word);
    if (exact >= 0 && df(exact) > 0) out.push({ id: exact, weight: EXACT });
    if (word.length >= MIN_PREFIX) out.push(...this.prefixes(word, exact, df, walk));
    if (word.length >= 5) out.push(...this.fuzzy(word, df, out, walk));
    return out;
  }

  private lowerBound(term: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dict.term(this.sorted[mid] as number) < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private prefixes(word: string, exact: number, df: (id: number) => number, walk: boolean): Expansion[] {
    const found: number[] = [];
    if (walk) {
      // One plain loop, cheapest tests first: a one-shot search runs it before anything has warmed up.
      const terms = this.dict.terms;
      const first = word.charCodeAt(0);
      for (let id = 0; id < terms.length; id++) {
        const term = terms[id] as string;
        // Longer only: the one term equal to the word is `exact`.
        if (term.length > word.length && term.charCodeAt(0) === first && term.startsWith(word) && df(id) > 0)
          found.push(id);
      }
    } else {
      for (let i = this.lowerBound(word); i < this.sorted.length; i++) {
        const id = this.sorted[i] as number;
        if (!this.dict.term(id).startsWith(word)) break;
        if (id !== exact && df(id) > 0) found.push(id);
      }
    }
    // Shortest continuations first: "serv" means "server" more often than "serviceability".
    found.sort((a, b) => this.dict.term(a).length - this.dict.term(b).length || df(b) - df(a) || a - b);
    return found
      .slice(0, MAX_PREFIX_TERMS)
      .map((id) => ({ id, weight: prefixWeight(word.length, this.dict.term(id).length) }));
  }

  private fuzzy(
    word: string,
    df: (id: number) => number,
    already: readonly Expansion[],
    walk: boolean,
  ): Expansion[] {
    const max = word.length >= 9 ? 2 : 1;
    const mask = letterMask(word);
    const taken = new Set(already.map((e) => e.id));
    const found: Array<{ id: number; d: number }> = [];
    const consider = (id: number, termMask: number): void => {
      // One edit changes at most two letters of the letter set.
      if (popcount(mask ^ termMask) > 2 * max) return;
      if (taken.has(id)) return;
      const d = boundedDistance(word, this.dict.term(id), max);
      if (d <= max && d > 0 && df(id) > 0) found.push({ id, d });
    };
    if (walk) {
      const terms = this.dict.terms;
      for (let id = 0; id < terms.length; id++) {
        const term = terms[id] as string;
        if (term.length >= word.length - max && term.length <= word.length + max)
          consider(id, letterMask(term));
      }
    } else {
      for (let len = word.length - max; len <= word.length + max; len++)
        for (const id of this.byLength[len] ?? []) consider(id, this.masks[id] as number);
    }
    found.sort((a, b) => a.d - b.d || df(b.id) - df(a.id) || a.id - b.id);
    return found.slice(0, MAX_FUZZY_TERMS).map(({ id, d }) => ({ id, weight: d === 1 ? FUZZY_1 : FUZZY_2 }));
  }
}
