/**
 * Our own inverted index with BM25 scoring. Documents live in slots; removing
 * one only clears its slot (a tombstone). New documents append to a small log
 * that queries read through a delta block; the log is merged into the main
 * block when it grows, and tombstones are compacted away when they pile up.
 * So one edited file costs one document's tokens, never a rebuild.
 */
import { countLive, type Expansion, type IndexView, scoreGroups } from './bm25.js';
import { DocLog, PostingBlock, termChecksum } from './postings.js';

export type { Expansion } from './bm25.js';

import type { TermDict } from './term-dict.js';
import { TermCounter, Tokenizer } from './tokenize.js';

/** BM25F-style field weight: a title occurrence counts as this many body occurrences. */
export const TITLE_WEIGHT = 3;
const POSTINGS_PER_DOC = 450;

export interface DocText {
  readonly title: string;
  readonly body: string;
  /** Offset in body where indexed text starts (after the title line). */
  readonly from: number;
}

/** A worker's postings, document by document, in its own term ids. */
export interface ExportedLog {
  readonly dictTerms: readonly string[];
  readonly terms: Int32Array<ArrayBuffer>;
  readonly tfs: Uint8Array<ArrayBuffer>;
  /** Where each document's postings end in `terms` / `tfs`. */
  readonly ends: Int32Array<ArrayBuffer>;
  readonly docLens: Float32Array<ArrayBuffer>;
}

/**
 * A committed index with no removals, as plain arrays: the dictionary, the
 * main block and each slot's weighted length (document frequencies and
 * totals follow from them). What a postings cache keeps between runs.
 */
export interface IndexSnapshot {
  readonly dictTerms: readonly string[];
  /** The dictionary's hashes and slots (TermDict.tables), so a restore does not hash every term again. */
  readonly dictMeta: Int32Array<ArrayBuffer>;
  readonly dictTable: Int32Array<ArrayBuffer>;
  readonly starts: Int32Array<ArrayBuffer>;
  readonly byteStarts: Int32Array<ArrayBuffer>;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly tfs: Uint8Array<ArrayBuffer>;
  readonly docLens: Float32Array<ArrayBuffer>;
  /**
   * Per term, the checksum of its postings (termChecksum), when the snapshot
   * was read from a file whose postings are verified term by term as they are read.
   */
  readonly termSums?: Int32Array | undefined;
}

export class SearchIndex {
  readonly tokenizer: Tokenizer;
  private readonly counter: TermCounter;
  private block = PostingBlock.empty();
  private readonly log = new DocLog();
  private delta: PostingBlock | null = null;
  private df = new Int32Array(1024);
  /**
   * Removals make document frequencies stale without saying which terms they
   * touched (the removed text is gone). Each removal starts a new epoch; a
   * term's frequency is recounted from its postings the first time it is
   * read in a new epoch, so a refresh never pays for a full pass.
   */
  private dfEpoch = new Int32Array(1024);
  private epoch = 0;
  private docLen = new Float32Array(1024);
  private alive = new Uint8Array(1024);
  private touched = new Int32Array(1024);
  private slots = 0;
  private live = 0;
  private dead = 0;
  private totalLen = 0;
  /**
   * A restored block's stored per-term checksums and which terms were checked
   * against them, until every term has been (then null): a query checks the
   * few terms it reads, anything that rewrites the block checks them all.
   */
  private unverified: { readonly sums: Int32Array; readonly checked: Uint8Array } | null = null;
  /** Set by compaction: old slot → new slot (or -1), so owners can follow their documents. */
  onRemap: ((remap: Int32Array) => void) | null = null;

  constructor(readonly dict: TermDict) {
    this.tokenizer = new Tokenizer(dict);
    this.counter = new TermCounter(this.tokenizer, dict);
  }

  get slotCount(): number {
    return this.slots;
  }

  get liveCount(): number {
    return this.live;
  }

  docFrequency(term: number): number {
    if (term >= this.df.length) return 0;
    if (this.dfEpoch[term] !== this.epoch) {
      this.df[term] = this.countLive(term);
      this.dfEpoch[term] = this.epoch;
    }
    return this.df[term] as number;
  }

  /** Reserve room before a bulk load of about `docs` documents. */
  reserveDocs(docs: number): void {
    // About 400 distinct terms per decision, on real and synthetic corpora alike.
    this.log.reserve(docs * POSTINGS_PER_DOC);
  }

