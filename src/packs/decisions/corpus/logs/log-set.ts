/**
 * A workspace of several decision logs behind the one corpus interface. Each
 * log is an ordinary corpus of its own (its own numbers, relations and
 * governed paths); this composes them: ids and paths carry the log's name,
 * `billing:0003` names a record of another log, and a file is governed by
 * the log of the package it lies in.
 */
import path from 'node:path';
import type { Corpus } from '../corpus.js';
import type { DecisionCorpus } from '../corpus-view.js';
import { isInside, toPosix } from '../find/paths.js';
import { createHash } from '../lazy-crypto.js';
import type { RefreshStats } from '../load/records.js';
import type { Decision, Problem, SkippedFile, SupersessionEdge } from '../model.js';
import type { GoverningAnswer, GoverningEntry } from '../resolve/governs.js';
import type { SuccessorChain } from '../resolve/graph.js';
import type { ResolveResult } from '../resolve/resolve.js';
import type { SearchOptions, SearchResult } from '../search/search.js';
import { handOnAcrossLogs, mergeEdges } from './cross-log.js';
import { searchLogs } from './log-search.js';
import { LoggedDecision, namespacedId } from './logged-decision.js';

export interface DecisionLog {
  readonly name: string;
  /** The package folder the log speaks for, absolute. */
  readonly owner: string;
  readonly corpus: Corpus;
}

/** One log's records as shown, rebuilt whenever the log's own list changes. */
class LogView {
  private source: readonly Decision[] | null = null;
  private shown: LoggedDecision[] = [];
  private readonly byInner = new Map<Decision, LoggedDecision>();

  constructor(readonly log: DecisionLog) {}

  get name(): string {
    return this.log.name;
  }

  decisions(): readonly LoggedDecision[] {
    const now = this.log.corpus.decisions;
    if (now !== this.source) {
      const before = new Map(this.byInner);
      this.byInner.clear();
      this.shown = now.map((d) => before.get(d) ?? new LoggedDecision(this.log.name, d));
      for (const d of this.shown) this.byInner.set(d.inner, d);
      this.source = now;
    }
    return this.shown;
  }

  wrap(d: Decision): Decision {
    this.decisions();
    return this.byInner.get(d) ?? new LoggedDecision(this.log.name, d);
  }

  search(query: string, options: SearchOptions): SearchResult {
    return this.log.corpus.search(query, options);
  }
}

export class LogSet implements DecisionCorpus {
  readonly workspaceRoot: string;
  readonly corpusDir: string;
  private readonly views: LogView[];
  private all: readonly Decision[] | null = null;
  private allParts: readonly (readonly Decision[])[] = [];

  constructor(workspaceRoot: string, logs: readonly DecisionLog[]) {
    this.workspaceRoot = logs[0]?.corpus.workspaceRoot ?? workspaceRoot;
    this.corpusDir = this.workspaceRoot;
    this.views = logs.map((l) => new LogView(l));
  }

  get logs(): readonly DecisionLog[] {
    return this.views.map((v) => v.log);
  }

  get logNames(): readonly string[] {
    return this.views.map((v) => v.name);
  }

  get decisions(): readonly Decision[] {
    const parts = this.views.map((v) => v.decisions());
    // Tools read the list many times per call: the same lists give the same array.
    if (this.all === null || parts.some((p, i) => p !== this.allParts[i])) {
      this.all = parts.flat();
      this.allParts = parts;
    }
    return this.all;
  }

  get problems(): readonly Problem[] {
    return this.views.flatMap((v) => v.log.corpus.problems);
  }

  get skipped(): readonly SkippedFile[] {
    return this.views.flatMap((v) => v.log.corpus.skipped);
  }

  get edges(): readonly SupersessionEdge[] {
    return mergeEdges(this.views.flatMap((v) => v.log.corpus.edges.map((e) => this.edgeOf(v, e))));
  }

  get amendments(): readonly SupersessionEdge[] {
    return mergeEdges(this.views.flatMap((v) => v.log.corpus.amendments.map((e) => this.edgeOf(v, e))));
  }

