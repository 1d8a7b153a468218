/**
 * The decisions pack's state for one workspace: the located corpus (or why
 * none was found) and its live, watched index.
 */
import { MoorError, type MoorErrorCode, ToolError } from '../../errors.js';
import type { RoomAnnouncer } from '../../host/pack.js';
import { type AnnounceTimer, ChangeAnnouncer } from './announce.js';
import { type CorpusChanges, loadCorpus } from './corpus/corpus.js';
import type { DecisionCorpus } from './corpus/corpus-view.js';
import { CONVENTIONAL_CORPUS_DIRS, findCorpusDir } from './corpus/find/discover.js';
import {
  type DecisionLogPlace,
  findPackageLogs,
  type ListedDirs,
  listedLogs,
  readListedDirs,
} from './corpus/find/discover-logs.js';
import type { ParsedCacheOptions } from './corpus/load/parsed-cache.js';
import { type DecisionLog, LogSet } from './corpus/logs/log-set.js';
import { namespacedPath } from './corpus/logs/logged-decision.js';
import type { SearchIndexMode } from './corpus/search/search.js';
import { decisionUriOf } from './decision-uri.js';

export interface DecisionsOptions {
  /** `--decisions DIR`, already resolved to an absolute path. */
  readonly decisionsDir?: string | undefined;
  /** Watch the corpus for changes (long-lived processes); one-shot CLI calls skip it. */
  readonly watch: boolean;
  /**
   * When the search index is built (corpus.ts, default at load): `deferred` for
   * one-shot CLI calls, most of which never search; `background` for a daemon.
   */
  readonly searchIndex?: SearchIndexMode | undefined;
  /** Reuse the last one-shot run's parses of unchanged records (the CLI's state dir; never the daemon). */
  readonly parsedCache?: ParsedCacheOptions | undefined;
  /** Serve the tools that write into the corpus (draft_decision): the daemon's `--allow-writes`. */
  readonly allowWrites?: boolean | undefined;
  /** How long a burst of file changes must be quiet before it is announced (default 100 ms). */
  readonly announceDebounceMs?: number | undefined;
  /** The announcements' timer (tests). */
  readonly announceTimer?: AnnounceTimer | undefined;
}

/** Why a corpus cannot be loaded at all (problems with single records are reported, never thrown). */
const UNLOADABLE_CORPUS: ReadonlySet<MoorErrorCode> = new Set([
  'CORPUS_NOT_FOUND',
  'CORPUS_NOT_A_DIRECTORY',
  'PATH_OUTSIDE_WORKSPACE',
]);

export type DecisionsState =
  | {
      readonly kind: 'loaded';
      readonly root: string;
      readonly corpusDir: string;
      readonly corpus: DecisionCorpus;
      /** Present when the workspace keeps several decision logs (a monorepo's packages): their names and folders. */
      readonly logs?: readonly DecisionLogPlace[];
      /** Present when the workspace's changes are announced. */
      readonly announcer?: ChangeAnnouncer;
    }
  | { readonly kind: 'missing'; readonly root: string; readonly message: string };

