/**
 * Decision numbers as git knows them: which numbers another revision's (or
 * any local branch's) decision folder already uses. Two branches that each
 * add "0042" both merge cleanly and leave the log with two 42s; comparing
 * against the tree of REF finds that before the merge, and `decisions new`
 * avoids it by never taking a number some branch already holds.
 */
import path from 'node:path';
import { MoorError } from '../../errors.js';
import {
  identityFromFileName,
  isMarkdownFile,
  isNonDecisionFile,
} from '../../packs/decisions/corpus/read/identity.js';
import { git } from './changed-files.js';

/** Number → workspace-relative paths of the records that carry it in one tree. */
export type NumberMap = ReadonlyMap<number, readonly string[]>;

/** The commit REF names; GIT_REF_NOT_FOUND (exit 2) when the repository has no such revision. */
export async function verifiedRef(root: string, ref: string): Promise<string> {
  if (ref === '' || ref.startsWith('-'))
    throw new MoorError('USAGE', `--against needs a git revision (a branch, tag or commit), not "${ref}"`);
  await git(root, ['rev-parse', '--is-inside-work-tree']);
  try {
    return (
      await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
    ).trim();
  } catch {
    throw new MoorError(
      'GIT_REF_NOT_FOUND',
      `no git revision "${ref}" in ${root}: fetch it first (git fetch origin) or name a branch, tag or commit that exists`,
    );
  }
}

/** The decision numbers the tree of `treeish` holds under the folder `corpusRel` (workspace-relative). */
export async function numbersAt(root: string, treeish: string, corpusRel: string): Promise<NumberMap> {
  const prefix = corpusRel === '' || corpusRel === '.' ? '' : `${corpusRel.split(path.sep).join('/')}/`;
  // --full-tree with paths from the repository root, then made workspace-relative: the workspace may be a subfolder.
  const top = (await git(root, ['rev-parse', '--show-prefix'])).trim();
  const listing = await git(root, [
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    '--full-tree',
    treeish,
    '--',
    `${top}${prefix}`,
  ]);
  const numbers = new Map<number, string[]>();
  for (const full of listing.split('\0')) {
    if (full === '' || !full.startsWith(top)) continue;
    const rel = full.slice(top.length);
    const name = path.posix.basename(rel);
    if (!isMarkdownFile(name) || isNonDecisionFile(name)) continue;
    const { number } = identityFromFileName(name);
    if (number === null) continue;
    const list = numbers.get(number) ?? [];
    list.push(rel);
    numbers.set(number, list);
  }
  return numbers;
}

/** Every local branch (refs/heads), by full ref name. */
export async function localBranches(root: string): Promise<string[]> {
  const out = await git(root, ['for-each-ref', '--format=%(refname)', 'refs/heads']);
  return out.split('\n').filter((line) => line !== '');
}

/** Whether the work tree sits in a git repository at all. */
export async function inGitRepository(root: string): Promise<boolean> {
  try {
    await git(root, ['rev-parse', '--is-inside-work-tree']);
    return true;
  } catch {
    return false;
  }
}

export interface NumberCollision {
  /** The record this branch adds. */
  readonly path: string;
  readonly number: number;
  /** The other records REF holds under that number. */
  readonly theirs: readonly string[];
}

/**
 * Records of the work tree whose path REF does not have (this branch adds
 * them) and whose number REF already gives to another record.
 */
export function collisions(
  local: readonly { readonly path: string; readonly number: number | null }[],
  theirs: NumberMap,
): NumberCollision[] {
  const theirPaths = new Set([...theirs.values()].flat());
  const out: NumberCollision[] = [];
  for (const record of local) {
    if (record.number === null || theirPaths.has(record.path)) continue;
    const other = theirs.get(record.number);
    if (other !== undefined && other.length > 0)
      out.push({ path: record.path, number: record.number, theirs: other });
  }
  return out;
}
