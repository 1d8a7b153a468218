/**
 * The corpus as tools, resources and commands use it. One decision log
 * (`Corpus`) and a workspace of several logs (`LogSet`) both answer it, so
 * nothing downstream needs to know how many logs a repository keeps.
 */
import type { RefreshStats } from './load/records.js';
import type { Decision, Problem, SkippedFile, SupersessionEdge } from './model.js';
import type { GoverningAnswer } from './resolve/governs.js';
import type { SuccessorChain } from './resolve/graph.js';
import type { ResolveResult } from './resolve/resolve.js';
import type { SearchOptions, SearchResult } from './search/search.js';

export interface DecisionCorpus {
  readonly workspaceRoot: string;
  /** The decision folder; for several logs, the workspace root (each log has its own). */
  readonly corpusDir: string;
  readonly decisions: readonly Decision[];
  readonly problems: readonly Problem[];
  readonly edges: readonly SupersessionEdge[];
  readonly amendments: readonly SupersessionEdge[];
  readonly skipped: readonly SkippedFile[];
  readonly fingerprint: string;
  resolve(ref: string, fromCorpusPath?: string): ResolveResult;
  /** `log`: only that log of several (a single log has none to choose and ignores it). */
  search(query: string, options?: SearchOptions & { readonly log?: string | undefined }): SearchResult;
  governing(files: readonly string[]): GoverningAnswer[];
  finalSuccessors(d: Decision): SuccessorChain[];
  refresh(): RefreshStats;
  onRefreshed(listener: (stats: RefreshStats) => void): () => void;
  ensureFresh(): void;
  /** Settles when the search index is built or the corpus closed (search never waits for it: it finishes the build). */
  searchReady(): Promise<void>;
  close(): void;
}
