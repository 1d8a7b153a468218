/**
 * State derived from the whole set of records: the sorted decision list,
 * corpus-level problems (duplicate numbers), reference resolution and the
 * supersession graph. Updated per batch of changed records: the list and the
 * reference index change one decision at a time, and reference resolutions
 * are cached until a change touches what decisions can be called.
 */
import path from 'node:path';
import type { Decision, Problem, SupersessionEdge } from '../model.js';
import { DateOrder } from '../read/dates.js';
import { amendmentEdges, SupersessionGraph } from './graph.js';
import { RefIndex, type ResolveResult } from './resolve.js';

export function compareDecisions(a: Decision, b: Decision): number {
  const na = a.number ?? Number.POSITIVE_INFINITY;
  const nb = b.number ?? Number.POSITIVE_INFINITY;
  if (na !== nb) return na < nb ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function compareProblems(a: Problem, b: Problem): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

function duplicateNumbers(decisions: readonly Decision[]): Problem[] {
  const out: Problem[] = [];
  // Sorted by number, so duplicates are neighbours.
  for (let i = 0; i < decisions.length; ) {
    const n = decisions[i]?.number ?? null;
    let j = i + 1;
    while (n !== null && j < decisions.length && decisions[j]?.number === n) j++;
    if (j - i > 1) {
      const group = decisions.slice(i, j);
      for (const d of group) {
        const others = group.filter((o) => o !== d).map((o) => o.path);
        out.push({
          path: d.path,
          kind: 'duplicate-number',
          message: `number ${n} is also used by ${others.join(', ')}; references to ${n} are ambiguous`,
        });
      }
    }
    i = j;
  }
  return out;
}

/** What a decision can be called by; while no change alters these, cached resolutions stay valid. */
function identityKey(d: Decision): string {
  return `${d.path}\u0000${d.id}\u0000${d.slug}\u0000${d.number}\u0000${d.title}`;
}

/** Index of `d` in the sorted list, or -1. */
function find(sorted: readonly Decision[], d: Decision): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDecisions(sorted[mid] as Decision, d) < 0) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && compareDecisions(sorted[i] as Decision, d) === 0; i++)
    if (sorted[i] === d) return i;
  return -1;
}

function insertionPoint(sorted: readonly Decision[], d: Decision): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDecisions(sorted[mid] as Decision, d) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const SMALL_BATCH = 64;

export class DerivedState {
  private sorted: Decision[] = [];
  private readonly resolutions = new Map<string, ResolveResult>();
  private readonly byPath = new Map<string, Decision>();
  /** Decisions that declare supersession relations: the only ones the graph has to read. */
  private readonly declaring = new Set<Decision>();
  /** Decisions that declare amendments. */
  private readonly amending = new Set<Decision>();
  /** Decisions whose numeric date reads both ways, and the order the corpus settles them in. */
  private readonly ambiguousDates = new Set<Decision>();
  private readonly dateOrder = new DateOrder();
  private dayFirst = false;
  /** The corpus folder relative to the workspace root ('.' when they coincide), for corpus-level problems. */
  private readonly folder: string;
  /**
   * The graph and amendments are built when first asked for after an update,
   * and the reference index of a first load when first resolved: a one-shot
   * search on 1,000 records asks for none of them, and they cost it ~5 ms.
   * Each is built from the state as it is when asked, so an answer is the
   * same as if it had been built eagerly.
   */
  #graph: SupersessionGraph | null = null;
  #amendments: readonly SupersessionEdge[] | null = null;
  readonly #refs: RefIndex;
  /** Decisions of a first load not yet in the reference index. */
  #unindexed: readonly Decision[] = [];
  problems: readonly Problem[] = [];

  constructor(root: string, corpusDir: string) {
    const prefix = path.relative(root, corpusDir).split(path.sep).join('/');
    this.folder = prefix === '' ? '.' : prefix;
    this.#refs = new RefIndex(() => this.sorted, prefix);
  }

  get refs(): RefIndex {
    if (this.#unindexed.length > 0) {
      const pending = this.#unindexed;
      this.#unindexed = [];
      for (const d of pending) this.#refs.add(d);
    }
    return this.#refs;
  }

