/**
 * The live corpus: every record parsed once, kept fresh by re-reading only
 * files whose size/mtime changed, with search, references, the supersession
 * graph and governed paths answered from memory. Everything is synchronous,
 * so an answer never mixes two versions of the corpus.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { DecisionCorpus } from './corpus-view.js';
import { locateCorpus } from './find/discover.js';
import { isInside, toPosix } from './find/paths.js';
import { folderIndexesAbove, inspect, type ScanContext, walk } from './find/scan.js';
import { CorpusWatcher } from './find/watch.js';
import { coldLoad } from './load/cold-load.js';
import { WorkerShare } from './load/parallel.js';
import { type ParsedCacheOptions, ParsedRecordCache } from './load/parsed-cache.js';
import { RecordStore, type RefreshStats } from './load/records.js';
import { SearchPostingsCache } from './load/search-cache.js';
import type { Decision, Problem, SkippedFile, SupersessionEdge } from './model.js';
import { loadNavTitles } from './read/nav.js';
import { DerivedState } from './resolve/derive.js';
import { Governance, type GoverningAnswer } from './resolve/governs.js';
import type { SuccessorChain } from './resolve/graph.js';
import type { ResolveResult } from './resolve/resolve.js';
import { IndexBuilder } from './search/index-builder.js';
import type { SearchIndexMode, SearchOptions, SearchResult } from './search/search.js';

export type { RefreshStats } from './load/records.js';

export interface LoadOptions {
  readonly workspaceRoot: string;
  /** The decision folder; a relative path is taken relative to the workspace root. */
  readonly corpusDir: string;
  /** Watch folders and re-read changed files as they change (long-lived processes). */
  readonly watch?: boolean | undefined;
  /**
   * Prepare part of a cold load on a worker thread, only when true: measured on
   * two shared vCPUs it saved no time and cost CPU and 18-45 MiB (ADR 0028).
   */
  readonly parallel?: boolean | undefined;
  /**
   * With `watch`: how often to re-check the folder even without events
   * (default 30 s; 0 never), for watchers that miss some: network and
   * container file systems, a folder replaced twice in a row.
   */
  readonly recheckMs?: number | undefined;
  /** Told which records a refresh added, changed or removed (never for the first load). */
  readonly onChange?: ((changes: CorpusChanges) => void) | undefined;
  /**
   * When the search index is built (default `eager`, during the load):
   * `deferred` on the first search, for one-shot commands, most of which never
   * search; `background` after the load returns, a slice at a time, for a
   * daemon, which serves everything else meanwhile (search.ts).
   */
  readonly searchIndex?: SearchIndexMode | undefined;
  /** Reuse the last one-shot run's parses of unchanged files, and keep this run's (parsed-cache.ts). */
  readonly parsedCache?: ParsedCacheOptions | undefined;
}

/** Corpus-relative paths of the decisions one refresh added, changed and removed. */
export interface CorpusChanges {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  /** What the added and changed files hold now (equal strings, equal text), by corpus path. */
  readonly versions?: ReadonlyMap<string, string> | undefined;
  /**
   * Removed decisions whose file is still there, read as no decision (empty,
   * half-written, unparseable): often a save caught between truncate and write.
   */
  readonly unreadable?: readonly string[] | undefined;
}

export const DEFAULT_RECHECK_MS = 30_000;

/** A burst of editor events (write, rename, chmod) within this window becomes one refresh. */
const DEBOUNCE_MS = 3;

export class Corpus implements DecisionCorpus {
  readonly workspaceRoot: string;
  readonly corpusDir: string;
  private readonly ctx: ScanContext;
  private readonly store: RecordStore;
  /** The one-shot parse cache this corpus loaded with, saved again on close for memos added since. */
  private readonly parsedCache: ParsedRecordCache | undefined;
  private readonly derived: DerivedState;
  /** Built when first asked, like the derived graph it reads; dropped by every settle. */
  private governance: Governance | null = null;
  private watcher: CorpusWatcher | null = null;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private parallel: boolean | undefined;
  /** Corpus-relative folders seen by the last walks: only their removal needs a sweep of the records. */
  private readonly folders = new Set<string>();
  /** The corpus folder's device and inode as last read: another value means the folder was replaced. */
  private identity: string | null;
  private recheck: NodeJS.Timeout | null = null;
  private readonly refreshed = new Set<(stats: RefreshStats) => void>();
  /** Set once the first load has settled: a cold load is no change. */
  private onChange: ((changes: CorpusChanges) => void) | undefined;
  /** Building the search index after the load (the background mode), until it is built or closed. */
  private builder: IndexBuilder | null = null;

