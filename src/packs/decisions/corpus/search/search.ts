/**
 * Ranked search over decisions: query words → expansions → BM25 scores from
 * the index → AND across words (falling back to OR when no document has
 * every word) → optional status filter → a deterministic page of hits with
 * snippets.
 */

import { LazyDecision } from '../load/lazy-decision.js';
import type { PostingsCache } from '../load/search-cache.js';
import type { Decision, DecisionStatus } from '../model.js';
import { COMMIT, type PendingOp, queueSignature } from './pending-ops.js';
import { type Expansion, type ExportedLog, SearchIndex } from './search-index.js';
import { hitSnippet } from './snippet.js';
import { TermDict } from './term-dict.js';
import { TermExpander } from './term-expand.js';
import { tokenizeToStrings } from './tokenize.js';
import { topK } from './top-k.js';

export interface SearchOptions {
  readonly status?: DecisionStatus | undefined;
  /** Only decisions this accepts (dates, tags: filters the index does not hold). */
  readonly filter?: ((decision: Decision) => boolean) | undefined;
  readonly offset?: number | undefined;
  readonly limit?: number | undefined;
}

export interface SearchHit {
  readonly decision: Decision;
  readonly score: number;
  readonly snippet: string;
}

export interface SearchResult {
  /** Matching decisions in all, before paging. */
  readonly total: number;
  readonly hits: SearchHit[];
  /** False when no decision had every query word and the results match any of them instead. */
  readonly matchedAll: boolean;
}

const MAX_QUERY_WORDS = 32;
const EXPANSION_CACHE = 1024;
const DEFAULT_LIMIT = 10;

/**
 * When the index is built: `eager`, as records are read; `deferred`, when
 * something first reads it (one-shot commands, most of which never search);
 * `background`, a slice at a time after the load (index-builder.ts), or at
 * once when something reads it first (a daemon: it answers meanwhile).
 */
export type SearchIndexMode = 'eager' | 'deferred' | 'background';

export class DecisionSearch {
  private readonly mode: SearchIndexMode;
  /**
   * Changes are queued and replayed, in order, before anything else touches
   * the index, so the index ends up exactly as if they had run at once. Always
   * when deferred: a one-shot command that never searches (show, context,
   * check) never tokenizes the corpus. In the background mode until the queue
   * first runs dry; from then on each change is indexed as it comes.
   */
  private queueing: boolean;
  /** Where a deferred bulk index is kept between runs (one-shot commands), if anywhere. */
  private readonly postings: PostingsCache | undefined;
  /** Queued changes; those before `head` are done (and cleared, so they hold nothing). */
  private pending: (PendingOp | null)[] = [];
  private head = 0;
  // Replaced only when a restored index turns out damaged and is built again (rebuild).
  private dict = new TermDict();
  private index: SearchIndex;
  private expander: TermExpander;
  /**
   * The queue a stored index stood in for, while its postings are verified
   * only as queries read them: the way to build it again if one is damaged.
   */
  private restoredFrom: readonly PendingOp[] | null = null;
  private readonly expansions = new Map<string, readonly Expansion[]>();
  private docs: (Decision | null)[] = [];
  private readonly slotOf = new Map<string, number>();
  private scores = new Float64Array(0);
  private best = new Float64Array(0);
  private hitCounts = new Uint8Array(0);
  private touched = new Int32Array(0);

  constructor(
    options: { readonly mode?: SearchIndexMode; readonly postings?: PostingsCache | undefined } = {},
  ) {
    this.mode = options.mode ?? 'eager';
    this.queueing = this.mode !== 'eager';
    this.postings = this.mode === 'deferred' ? options.postings : undefined;
    this.index = new SearchIndex(this.dict);
    this.expander = new TermExpander(this.dict);
    this.index.onRemap = (remap) => this.remap(remap);
  }

  /**
   * Before anything but a query touches a restored index: every term's
   * postings verified, or, when one is damaged, the index built from its queue.
   */
  private trustRestored(): void {
    if (this.restoredFrom !== null && !this.index.verifyAll()) this.rebuild();
    this.restoredFrom = null;
  }

  /** The restored index held damaged postings: build it from the documents it stood in for, and store that. */
  private rebuild(): void {
    const queue = this.restoredFrom ?? [];
    this.restoredFrom = null;
    this.dict = new TermDict();
    this.index = new SearchIndex(this.dict);
    this.expander = new TermExpander(this.dict);
    this.index.onRemap = (remap) => this.remap(remap);
    this.docs = [];
    this.slotOf.clear();
    this.expansions.clear();
    this.build(queue, this.bulkSignature(queue));
  }