  get graph(): SupersessionGraph {
    this.#graph ??= new SupersessionGraph(
      this.declaring,
      (ref, from) => this.resolveFrom(ref, from),
      (p) => this.byPath.get(p),
    );
    return this.#graph;
  }

  /** Amendment edges (`from` amends `to`), resolved like the graph's. */
  get amendments(): readonly SupersessionEdge[] {
    this.#amendments ??= amendmentEdges(this.amending, (ref, from) => this.resolveFrom(ref, from));
    return this.#amendments;
  }

  get decisions(): readonly Decision[] {
    return this.sorted;
  }

  /**
   * Apply a batch: `removed` are the previous versions of changed or deleted
   * records, `added` the new ones; `markdownFiles` counts every Markdown file
   * in the folder, read or not.
   */
  update(
    removed: readonly Decision[],
    added: readonly Decision[],
    fileProblems: readonly Problem[],
    markdownFiles: number,
  ): void {
    let identityChanged = removed.length > 0 || added.length > 0;
    // Only a batch that both removes and adds can leave every name as it was (a record rewritten in place).
    if (removed.length > 0 && added.length > 0) {
      const before = new Set(removed.map(identityKey));
      const after = new Set(added.map(identityKey));
      identityChanged = before.size !== after.size;
      for (const k of after) if (!before.has(k)) identityChanged = true;
    }
    if (removed.length + added.length > SMALL_BATCH) {
      const gone = new Set(removed);
      this.sorted = this.sorted.filter((d) => !gone.has(d));
      for (const d of added) this.sorted.push(d);
      this.sorted.sort(compareDecisions);
    } else {
      // A new array, so lists handed out earlier never change under their holders.
      const next = this.sorted.slice();
      for (const d of removed) {
        const i = find(next, d);
        if (i >= 0) next.splice(i, 1);
      }
      for (const d of added) next.splice(insertionPoint(next, d), 0, d);
      this.sorted = next;
    }
    // Only a first load, into an empty index, waits to be indexed: later batches are small and incremental.
    const bulk = this.#unindexed.length === 0 && this.sorted.length === added.length && removed.length === 0;
    const refs = bulk ? null : this.refs;
    for (const d of removed) {
      refs?.remove(d);
      if (this.byPath.get(d.path) === d) this.byPath.delete(d.path);
      this.declaring.delete(d);
      this.amending.delete(d);
      this.ambiguousDates.delete(d);
      this.dateOrder.count(d.dateOrder, -1);
    }
    if (bulk) this.#unindexed = added;
    for (const d of added) {
      refs?.add(d);
      this.byPath.set(d.path, d);
      if (d.links.supersedes.length > 0 || d.links.supersededBy.length > 0) this.declaring.add(d);
      if (d.links.amends.length > 0 || d.links.amendedBy.length > 0) this.amending.add(d);
      if (d.dateReadings !== undefined) this.ambiguousDates.add(d);
      this.dateOrder.count(d.dateOrder, 1);
    }
    this.settleDates(added);
    if (identityChanged) this.resolutions.clear();
    this.#graph = null;
    this.#amendments = null;
    const problems = [...fileProblems, ...duplicateNumbers(this.sorted)];
    if (this.sorted.length === 0 && markdownFiles > 0) {
      problems.push({
        path: this.folder,
        kind: 'no-decisions',
        message: `${markdownFiles} Markdown file${markdownFiles === 1 ? '' : 's'} in the folder, but not one is a decision record`,
      });
    }
    this.problems = problems.sort(compareProblems);
  }

  /**
   * Give every date that reads both ways the corpus's order: all of them when
   * the order changed, else only the new records'.
   */
  private settleDates(added: readonly Decision[]): void {
    const dayFirst = this.dateOrder.dayFirst;
    const changed = dayFirst !== this.dayFirst;
    this.dayFirst = dayFirst;
    for (const d of changed ? this.ambiguousDates : added) {
      const readings = d.dateReadings;
      // The one field the corpus, not the file, decides.
      if (readings !== undefined)
        (d as { date: string | null }).date = dayFirst ? readings.dayFirst : readings.monthFirst;
    }
  }

  private resolveFrom(ref: string, fromCorpusPath: string): ResolveResult {
    const key = `${fromCorpusPath}\u0000${ref}`;
    let r = this.resolutions.get(key);
    if (r === undefined) {
      r = this.refs.resolve(ref, fromCorpusPath);
      this.resolutions.set(key, r);
    }
    return r;
  }
}