export function openDecisions(
  root: string,
  options: DecisionsOptions,
  announce?: RoomAnnouncer,
): DecisionsState {
  // The flag wins; then a moor.json list; then the root's own folder; then the packages' logs.
  const listed: ListedDirs = options.decisionsDir ? { kind: 'none' } : readListedDirs(root);
  if (listed.kind === 'invalid')
    return { kind: 'missing', root, message: `No decision records: ${listed.message}.` };
  const several = listed.kind === 'listed' && listed.dirs.length > 1;
  const found = several
    ? null
    : findCorpusDir(root, listed.kind === 'listed' ? listed.dirs[0] : options.decisionsDir);
  const logPlaces = several
    ? listedLogs(root, listed.dirs)
    : found === null && !options.decisionsDir
      ? findPackageLogs(root)
      : [];
  if (!found && logPlaces.length === 0)
    return { kind: 'missing', root, message: missingCorpusMessage(root, options.decisionsDir) };
  // Every refresh's changes (the watcher's, and draft_decision's own) are announced once, per burst.
  const announcer =
    announce === undefined
      ? undefined
      : new ChangeAnnouncer({
          announce,
          uriOf: decisionUriOf,
          debounceMs: options.announceDebounceMs,
          timer: options.announceTimer,
        });
  try {
    if (!found) return openLogs(root, logPlaces, options, announcer);
    const corpus = loadCorpus({
      workspaceRoot: root,
      corpusDir: found.dir,
      watch: options.watch,
      searchIndex: options.searchIndex,
      parsedCache: options.parsedCache,
      ...(announcer === undefined ? {} : { onChange: (changes) => announcer.note(changes) }),
    });
    return {
      kind: 'loaded',
      root,
      corpusDir: found.dir,
      corpus,
      ...(announcer === undefined ? {} : { announcer }),
    };
  } catch (error) {
    // A folder that vanished or points outside the workspace is a configuration problem the agent can report, not a crash.
    if (!(error instanceof MoorError && UNLOADABLE_CORPUS.has(error.code))) throw error;
    return {
      kind: 'missing',
      root,
      message: `No decision records: ${error.message}. Pass --decisions with a folder inside ${root}.`,
    };
  }
}

/** A monorepo's package logs, each its own corpus, composed; a change names the record by its namespaced path. */
function openLogs(
  root: string,
  places: readonly DecisionLogPlace[],
  options: DecisionsOptions,
  announcer: ChangeAnnouncer | undefined,
): DecisionsState {
  const prefixed = (log: string, changes: CorpusChanges): CorpusChanges => {
    const of = (list: readonly string[]) => list.map((p) => namespacedPath(log, p));
    const versions =
      changes.versions === undefined
        ? undefined
        : new Map([...changes.versions].map(([p, v]) => [namespacedPath(log, p), v] as const));
    return {
      added: of(changes.added),
      changed: of(changes.changed),
      removed: of(changes.removed),
      versions,
      unreadable: changes.unreadable === undefined ? undefined : of(changes.unreadable),
    };
  };
  const logs: DecisionLog[] = [];
  try {
    for (const place of places)
      logs.push({
        name: place.name,
        owner: place.owner,
        corpus: loadCorpus({
          workspaceRoot: root,
          corpusDir: place.dir,
          watch: options.watch,
          searchIndex: options.searchIndex,
          parsedCache: options.parsedCache,
          ...(announcer === undefined
            ? {}
            : { onChange: (c: CorpusChanges) => announcer.note(prefixed(place.name, c)) }),
        }),
      });
  } catch (error) {
    // One unusable log makes the workspace unusable: the others' watchers must not outlive the answer.
    for (const log of logs) log.corpus.close();
    throw error;
  }
  return {
    kind: 'loaded',
    root,
    corpusDir: root,
    corpus: new LogSet(root, logs),
    logs: places,
    ...(announcer === undefined ? {} : { announcer }),
  };
}

/** The corpus, fresh; a tool error telling the user how to configure one when there is none. */
export function corpusOf(state: DecisionsState): DecisionCorpus {
  if (state.kind === 'missing') throw new ToolError('CORPUS_NOT_FOUND', state.message);
  state.corpus.ensureFresh();
  return state.corpus;
}

export function missingCorpusMessage(root: string, explicit: string | undefined): string {
  if (explicit) {
    return `No decision records: ${explicit} is not a directory. Pass --decisions with an existing folder of ADR markdown files.`;
  }
  return (
    `No decision records found in ${root}: none of ${CONVENTIONAL_CORPUS_DIRS.join(', ')} exists and there is no .adr-dir file. ` +
    'Start moor with --decisions DIR (or --workspace DIR for another repository), or write the folder name into .adr-dir.'
  );
}
