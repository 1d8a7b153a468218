/**
 * The live corpus: every record parsed once, kept fresh by re-reading only
 * files whose size/mtime changed, with search, references, the supersession
 * graph and governed paths answered from memory. Everything is synchronous,
 * so an answer never mixes two versions of the corpus.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BodyCache } from './body-cache.js';
import { type Derived, derive } from './derive.js';
import { CorpusError } from './errors.js';
import { Fingerprint } from './fingerprint.js';
import { GlobIndex } from './glob-index.js';
import { Governance, type GoverningAnswer } from './governs.js';
import type { SuccessorChain } from './graph.js';
import type { Decision, Problem, SupersessionEdge } from './model.js';
import { parseDecision } from './parse.js';
import { isInside, realpathOrNull, toPosix } from './paths.js';
import { readRecord, statStamp } from './read.js';
import type { ResolveResult } from './resolve.js';
import { inspect, type ScanContext, type ScanEntry, walk } from './scan.js';
import { DecisionSearch, type SearchOptions, type SearchResult } from './search.js';
import { CorpusWatcher } from './watch.js';

export interface LoadOptions {
  readonly workspaceRoot: string;
  /** The decision folder; a relative path is taken relative to the workspace root. */
  readonly corpusDir: string;
  /** Watch folders and re-read changed files as they change (long-lived processes). */
  readonly watch?: boolean | undefined;
}

export interface RefreshStats {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
}

interface FileRecord {
  readonly stamp: string;
  readonly decision: Decision | null;
  readonly problems: readonly Problem[];
}

export class Corpus {
  readonly workspaceRoot: string;
  readonly corpusDir: string;
  private readonly ctx: ScanContext;
  private readonly records = new Map<string, FileRecord>();
  private readonly index = new DecisionSearch();
  private readonly globs = new GlobIndex();
  private readonly print = new Fingerprint();
  private derived!: Derived;
  private governance!: Governance;
  private watcher: CorpusWatcher | null = null;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stats = { added: 0, changed: 0, removed: 0 };
  private readonly bodies = new BodyCache((readPath) => this.markDirty(readPath));