  /**
   * Index (or re-index) a decision under its path. `body` is its text as read
   * now (decision.body may load lazily) and `from` where the searchable part
   * starts, after the title line; `version`, a hash of the record's text.
   */
  upsert(d: Decision, body: string | (() => string), from: number, version?: string): void {
    if (!this.queueing) {
      this.indexNow(d, typeof body === 'string' ? body : body(), from);
      return;
    }
    // One-shot: a batch after the load's replays the load's first, so a postings cache names it alone.
    if (this.mode === 'deferred' && this.pending[this.pending.length - 1] === COMMIT) this.flush();
    // Queued for the background: 10,000 bodies would hold the corpus's whole text until indexed.
    const later = this.mode === 'background' && d instanceof LazyDecision ? rereadBody(d) : body;
    this.pending.push({ kind: 'upsert', decision: d, body: later, from, version });
  }

  /** Whether changes are waiting for the index. */
  get building(): boolean {
    return this.head < this.pending.length;
  }

  private indexNow(d: Decision, body: string, from: number): void {
    this.removeNow(d.path);
    const slot = this.index.add({ title: d.title, body, from });
    this.docs[slot] = d;
    this.slotOf.set(d.path, slot);
  }

  /** Index a decision tokenized by a load worker (see SearchIndex.addPrepared). */
  upsertPrepared(d: Decision, log: ExportedLog, doc: number, termMap: Int32Array): void {
    this.flush();
    this.trustRestored();
    this.remove(d.path);
    this.addStored(d, log, doc, termMap);
  }

  /** Map a worker's term ids to this index's dictionary. */
  mapTerms(terms: readonly string[]): Int32Array {
    this.flush();
    this.trustRestored();
    const map = new Int32Array(terms.length);
    for (let i = 0; i < terms.length; i++) map[i] = this.dict.intern(terms[i] as string);
    return map;
  }

  remove(path: string): void {
    if (this.queueing && this.mode === 'background') {
      this.pending.push({ kind: 'remove', path });
      return;
    }
    this.flush();
    this.removeNow(path);
  }

  private removeNow(path: string): void {
    this.trustRestored();
    const slot = this.slotOf.get(path);
    if (slot === undefined) return;
    this.index.remove(slot);
    this.docs[slot] = null;
    this.slotOf.delete(path);
  }

  /** Reserve room before a bulk load of about `docs` documents. */
  reserve(docs: number): void {
    this.index.reserveDocs(docs);
  }

  /** Call after a batch of upserts/removals. */
  commit(): void {
    if (!this.building) this.commitNow();
    else if (this.pending[this.pending.length - 1] !== COMMIT) this.pending.push(COMMIT);
  }

  private commitNow(): void {
    this.trustRestored();
    this.index.commit();
    // The expander's structures catch up when a search next needs them (term-expand.ts).
    this.expansions.clear();
  }

  /**
   * Index queued changes from the front until `deadline` (performance.now()),
   * at least one; true while some are left. The background build's slice.
   */
  step(deadline: number): boolean {
    while (this.building) {
      const op = this.pending[this.head] as PendingOp;
      this.pending[this.head++] = null;
      this.apply(op);
      if (performance.now() >= deadline) break;
    }
    if (this.building) return true;
    this.drained();
    return false;
  }

  /** Replays the queued changes; a no-op when nothing waits. */
  private flush(): void {
    if (!this.building) return;
    this.trustRestored();
    const queue = this.pending.slice(this.head) as PendingOp[];
    this.drained();
    const signature = this.bulkSignature(queue);
    const stored = signature === undefined ? undefined : this.postings?.read(signature);
    const docs = queue.filter((p) => p.kind === 'upsert');
    // Slots in queue order, as when they were indexed: the stored index is the one they built.
    if (stored !== undefined && stored.docLens.length === docs.length && this.index.restore(stored)) {
      for (const [slot, p] of docs.entries()) {
        this.docs[slot] = p.decision;
        this.slotOf.set(p.decision.path, slot);
      }
      this.commitNow();
      if (!this.index.verified) this.restoredFrom = queue;
      return;
    }
    this.build(queue, signature);
  }

  /** Indexes a queue into an empty index, and keeps the result for the next run when it has a signature. */
  private build(queue: readonly PendingOp[], signature: string | undefined): void {
    for (const p of queue) this.apply(p);
    const snapshot = signature === undefined ? undefined : this.index.snapshot();
    if (signature !== undefined && snapshot !== undefined) this.postings?.write(signature, snapshot);
  }

  private apply(op: PendingOp): void {
    if (op.kind === 'upsert')
      this.indexNow(op.decision, typeof op.body === 'string' ? op.body : op.body(), op.from);
    else if (op.kind === 'remove') this.removeNow(op.path);
    else this.commitNow();
  }

  /** The queue ran dry: a background build is complete, and later changes are indexed as they come. */
  private drained(): void {
    this.pending = [];
    this.head = 0;
    if (this.mode === 'background') this.queueing = false;
  }