  constructor(options: LoadOptions) {
    const { root, dir } = locateCorpus(options.workspaceRoot, options.corpusDir);
    this.workspaceRoot = root;
    this.corpusDir = dir;
    this.ctx = { root, corpusDir: dir };
    this.parsedCache =
      options.parsedCache === undefined ? undefined : new ParsedRecordCache(options.parsedCache, dir);
    const parsedCache = this.parsedCache;
    this.store = new RecordStore(
      root,
      dir,
      {
        watched: options.watch === true,
        searchIndex: options.searchIndex ?? 'eager',
        parsedCache,
        postingsCache:
          options.parsedCache === undefined ? undefined : new SearchPostingsCache(options.parsedCache, dir),
      },
      (readPath) => this.markDirty(readPath),
    );
    this.derived = new DerivedState(root, dir);
    this.store.navTitles = loadNavTitles(root, dir);
    this.parallel = options.parallel;
    this.identity = folderIdentity(dir);
    if (options.watch === true) {
      // Watching before reading: a file changed during the load is re-checked right after it.
      this.watcher = new CorpusWatcher((p) => this.markDirty(p));
      this.watcher.watchRoot(dir);
      this.watcher.add(dir);
      const recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS;
      if (recheckMs > 0) {
        this.recheck = setInterval(() => this.markDirty(dir), recheckMs);
        this.recheck.unref();
      }
    }
    // Remembered parses are cheaper than a worker's start: a cache in use loads on this thread.
    if (parsedCache?.holdsEntries === true) this.parallel = false;
    const { dirs } = this.rescan();
    parsedCache?.save();
    this.settle();
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
    this.onChange = options.onChange;
    if (options.searchIndex === 'background') this.builder = new IndexBuilder(this.store.search);
  }

  get decisions(): readonly Decision[] {
    return this.derived.decisions;
  }

  /** File-level problems (unparseable, unknown status, skipped, duplicate numbers). Edge problems are on `edges`. */
  get problems(): readonly Problem[] {
    return this.derived.problems;
  }

  get edges(): readonly SupersessionEdge[] {
    return this.derived.graph.edges;
  }

  /** Amendment edges (`from` amends `to`), merged from both sides and resolved like `edges`. */
  get amendments(): readonly SupersessionEdge[] {
    return this.derived.amendments;
  }

  /** Markdown files deliberately not read as decisions (templates, tables of contents), sorted by path. */
  get skipped(): readonly SkippedFile[] {
    return this.store.skipped();
  }

  /** Changes whenever any record changes; equal for equal files across restarts. */
  get fingerprint(): string {
    return this.store.fingerprint;
  }

  /** `fromCorpusPath`: the record that wrote the reference, so relative links resolve from it. */
  resolve(ref: string, fromCorpusPath?: string): ResolveResult {
    return this.derived.refs.resolve(ref, fromCorpusPath);
  }

  search(query: string, options?: SearchOptions): SearchResult {
    return this.store.search.search(query, options);
  }

  /** Settles when the search index is built (at once unless it builds in the background) or the corpus closed. */
  searchReady(): Promise<void> {
    return this.builder?.whenReady() ?? Promise.resolve();
  }

  /** Governing decisions per workspace-relative path (see Governance). At most a few hundred paths per call. */
  governing(files: readonly string[]): GoverningAnswer[] {
    this.governance ??= new Governance(this.store.globs, this.derived.graph, this.derived.decisions);
    return this.governance.governing(files);
  }

  /** Where the supersession chain starting at `d` ends (resolved, non-cycle edges only). */
  finalSuccessors(d: Decision): SuccessorChain[] {
    return this.derived.graph.finalSuccessors(d);
  }

  /** Re-read the whole folder, parsing only files whose stamp changed. */
  refresh(): RefreshStats {
    this.dirty.clear();
    this.store.navTitles = loadNavTitles(this.workspaceRoot, this.corpusDir);
    const { dirs } = this.rescan();
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
    return this.settle().stats;
  }

  /**
   * Call `listener` after every refresh driven by watcher events or the
   * periodic check (not by refresh()). Returns the unsubscribe.
   */
  onRefreshed(listener: (stats: RefreshStats) => void): () => void {
    this.refreshed.add(listener);
    return () => this.refreshed.delete(listener);
  }

  /** Apply pending watcher events now. Cheap when nothing changed. */
  ensureFresh(): void {
    if (this.dirty.size > 0) this.flush();
  }

