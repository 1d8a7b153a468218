/**
 * One record per Markdown file in the corpus, and the per-record indexes
 * that follow it: search postings, governed-path globs, the fingerprint and
 * the problem list. Changes are collected per batch for the derived state.
 */
import path from 'node:path';
import { toPosix } from '../find/paths.js';
import type { ScanEntry } from '../find/scan.js';
import { createHash } from '../lazy-crypto.js';
import type { Decision, Problem, SkippedFile } from '../model.js';
import { parseDecision } from '../read/parse.js';
import { readRecord, statStamp } from '../read/read.js';
import { GlobIndex } from '../resolve/glob-index.js';
import { DecisionSearch, type SearchIndexMode } from '../search/search.js';
import { BodyCache } from './body-cache.js';
import { Fingerprint } from './fingerprint.js';
import { LazyDecision } from './lazy-decision.js';
import type { ParsedRecordCache } from './parsed-cache.js';
import type { PreparedBatch } from './prepare.js';
import { attachMemo } from './record-memo.js';
import type { PostingsCache } from './search-cache.js';

export interface FileRecord {
  /** size:mtime:inode of the file as read, or a marker for skipped files. */
  readonly stamp: string;
  readonly decision: Decision | null;
  readonly problems: readonly Problem[];
  /** Set for a Markdown file deliberately not read (a template, a table of contents). */
  readonly skipped?: SkippedFile | undefined;
}

export interface RefreshStats {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
}

export interface Batch {
  /** Previous versions of records that changed or disappeared. */
  readonly removed: Decision[];
  readonly added: Decision[];
  /**
   * What each added decision's file held, by corpus path: a hash of its text
   * when a refresh read it, else its stamp. Equal versions, equal content.
   */
  readonly versions: ReadonlyMap<string, string>;
  readonly stats: RefreshStats;
}

export class RecordStore {
  readonly search: DecisionSearch;
  readonly globs = new GlobIndex();
  readonly bodies: BodyCache;
  private readonly records = new Map<string, FileRecord>();
  private readonly withProblems = new Map<string, readonly Problem[]>();
  private readonly skippedFiles = new Map<string, SkippedFile>();
  /** Titles from the site navigation, by corpus path (see nav.ts). */
  navTitles: ReadonlyMap<string, string> = new Map();
  private readonly print = new Fingerprint();
  private removed: Decision[] = [];
  private added: Decision[] = [];
  private versions = new Map<string, string>();
  private stats = { added: 0, changed: 0, removed: 0 };

  /** The corpus folder relative to the workspace root, with a trailing slash ('' when they coincide). */
  private readonly relPrefix: string;
  /**
   * Whether `apply` hashes the text it reads into the record's version.
   * Versions let the change announcer tell a rewrite with the same text from
   * a real change, and name cached parses and postings. The first batch (the
   * cold load) is announced to nobody, so without a cache it skips hashing
   * 65 MB of text and takes each record's stamp as its version.
   */
  private hashVersions: boolean;

  /** The parses of the last one-shot run (parsed-cache.ts), when this load may use them. */
  private readonly parsedCache: ParsedRecordCache | undefined;

  constructor(
    root: string,
    corpusDir: string,
    /**
     * `watched`: a watcher keeps records fresh, so bodies need no per-read
     * stamp check; `searchIndex`: when the search index is built.
     */
    options: {
      readonly watched: boolean;
      readonly searchIndex: SearchIndexMode;
      readonly parsedCache?: ParsedRecordCache | undefined;
      /** Where a deferred search index keeps its postings between runs. */
      readonly postingsCache?: PostingsCache | undefined;
    },
    onStale: (readPath: string) => void,
  ) {
    this.parsedCache = options.parsedCache;
    this.hashVersions = options.parsedCache !== undefined || options.postingsCache !== undefined;
    this.search = new DecisionSearch({ mode: options.searchIndex, postings: options.postingsCache });
    this.bodies = new BodyCache(onStale, !options.watched);
    const rel = toPosix(path.relative(root, corpusDir));
    this.relPrefix = rel === '' ? '' : `${rel}/`;
  }