  /** Index a document; returns its slot. */
  add(doc: DocText): number {
    const slot = this.slots++;
    this.ensureSlot(slot);
    const c = this.counter;
    const titleTokens = c.count(doc.title, 0, doc.title.length, TITLE_WEIGHT, true);
    const bodyTokens = c.count(doc.body, doc.from, doc.body.length, 1, true);
    this.ensureTerms(this.dict.size);
    // Runs once per posting (millions at load): locals instead of property chains, one capacity check.
    const distinct = c.distinct;
    const log = this.log;
    log.reserve(log.length + distinct);
    const { touched, counts } = c;
    const { terms, tfs } = log;
    const df = this.df;
    let n = log.length;
    for (let k = 0; k < distinct; k++) {
      const t = touched[k] as number;
      const tf = counts[t] as number;
      terms[n] = t;
      tfs[n++] = Math.min(tf, 255);
      df[t] = (df[t] as number) + 1;
      counts[t] = 0;
    }
    log.length = n;
    c.distinct = 0;
    log.endDoc(slot);
    const len = titleTokens * TITLE_WEIGHT + bodyTokens;
    this.docLen[slot] = len;
    this.alive[slot] = 1;
    this.live++;
    this.totalLen += len;
    this.delta = null;
    return slot;
  }

  /**
   * Index a document tokenized elsewhere (a load worker): its distinct terms
   * `terms[from, to)` (ids in the worker's dictionary, mapped through
   * `termMap`), their weighted frequencies, and its weighted length.
   */
  addPrepared(
    terms: Int32Array,
    tfs: Uint8Array,
    from: number,
    to: number,
    termMap: Int32Array,
    len: number,
  ): number {
    const slot = this.slots++;
    this.ensureSlot(slot);
    this.ensureTerms(this.dict.size);
    for (let k = from; k < to; k++) {
      const t = termMap[terms[k] as number] as number;
      this.log.push(t, tfs[k] as number);
      this.df[t] = (this.df[t] as number) + 1;
    }
    this.log.endDoc(slot);
    this.docLen[slot] = len;
    this.alive[slot] = 1;
    this.live++;
    this.totalLen += len;
    this.delta = null;
    return slot;
  }

  /** Everything `add` produced so far, for shipping to another thread; the index is unusable afterwards. */
  exportLog(): ExportedLog {
    return {
      dictTerms: this.dict.terms,
      terms: this.log.terms.slice(0, this.log.length),
      tfs: this.log.tfs.slice(0, this.log.length),
      ends: this.log.ends.slice(0, this.log.docs),
      docLens: this.docLen.slice(0, this.slots),
    };
  }

  /** The index as a snapshot, when it is one: committed (no log) and never removed from. */
  snapshot(): IndexSnapshot | undefined {
    if (this.log.length > 0 || this.log.docs > 0 || this.epoch !== 0 || this.dead > 0) return undefined;
    const block = this.block;
    const { meta, table } = this.dict.tables();
    return {
      dictTerms: this.dict.terms.slice(),
      dictMeta: meta,
      dictTable: table,
      starts: Int32Array.from(block.starts),
      byteStarts: Int32Array.from(block.byteStarts),
      bytes: Uint8Array.from(block.bytes),
      tfs: Uint8Array.from(block.tfs),
      docLens: this.docLen.slice(0, this.slots),
    };
  }

  /**
   * Become the index a snapshot was taken of; only an empty index with an
   * empty dictionary can, so term ids and slots are the snapshot's own.
   * False, and still empty, when the snapshot's dictionary tables do not fit its terms.
   */
  restore(s: IndexSnapshot): boolean {
    if (this.slots !== 0 || this.dict.size !== 0) throw new Error('restore needs an empty index');
    if (!this.dict.restore(s.dictTerms, s.dictMeta, s.dictTable)) return false;
    const terms = s.dictTerms.length;
    this.block = new PostingBlock(s.starts, s.byteStarts, s.bytes, s.tfs);
    this.ensureTerms(terms);
    for (let t = 0; t < terms; t++) this.df[t] = (s.starts[t + 1] as number) - (s.starts[t] as number);
    const docs = s.docLens.length;
    this.ensureSlot(docs);
    this.docLen.set(s.docLens);
    this.alive.fill(1, 0, docs);
    this.slots = docs;
    this.live = docs;
    let total = 0;
    for (let d = 0; d < docs; d++) total += s.docLens[d] as number;
    this.totalLen = total;
    this.delta = null;
    if (s.termSums !== undefined) this.unverified = { sums: s.termSums, checked: new Uint8Array(terms) };
    return true;
  }