  constructor(options: LoadOptions) {
    const root = realpathOrNull(options.workspaceRoot);
    if (root === null)
      throw new CorpusError('not-found', `workspace root ${options.workspaceRoot} does not exist`);
    const dir = realpathOrNull(path.resolve(root, options.corpusDir));
    if (dir === null)
      throw new CorpusError('not-found', `decision folder ${options.corpusDir} does not exist`);
    if (!isInside(root, dir)) {
      throw new CorpusError(
        'outside-workspace',
        `decision folder ${options.corpusDir} is outside the workspace root ${root}`,
      );
    }
    if (inspect({ root, corpusDir: dir }, dir)?.kind !== 'dir') {
      throw new CorpusError('not-a-directory', `decision folder ${options.corpusDir} is not a directory`);
    }
    this.workspaceRoot = root;
    this.corpusDir = dir;
    this.ctx = { root, corpusDir: dir };
    const { dirs } = this.rescan(dir);
    this.rebuild();
    if (options.watch === true) {
      this.watcher = new CorpusWatcher((p) => this.markDirty(p));
      for (const d of dirs) this.watcher.add(d);
    }
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

  get fingerprint(): string {
    return this.print.toString();
  }

  resolve(ref: string): ResolveResult {
    return this.derived.refs.resolve(ref);
  }

  search(query: string, options?: SearchOptions): SearchResult {
    return this.index.search(query, options);
  }

  /** Governing decisions per workspace-relative path (see Governance). At most a few hundred paths per call. */
  governing(files: readonly string[]): GoverningAnswer[] {
    return this.governance.governing(files);
  }

  /** Where the supersession chain starting at `d` ends (resolved, non-cycle edges only). */
  finalSuccessors(d: Decision): SuccessorChain[] {
    return this.derived.graph.finalSuccessors(d);
  }

  /** Re-read the whole folder, parsing only files whose stamp changed. */
  refresh(): RefreshStats {
    this.dirty.clear();
    this.stats = { added: 0, changed: 0, removed: 0 };
    const { dirs } = this.rescan(this.corpusDir);
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
    this.rebuild();
    return this.stats;
  }

  /** Apply pending watcher events now. Cheap when nothing changed. */
  ensureFresh(): void {
    if (this.dirty.size > 0) this.flush();
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
  }

  private markDirty(abs: string): void {
    this.dirty.add(abs);
    // A short delay folds an editor's burst of events (write, rename, chmod) into one refresh.
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.ensureFresh();
    }, 3);
  }

  private flush(): void {
    const paths = [...this.dirty];
    this.dirty.clear();
    this.stats = { added: 0, changed: 0, removed: 0 };
    try {
      if (!existsSync(this.corpusDir)) {
        for (const key of [...this.records.keys()]) this.drop(key);
      } else {
        for (const abs of paths) this.refreshPath(abs);
      }
    } catch {
      // Something raced us (a folder replaced mid-walk): fall back to a full, careful re-read.
      this.rescan(this.corpusDir);
    }
    this.rebuild();
  }

  private refreshPath(abs: string): void {
    if (!isInside(this.corpusDir, abs)) return;
    const key = toPosix(path.relative(this.corpusDir, abs));
    const found = abs === this.corpusDir ? { kind: 'dir' as const, abs } : inspect(this.ctx, abs);
    if (found === null || found.kind !== 'dir') {
      if (key !== '') this.dropUnder(key);
      if (found === null) {
        this.watcher?.remove(abs);
        this.drop(key);
      } else this.apply(found);
      return;
    }
    const { entries, dirs } = walk(this.ctx, found.abs);
    const seen = new Set(entries.map((e) => e.corpusPath));
    for (const e of entries) this.apply(e);
    for (const k of [...this.records.keys()])
      if ((key === '' || k.startsWith(`${key}/`)) && !seen.has(k)) this.drop(k);
    if (this.watcher !== null) for (const d of dirs) this.watcher.add(d);
  }

  private rescan(dir: string): { dirs: string[] } {
    const { entries, dirs } = walk(this.ctx, dir);
    if (this.records.size === 0) this.index.reserve(entries.length);
    const seen = new Set<string>();
    for (const e of entries) {
      seen.add(e.corpusPath);
      this.apply(e);
    }
    for (const key of [...this.records.keys()]) if (!seen.has(key)) this.drop(key);
    return { dirs };
  }

  private dropUnder(key: string): void {
    const prefix = `${key}/`;
    for (const k of [...this.records.keys()]) if (k.startsWith(prefix)) this.drop(k);
  }

  private apply(e: ScanEntry): void {
    const old = this.records.get(e.corpusPath);
    const rel = toPosix(path.relative(this.workspaceRoot, e.abs));
    let record: FileRecord;
    let contentStart = 0;
    let body = '';
    if (e.kind === 'skipped') {
      const stamp = `skipped:${e.reason}`;
      if (old?.stamp === stamp) return;
      record = { stamp, decision: null, problems: [{ path: rel, kind: 'skipped', message: e.reason }] };
    } else {
      // Known files are stat'ed first so an unchanged file costs one syscall, not a read.
      if (old !== undefined && statStamp(e.readPath) === old.stamp) return;
      const read = readRecord(e.readPath);
      if (read.kind === 'gone') {
        this.drop(e.corpusPath);
        return;
      }
      if (old?.stamp === read.stamp) return;
      if (read.kind === 'skipped') {
        record = {
          stamp: read.stamp,
          decision: null,
          problems: [{ path: rel, kind: 'skipped', message: read.reason }],
        };
      } else {
        const { readPath } = e;
        const { stamp } = read;
        const loadBody = (): string => this.bodies.get(readPath, stamp);
        const parsed = parseDecision({ text: read.text, path: rel, corpusPath: e.corpusPath, loadBody });
        contentStart = parsed.contentStart;
        body = parsed.body;
        record = { stamp, decision: parsed.decision, problems: parsed.problems };
        if (old !== undefined) this.bodies.put(this.bodies.keyOf(readPath, stamp), body);
      }
    }
    if (old !== undefined) {
      this.unindex(e.corpusPath, old);
      this.stats.changed++;
    } else {
      this.stats.added++;
    }
    this.records.set(e.corpusPath, record);
    this.print.toggle(e.corpusPath, record.stamp, true);
    if (record.decision !== null) {
      this.index.upsert(record.decision, body, contentStart);
      this.globs.add(record.decision);
    }
  }

  private drop(key: string): void {
    const old = this.records.get(key);
    if (old === undefined) return;
    this.unindex(key, old);
    this.records.delete(key);
    this.stats.removed++;
  }

  private unindex(key: string, old: FileRecord): void {
    this.print.toggle(key, old.stamp, false);
    if (old.decision !== null) {
      this.index.remove(old.decision.path);
      this.globs.remove(old.decision);
    }
  }

  private rebuild(): void {
    const decisions: Decision[] = [];
    const problems: Problem[] = [];
    for (const r of this.records.values()) {
      if (r.decision !== null) decisions.push(r.decision);
      for (const p of r.problems) problems.push(p);
    }
    this.derived = derive(decisions, problems, this.workspaceRoot, this.corpusDir);
    this.governance = new Governance(this.globs, this.derived.graph);
    this.index.commit();
  }
}

export function loadCorpus(options: LoadOptions): Corpus {
  return new Corpus(options);
}