  get size(): number {
    return this.records.size;
  }

  get fingerprint(): string {
    return this.print.toString();
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  keys(): string[] {
    return [...this.records.keys()];
  }

  problems(): Problem[] {
    return [...this.withProblems.values()].flat();
  }

  /** Templates and tables of contents, sorted by path. */
  skipped(): SkippedFile[] {
    return [...this.skippedFiles.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Bring the record for one scanned entry up to date; unchanged files cost one stat. */
  apply(e: ScanEntry): void {
    const old = this.records.get(e.corpusPath);
    const rel = this.relPrefix + e.corpusPath;
    if (e.kind === 'skipped') {
      const stamp = `skipped:${e.reason}`;
      if (old?.stamp !== stamp) this.set(e.corpusPath, skippedRecord(stamp, rel, e.reason), null);
      return;
    }
    if (e.kind === 'ignored') {
      const stamp = `ignored:${e.reason}`;
      if (old?.stamp !== stamp)
        this.set(
          e.corpusPath,
          { stamp, decision: null, problems: [], skipped: { path: rel, reason: e.reason } },
          null,
        );
      return;
    }
    if (old !== undefined && statStamp(e.readPath) === old.stamp) return;
    if (old === undefined && this.parsedCache !== undefined && this.applyCached(e, rel)) return;
    const read = readRecord(e.readPath);
    if (read.kind === 'gone') {
      this.drop(e.corpusPath);
      return;
    }
    if (old?.stamp === read.stamp) return;
    if (read.kind === 'skipped') {
      this.set(e.corpusPath, skippedRecord(read.stamp, rel, read.reason), null);
      return;
    }
    const { readPath } = e;
    const { stamp } = read;
    const parsed = parseDecision({
      text: read.text,
      path: rel,
      corpusPath: e.corpusPath,
      lazyBody: { source: this.bodies, readPath, stamp },
      navTitle: this.navTitles.get(e.corpusPath),
    });
    // A file that just changed is likely to be asked for next.
    if (old !== undefined) this.bodies.put(this.bodies.keyOf(readPath, stamp), parsed.body);
    const record = { stamp, decision: parsed.decision, problems: parsed.problems };
    // The announcer tells a rewrite with the same text apart by this hash.
    const hashed = this.hashVersions ? createHash('sha1').update(read.text).digest('base64') : undefined;
    const version = hashed ?? stamp;
    if (this.parsedCache !== undefined && parsed.decision !== null)
      attachMemo(parsed.decision, this.parsedCache.memo(e.corpusPath));
    this.parsedCache?.remember(e.corpusPath, {
      stamp,
      rel,
      nav: this.navTitles.get(e.corpusPath) ?? null,
      // Own fields only, copied now: the corpus settles some of them (dates) after the load.
      decision: parsed.decision === null ? null : { ...parsed.decision },
      problems: parsed.problems,
      from: parsed.contentStart,
      version,
    });
    this.set(
      e.corpusPath,
      record,
      (d) => this.search.upsert(d, parsed.body, parsed.contentStart, hashed),
      version,
    );
  }

  /** A new file the last run parsed as it is now: its record from the cache, its body left on disk. */
  private applyCached(e: ScanEntry & { kind: 'file' }, rel: string): boolean {
    const cache = this.parsedCache;
    const stamp = statStamp(e.readPath);
    if (cache === undefined || stamp === null) return false;
    const hit = cache.lookup(e.corpusPath, stamp, rel, this.navTitles.get(e.corpusPath));
    if (hit === undefined) return false;
    const decision =
      hit.decision === null ? null : new LazyDecision(hit.decision, this.bodies, e.readPath, stamp);
    if (decision !== null) attachMemo(decision, cache.memo(e.corpusPath));
    const record = { stamp, decision, problems: hit.problems };
    // The body the index reads is the one the file holds (its stamp unchanged): read when indexed.
    this.set(
      e.corpusPath,
      record,
      (d) => this.search.upsert(d, () => d.body, hit.from, hit.version),
      hit.version,
    );
    return true;
  }

  /** Workspace-relative path of a corpus path. */
  relOf(corpusPath: string): string {
    return this.relPrefix + corpusPath;
  }

  /**
   * Take in files a load worker prepared (see prepare.ts), `entries[i]`
   * being the file behind `batch.files[i]`.
   */
  applyPrepared(entries: readonly { corpusPath: string; readPath: string }[], batch: PreparedBatch): void {
    const termMap = this.search.mapTerms(batch.log.dictTerms);
    batch.files.forEach((f, i) => {
      const e = entries[i];
      if (e === undefined) return;
      const rel = this.relPrefix + e.corpusPath;
      if (f.outcome === 'gone') this.drop(e.corpusPath);
      else if (f.outcome === 'skipped') this.set(e.corpusPath, skippedRecord(f.stamp, rel, f.reason), null);
      else {
        const { readPath } = e;
        const { stamp, doc } = f;
        const decision =
          f.decision === null ? null : new LazyDecision(f.decision, this.bodies, readPath, stamp);
        this.set(e.corpusPath, { stamp, decision, problems: f.problems }, (d) =>
          this.search.upsertPrepared(d, batch.log, doc, termMap),
        );
      }
    });
  }

  drop(key: string): void {
    const old = this.records.get(key);
    if (old === undefined) return;
    this.unindex(key, old);
    this.records.delete(key);
    this.stats.removed++;
  }

  /** Drop every record under the corpus folder `key` (a folder that went away). */
  dropUnder(key: string): void {
    const prefix = key === '' ? '' : `${key}/`;
    for (const k of this.keys()) if (k.startsWith(prefix)) this.drop(k);
  }

  /** The decisions added and removed since the last call, and how many records changed. */
  takeBatch(): Batch {
    const batch = { removed: this.removed, added: this.added, versions: this.versions, stats: this.stats };
    this.removed = [];
    this.added = [];
    this.versions = new Map();
    this.stats = { added: 0, changed: 0, removed: 0 };
    // From the first refresh on, changes are announced: their versions must tell text apart.
    this.hashVersions = true;
    this.search.commit();
    return batch;
  }

  /** Store a record; `index` puts its decision into the search index. */
  private set(
    key: string,
    record: FileRecord,
    index: ((d: Decision) => void) | null,
    version: string = record.stamp,
  ): void {
    const old = this.records.get(key);
    if (old !== undefined) {
      this.unindex(key, old);
      this.stats.changed++;
    } else {
      this.stats.added++;
    }
    this.records.set(key, record);
    this.print.toggle(key, record.stamp, true);
    if (record.problems.length > 0) this.withProblems.set(key, record.problems);
    if (record.skipped !== undefined) this.skippedFiles.set(key, record.skipped);
    const d = record.decision;
    if (d !== null) {
      index?.(d);
      this.globs.add(d);
      this.added.push(d);
      this.versions.set(key, version);
    }
  }

  private unindex(key: string, old: FileRecord): void {
    this.print.toggle(key, old.stamp, false);
    this.withProblems.delete(key);
    this.skippedFiles.delete(key);
    const d = old.decision;
    if (d === null) return;
    this.search.remove(d.path);
    this.globs.remove(d);
    // Added and removed again within one batch: the derived state never saw it.
    const pending = this.added.indexOf(d);
    if (pending >= 0) this.added.splice(pending, 1);
    else this.removed.push(d);
  }
}

function skippedRecord(stamp: string, rel: string, reason: string): FileRecord {
  return { stamp, decision: null, problems: [{ path: rel, kind: 'skipped', message: reason }] };
}