  /** Whether every posting held was built here or verified against its stored checksum. */
  get verified(): boolean {
    return this.unverified === null;
  }

  /** Checks the restored postings of `terms`; false at the first whose checksum differs from the stored one. */
  verifyTerms(terms: Iterable<number>): boolean {
    const u = this.unverified;
    if (u === null) return true;
    for (const t of terms) {
      if (t >= u.checked.length || u.checked[t] === 1) continue;
      if (termChecksum(this.block, t) !== u.sums[t]) return false;
      u.checked[t] = 1;
    }
    return true;
  }

  /** Checks every restored term's postings (what anything but a query needs first); false when one differs. */
  verifyAll(): boolean {
    const u = this.unverified;
    if (u === null) return true;
    for (let t = 0; t < u.checked.length; t++)
      if (u.checked[t] === 0 && termChecksum(this.block, t) !== u.sums[t]) return false;
    this.unverified = null;
    return true;
  }

  /** Tombstone a slot. Document frequencies are recounted at the next commit. */
  remove(slot: number): void {
    if (this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    this.live--;
    this.dead++;
    this.totalLen -= this.docLen[slot] as number;
    this.epoch++;
  }

  /**
   * Fold the log into the main block when it is large relative to it, and
   * compact tombstones away when they are a fifth of all slots.
   */
  commit(): void {
    const compact = this.dead > 64 && this.dead * 5 > this.slots;
    const mergeLog = this.log.length * 10 >= this.block.size && this.log.length > 0;
    if (compact) {
      const remap = new Int32Array(this.slots);
      let next = 0;
      for (let s = 0; s < this.slots; s++) remap[s] = this.alive[s] === 1 ? next++ : -1;
      this.block = PostingBlock.merge(this.block, this.log, this.dict.size, remap);
      for (let s = 0; s < this.slots; s++) {
        const to = remap[s] as number;
        if (to >= 0) this.docLen[to] = this.docLen[s] as number;
      }
      this.alive.fill(0);
      this.alive.fill(1, 0, next);
      this.slots = next;
      this.dead = 0;
      this.log.clear();
      this.onRemap?.(remap);
    } else if (mergeLog) {
      this.block = PostingBlock.merge(this.block, this.log, this.dict.size, null);
      this.log.clear();
    }
    this.delta = null;
  }

  /** Live documents containing `term`, counted from the block and the log. */
  private countLive(term: number): number {
    return countLive(term, [this.block, this.deltaBlock()], this.alive);
  }

  /** Score a query (see bm25.ts): one group of expansions per query word. */
  score(
    groups: readonly (readonly Expansion[])[],
    scores: Float64Array,
    hits: Uint8Array,
    best: Float64Array,
    out: Int32Array,
  ): number {
    if (this.touched.length < this.slots) this.touched = new Int32Array(this.slots * 2);
    const view: IndexView = {
      blocks: [this.block, this.deltaBlock()],
      alive: this.alive,
      docLen: this.docLen,
      live: this.live,
      totalLen: this.totalLen,
      df: (t) => this.docFrequency(t),
    };
    return scoreGroups(view, groups, { scores, hits, best, out, groupTouched: this.touched });
  }

  private deltaBlock(): PostingBlock {
    if (this.delta === null) {
      this.delta =
        this.log.length === 0
          ? PostingBlock.empty()
          : PostingBlock.merge(PostingBlock.empty(), this.log, this.dict.size, null);
    }
    return this.delta;
  }

  private ensureSlot(slot: number): void {
    if (slot < this.alive.length) return;
    const size = Math.max(slot + 1, this.alive.length * 2);
    const alive = new Uint8Array(size);
    alive.set(this.alive);
    this.alive = alive;
    const docLen = new Float32Array(size);
    docLen.set(this.docLen);
    this.docLen = docLen;
  }

  private ensureTerms(size: number): void {
    if (size <= this.df.length) return;
    const n = Math.max(size, this.df.length * 2);
    const df = new Int32Array(n);
    df.set(this.df);
    this.df = df;
    // New terms start in the current epoch: their counts are exact.
    const epochs = new Int32Array(n).fill(this.epoch);
    epochs.set(this.dfEpoch);
    this.dfEpoch = epochs;
  }
}