  get fingerprint(): string {
    const hash = createHash('sha256');
    for (const v of this.views) hash.update(`${v.name}\u0000${v.log.corpus.fingerprint}\u0000`);
    return hash.digest('hex').slice(0, 32);
  }

  /** The log of that name, or undefined. */
  view(name: string): LogView | undefined {
    return this.views.find((v) => v.name === name);
  }

  /**
   * `billing:0003` in that log; a ref written in a record resolves in the
   * record's own log; any other ref in whichever log has it (ambiguous when
   * several do).
   */
  resolve(ref: string, fromCorpusPath?: string): ResolveResult {
    const named = this.splitRef(ref);
    if (named !== null) return this.mapResult(named.view, named.view.log.corpus.resolve(named.rest));
    if (fromCorpusPath !== undefined) {
      const from = this.splitPath(fromCorpusPath);
      if (from !== null) return this.mapResult(from.view, from.view.log.corpus.resolve(ref, from.rest));
    }
    const inPath = this.splitPath(ref);
    if (inPath !== null) {
      const r = this.mapResult(inPath.view, inPath.view.log.corpus.resolve(inPath.rest));
      if (r.kind !== 'not-found') return r;
    }
    // A repository path inside one log's folder is that log's question only (another log would match its number).
    const inFolder = this.views.find((v) => ref.startsWith(`${this.folderOf(v)}/`));
    if (inFolder !== undefined) return this.mapResult(inFolder, inFolder.log.corpus.resolve(ref));
    const answers = this.views.map((v) => this.mapResult(v, v.log.corpus.resolve(ref)));
    const matches = answers.flatMap((a) =>
      a.kind === 'found' ? [a.decision] : a.kind === 'ambiguous' ? [...a.candidates] : [],
    );
    if (matches.length === 1) return { kind: 'found', decision: matches[0] as Decision };
    if (matches.length > 1) return { kind: 'ambiguous', candidates: matches };
    const suggestions = answers.flatMap((a) => (a.kind === 'not-found' ? [...a.suggestions] : []));
    return { kind: 'not-found', suggestions: suggestions.slice(0, 5) };
  }

  search(query: string, options?: SearchOptions & { readonly log?: string | undefined }): SearchResult {
    const only = options?.log;
    const views = only === undefined ? this.views : this.views.filter((v) => v.name === only);
    return searchLogs(views, query, options);
  }

  /** Each file asks the log of the nearest package folder above it; a file in no package asks every log. */
  governing(files: readonly string[]): GoverningAnswer[] {
    const perView = new Map<LogView, string[]>();
    const owners = files.map((file) => {
      const chosen = this.coveringViews(file);
      for (const v of chosen) perView.set(v, [...(perView.get(v) ?? []), file]);
      return chosen;
    });
    const answers = new Map<LogView, Map<string, GoverningAnswer>>();
    for (const [v, list] of perView)
      answers.set(v, new Map(v.log.corpus.governing(list).map((a) => [a.file, a])));
    const successors = this.crossLogSuccessors();
    return files.map((file, i) => {
      const merged: GoverningAnswer = { file, governing: [], proposed: [], history: [] };
      for (const v of owners[i] ?? []) {
        const a = answers.get(v)?.get(file);
        if (a === undefined) continue;
        merged.governing.push(...a.governing.map((e) => this.entryOf(v, e)));
        merged.proposed.push(...a.proposed.map((e) => this.entryOf(v, e)));
        merged.history.push(...a.history.map((e) => this.entryOf(v, e)));
      }
      return handOnAcrossLogs(merged, successors);
    });
  }

  finalSuccessors(d: Decision): SuccessorChain[] {
    if (!(d instanceof LoggedDecision)) return [];
    const v = this.view(d.log);
    if (v === undefined) return [];
    return v.log.corpus.finalSuccessors(d.inner).map((c) => ({
      decision: v.wrap(c.decision),
      via: c.via.map((id) => namespacedId(v.name, id)),
    }));
  }

  refresh(): RefreshStats {
    const total = { added: 0, changed: 0, removed: 0 };
    for (const v of this.views) {
      const s = v.log.corpus.refresh();
      total.added += s.added;
      total.changed += s.changed;
      total.removed += s.removed;
    }
    return total;
  }