  /** The signature of a bulk index a postings cache may hold: only for the first documents of an empty index. */
  private bulkSignature(queue: readonly PendingOp[]): string | undefined {
    if (this.postings === undefined || this.index.slotCount !== 0 || this.dict.size !== 0) return undefined;
    return queueSignature(queue);
  }

  /** Index document `doc` of a log a load worker tokenized. */
  private addStored(d: Decision, log: ExportedLog, doc: number, termMap: Int32Array): void {
    const from = doc === 0 ? 0 : (log.ends[doc - 1] as number);
    const slot = this.index.addPrepared(
      log.terms,
      log.tfs,
      from,
      log.ends[doc] as number,
      termMap,
      log.docLens[doc] as number,
    );
    this.docs[slot] = d;
    this.slotOf.set(d.path, slot);
  }

  search(query: string, options: SearchOptions = {}): SearchResult {
    this.flush();
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.max(0, options.limit ?? DEFAULT_LIMIT);
    const words = [...new Set(tokenizeToStrings(query))].slice(0, MAX_QUERY_WORDS);
    const df = (id: number): number => this.index.docFrequency(id);
    let groups = words.map((w) => this.expand(w, df));
    // A restored index's postings are checked as queries first read them; damaged, it is built again.
    if (this.restoredFrom !== null && !this.index.verifyTerms(termsOf(groups))) {
      this.rebuild();
      groups = words.map((w) => this.expand(w, df));
    }
    this.ensureScratch();
    const n = this.index.score(groups, this.scores, this.hitCounts, this.best, this.touched);
    try {
      const wanted = groups.length;
      const status = options.status;
      const filter = options.filter;
      const keep = (slot: number, all: boolean): boolean =>
        (!all || this.hitCounts[slot] === wanted) &&
        (status === undefined || this.docs[slot]?.status === status) &&
        (filter === undefined || filter(this.docs[slot] as Decision));
      let candidates = this.collect(n, (s) => keep(s, true));
      let matchedAll = true;
      if (candidates.length === 0 && wanted > 1) {
        candidates = this.collect(n, (s) => keep(s, false));
        matchedAll = false;
      }
      const page = topK(candidates, offset + limit, (a, b) => this.before(a, b)).slice(
        offset,
        offset + limit,
      );
      const ids = new Set(groups.flatMap((g) => g.map((e) => e.id)));
      const tok = this.index.tokenizer;
      const hits = page.map((slot) => {
        const d = this.docs[slot] as Decision;
        return { decision: d, score: this.scores[slot] as number, snippet: hitSnippet(tok, d, ids) };
      });
      return { total: candidates.length, hits, matchedAll };
    } finally {
      // The per-slot scratch must be clean for the next query, whatever happened in this one.
      for (let k = 0; k < n; k++) {
        const s = this.touched[k] as number;
        this.scores[s] = 0;
        this.hitCounts[s] = 0;
      }
    }
  }

  /**
   * Expansions of one query word, remembered until the index changes: paging
   * through results repeats the query, and typo expansion scans thousands of
   * terms.
   */
  private expand(word: string, df: (id: number) => number): readonly Expansion[] {
    let found = this.expansions.get(word);
    if (found === undefined) {
      found = this.expander.expand(word, df);
      if (this.expansions.size >= EXPANSION_CACHE) this.expansions.clear();
      this.expansions.set(word, found);
    }
    return found;
  }

  private collect(n: number, keep: (slot: number) => boolean): number[] {
    const out: number[] = [];
    for (let k = 0; k < n; k++) {
      const s = this.touched[k] as number;
      if (keep(s)) out.push(s);
    }
    return out;
  }

  /** Higher score first, then path; never depends on insertion order. */
  private before(a: number, b: number): boolean {
    const sa = this.scores[a] as number;
    const sb = this.scores[b] as number;
    if (sa !== sb) return sa > sb;
    return (this.docs[a]?.path ?? '') < (this.docs[b]?.path ?? '');
  }

  private ensureScratch(): void {
    const n = this.index.slotCount;
    if (this.scores.length >= n) return;
    const size = Math.max(n, 1024) * 2;
    this.scores = new Float64Array(size);
    this.best = new Float64Array(size);
    this.hitCounts = new Uint8Array(size);
    this.touched = new Int32Array(size);
  }

  private remap(remap: Int32Array): void {
    const docs: (Decision | null)[] = [];
    this.slotOf.clear();
    for (let s = 0; s < remap.length; s++) {
      const to = remap[s] as number;
      const d = this.docs[s];
      if (to < 0 || d === null || d === undefined) continue;
      docs[to] = d;
      this.slotOf.set(d.path, to);
    }
    this.docs = docs;
  }
}

function* termsOf(groups: readonly (readonly Expansion[])[]): Generator<number> {
  for (const group of groups) for (const e of group) yield e.id;
}

/** How a queued document's body is read when it is indexed: from its file, not kept in the body cache. */
function rereadBody(d: LazyDecision): () => string {
  return () => d.bodyUncached();
}