  close(): void {
    // Memos a command added after the load (record-memo.ts) are kept for the next run.
    this.parsedCache?.save();
    this.builder?.stop();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.recheck !== null) clearInterval(this.recheck);
    this.recheck = null;
    this.refreshed.clear();
    this.watcher?.close();
    this.watcher = null;
  }

  private markDirty(abs: string): void {
    this.dirty.add(abs);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.ensureFresh();
    }, DEBOUNCE_MS);
  }

  private flush(): void {
    const paths = [...this.dirty];
    this.dirty.clear();
    try {
      const identity = folderIdentity(this.corpusDir);
      if (identity !== this.identity) this.replaced(identity);
      else if (identity === null) this.store.dropUnder('');
      else for (const abs of paths) this.refreshPath(abs);
    } catch {
      // Something raced us (a folder replaced mid-walk): fall back to a full, careful re-read.
      this.safeRescan();
    }
    const { stats } = this.settle();
    for (const listener of this.refreshed) listener(stats);
  }

  /**
   * The corpus folder is not the one we watched (moved away, deleted,
   * re-created, copied back): the old watchers follow the old folder, so drop
   * them all, watch the new one and read it from scratch.
   */
  private replaced(identity: string | null): void {
    this.identity = identity;
    this.watcher?.remove(this.corpusDir);
    if (identity === null) {
      this.folders.clear();
      this.store.dropUnder('');
      return;
    }
    this.watcher?.add(this.corpusDir);
    const { dirs } = this.rescan();
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
  }

  private safeRescan(): void {
    try {
      this.rescan();
    } catch {
      // Still racing (the folder went away mid-walk): the next event or check reads it again.
    }
  }

  /** Re-read one path a watcher reported: a file, a new folder, or something that went away. */
  private refreshPath(abs: string): void {
    if (!isInside(this.corpusDir, abs)) return;
    const key = toPosix(path.relative(this.corpusDir, abs));
    const found = abs === this.corpusDir ? { kind: 'dir' as const, abs } : inspect(this.ctx, abs);
    if (found === null || found.kind !== 'dir') {
      // Whatever was a folder here is not one any more.
      if (this.folders.delete(key)) this.store.dropUnder(key);
      const known = this.store.has(key);
      if (found === null) {
        this.watcher?.remove(abs);
        this.store.drop(key);
      } else {
        this.store.apply(found);
      }
      // A record added to or removed from a topic folder can turn its README into a table of contents or back.
      if (found === null || !known) this.recheckFolderIndex(path.dirname(abs), key);
      return;
    }
    const { entries, dirs } = walk(this.ctx, found.abs);
    this.noteFolders(dirs);
    const seen = new Set(entries.map((e) => e.corpusPath));
    for (const e of entries) this.store.apply(e);
    const prefix = key === '' ? '' : `${key}/`;
    for (const k of this.store.keys()) if (k.startsWith(prefix) && !seen.has(k)) this.store.drop(k);
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
    if (abs !== this.corpusDir) this.recheckFolderIndex(path.dirname(abs), key, true);
  }

  /** A record added or removed beside or below a README can turn it into a table of contents or back. */
  private recheckFolderIndex(dir: string, changedKey: string, folder = false): void {
    for (const entry of folderIndexesAbove(this.ctx, dir, changedKey, folder)) this.store.apply(entry);
  }

  private rescan(): { dirs: string[] } {
    const first = this.store.size === 0;
    // Started before the walk so the worker's own start-up overlaps it.
    const share = first && this.parallel === true ? WorkerShare.spawn() : null;
    const { entries, dirs } = walk(this.ctx, this.corpusDir);
    this.folders.clear();
    this.noteFolders(dirs);
    if (first) {
      coldLoad(this.store, entries, share, this.parallel);
      return { dirs };
    }
    const seen = new Set<string>();
    for (const e of entries) {
      seen.add(e.corpusPath);
      this.store.apply(e);
    }
    for (const key of this.store.keys()) if (!seen.has(key)) this.store.drop(key);
    return { dirs };
  }

  private noteFolders(dirs: readonly string[]): void {
    for (const d of dirs) this.folders.add(toPosix(path.relative(this.corpusDir, d)));
  }

  /** Fold the batch of record changes into the derived state. */
  private settle(): { stats: RefreshStats } {
    const batch = this.store.takeBatch();
    const changed = batch.added.length + batch.removed.length > 0;
    if (changed && this.onChange !== undefined) {
      const changes = changesOf(batch.added, batch.removed);
      const unreadable = changes.removed.filter((p) => this.store.has(p));
      this.onChange({ ...changes, versions: batch.versions, unreadable });
    }
    if (changed || this.derived.decisions.length === 0) {
      this.derived.update(batch.removed, batch.added, this.store.problems(), this.store.size);
      this.governance = null;
    } else if (batch.stats.added + batch.stats.changed + batch.stats.removed > 0) {
      // Only skipped or unparseable files changed: the problem list still has to follow.
      this.derived.update([], [], this.store.problems(), this.store.size);
    }
    return { stats: batch.stats };
  }
}

/** `dev:ino` of a folder, or null when there is none at `p`. */
function folderIdentity(p: string): string | null {
  try {
    const st = statSync(p);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/** A changed record is in both lists of a batch (its old version removed, its new one added). */
function changesOf(added: readonly Decision[], removed: readonly Decision[]): CorpusChanges {
  const before = new Set(removed.map((d) => d.corpusPath));
  const after = new Set(added.map((d) => d.corpusPath));
  return {
    added: [...after].filter((p) => !before.has(p)),
    changed: [...after].filter((p) => before.has(p)),
    removed: [...before].filter((p) => !after.has(p)),
  };
}

export function loadCorpus(options: LoadOptions): Corpus {
  return new Corpus(options);
}