  onRefreshed(listener: (stats: RefreshStats) => void): () => void {
    const offs = this.views.map((v) => v.log.corpus.onRefreshed(listener));
    return () => {
      for (const off of offs) off();
    };
  }

  ensureFresh(): void {
    for (const v of this.views) v.log.corpus.ensureFresh();
  }

  async searchReady(): Promise<void> {
    await Promise.all(this.views.map((v) => v.log.corpus.searchReady()));
  }

  close(): void {
    for (const v of this.views) v.log.corpus.close();
  }

  /** Superseded record's path → its successor, for supersessions between two logs. */
  private crossLogSuccessors(): Map<string, Decision> {
    const byPath = new Map(this.decisions.map((d) => [d.path, d]));
    const out = new Map<string, Decision>();
    for (const e of this.edges) {
      if (e.state !== 'resolved' || e.fromPath === null || e.toPath === null) continue;
      const from = byPath.get(e.fromPath);
      const to = byPath.get(e.toPath);
      if (from instanceof LoggedDecision && to instanceof LoggedDecision && from.log !== to.log)
        out.set(e.toPath, from);
    }
    return out;
  }

  private coveringViews(file: string): LogView[] {
    const abs = path.resolve(this.workspaceRoot, file);
    let best: LogView | null = null;
    for (const v of this.views) {
      if (!isInside(v.log.owner, abs)) continue;
      if (best === null || v.log.owner.length > best.log.owner.length) best = v;
    }
    return best === null ? this.views : [best];
  }

  /** The log's decision folder, relative to the workspace root. */
  private folderOf(v: LogView): string {
    return toPosix(path.relative(this.workspaceRoot, v.log.corpus.corpusDir));
  }

  /** `billing:0003` → the billing log and `0003`; null when the part before `:` names no log. */
  private splitRef(ref: string): { view: LogView; rest: string } | null {
    const colon = ref.indexOf(':');
    if (colon <= 0) return null;
    const view = this.view(ref.slice(0, colon));
    const rest = ref.slice(colon + 1).trim();
    return view === undefined || rest === '' ? null : { view, rest };
  }

  /** `billing/0003-x.md` → the billing log and `0003-x.md`. */
  private splitPath(corpusPath: string): { view: LogView; rest: string } | null {
    const slash = corpusPath.indexOf('/');
    if (slash <= 0) return null;
    const view = this.view(corpusPath.slice(0, slash));
    return view === undefined ? null : { view, rest: corpusPath.slice(slash + 1) };
  }

  private mapResult(v: LogView, r: ResolveResult): ResolveResult {
    switch (r.kind) {
      case 'found':
        return { kind: 'found', decision: v.wrap(r.decision) };
      case 'ambiguous':
        return { kind: 'ambiguous', candidates: r.candidates.map((d) => v.wrap(d)) };
      case 'not-found':
        return { kind: 'not-found', suggestions: r.suggestions.map((d) => v.wrap(d)) };
    }
  }

  private entryOf(v: LogView, e: GoverningEntry): GoverningEntry {
    return {
      decision: v.wrap(e.decision),
      globs: e.globs,
      replaced: e.replaced.map((id) => namespacedId(v.name, id)),
    };
  }

  /**
   * A log's edge with namespaced ids. A side its own log could not resolve
   * because it names another log (`billing:0003`) is resolved there.
   */
  private edgeOf(v: LogView, e: SupersessionEdge): SupersessionEdge {
    const side = (id: string, p: string | null): { id: string; path: string | null } => {
      if (p !== null) return { id: namespacedId(v.name, id), path: p };
      const other = this.splitRef(id);
      if (other === null) return { id, path: null };
      const r = other.view.log.corpus.resolve(other.rest);
      return r.kind === 'found'
        ? { id: namespacedId(other.view.name, r.decision.id), path: r.decision.path }
        : { id, path: null };
    };
    const from = side(e.from, e.fromPath);
    const to = side(e.to, e.toPath);
    const crossResolved = e.state === 'dangling' && from.path !== null && to.path !== null;
    return {
      ...e,
      from: from.id,
      to: to.id,
      fromPath: from.path,
      toPath: to.path,
      ...(crossResolved ? { state: 'resolved' as const } : {}),
    };
  }
}
