/**
 * Files in the decision folder that are there but were not read as decisions
 * (empty, broken front matter, too large, a symlink leaving the workspace):
 * when a reference names one, the caller should hear why it could not be
 * read, not that nothing matches.
 */
import path from 'node:path';
import type { DecisionCorpus as Corpus } from '../corpus-view.js';
import type { Problem } from '../model.js';
import { identityFromFileName, parseRef, refKey, stripMarkdownExt } from './identity.js';

const UNREAD_KINDS: ReadonlySet<Problem['kind']> = new Set(['unparseable', 'skipped']);

export interface UnreadFile {
  /** Workspace-relative path. */
  readonly path: string;
  /** Why it was not read, one reason per problem found. */
  readonly reasons: readonly string[];
}

/** The unread files a reference names (by path, number or file stem), sorted by path. */
export function unreadFilesFor(corpus: Corpus, raw: string): UnreadFile[] {
  const ref = parseRef(raw);
  if (ref.text === '') return [];
  const prefix = path.relative(corpus.workspaceRoot, corpus.corpusDir).split(path.sep).join('/');
  const wanted = stripMarkdownExt(path.posix.normalize(ref.text.replace(/^\.?\/+/, '')));
  const byPath = new Map<string, string[]>();
  const note = (file: string, reason: string): void => {
    if (!names(file, wanted, ref, prefix)) return;
    const reasons = byPath.get(file) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    byPath.set(file, reasons);
  };
  for (const problem of corpus.problems)
    if (UNREAD_KINDS.has(problem.kind)) note(problem.path, problem.message);
  // Files deliberately not read (templates, tables of contents), where the corpus reports them.
  const skipped = (corpus as Corpus & { skipped?: readonly { path: string; reason: string }[] }).skipped;
  for (const file of skipped ?? []) note(file.path, `not a decision (${file.reason})`);
  return [...byPath]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([p, reasons]) => ({ path: p, reasons }));
}

function names(file: string, wanted: string, ref: ReturnType<typeof parseRef>, prefix: string): boolean {
  const stem = stripMarkdownExt(file);
  const corpusStem = prefix !== '' && stem.startsWith(`${prefix}/`) ? stem.slice(prefix.length + 1) : stem;
  if (ref.pathLike)
    return (
      wanted === stem || wanted === corpusStem || path.posix.basename(wanted) === path.posix.basename(stem)
    );
  const identity = identityFromFileName(path.posix.basename(file));
  if (ref.number !== null) return identity.number === ref.number;
  if (ref.prefixedNumber !== null && identity.number === ref.prefixedNumber) return true;
  const key = refKey(ref.text);
  return key === refKey(path.posix.basename(stem)) || key === refKey(identity.slug);
}
