/**
 * Where the workspace is and where its decisions live. Mirrors what adr-tools
 * and the common MADR/log4brains layouts do, so an ordinary repository needs
 * no configuration.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MoorError } from '../../../../errors.js';
import { isInside, realpathOrNull } from './paths.js';

// The workspace-root rule is shared with the proxy, which may not load pack code.
export {
  resolveWorkspaceRoot,
  WorkspaceNotFoundError,
  type WorkspaceRootOptions,
} from '../../../../protocol/workspace-root.js';

/** Conventional corpus locations, in the order they are tried. Shown to users in the "not found" error. */
export const CONVENTIONAL_CORPUS_DIRS: readonly string[] = [
  'docs/adr',
  'docs/decisions',
  'docs/architecture/decisions',
  'doc/adr',
  'adr',
  'decisions',
];

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export type CorpusDirSource = 'flag' | 'adr-dir' | 'convention';

export interface CorpusDirChoice {
  /** Absolute path of an existing directory (not realpath'd; the loader checks it stays inside the root). */
  readonly dir: string;
  readonly source: CorpusDirSource;
}

function readAdrDirFile(root: string): string | null {
  try {
    // adr-tools writes the folder on the first line, relative to the repository root.
    const first = readFileSync(path.join(root, '.adr-dir'), 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
    return first === '' ? null : first;
  } catch {
    return null;
  }
}

/**
 * The corpus folder: an explicit `--decisions DIR` (already resolved by the
 * caller), else the folder named by `.adr-dir`, else the first conventional
 * folder that exists. Null when nothing usable exists, including an explicit
 * folder that is missing: the caller's message then names the flag. A
 * `.adr-dir` naming a missing folder falls through to the conventions.
 */
export function findCorpusDir(root: string, explicit?: string): CorpusDirChoice | null {
  if (explicit !== undefined && explicit !== '') {
    const dir = path.resolve(root, explicit);
    return isDirectory(dir) ? { dir, source: 'flag' } : null;
  }
  const adrDir = readAdrDirFile(root);
  if (adrDir !== null) {
    const dir = path.resolve(root, adrDir);
    if (isDirectory(dir)) return { dir, source: 'adr-dir' };
  }
  for (const candidate of CONVENTIONAL_CORPUS_DIRS) {
    const dir = path.join(root, candidate);
    if (isDirectory(dir)) return { dir, source: 'convention' };
  }
  return null;
}

/**
 * The real paths of the workspace root and of the decision folder a corpus
 * loads (`corpusDir` relative to the root unless absolute); throws when
 * either is missing, the folder is outside the root or not a folder.
 */
export function locateCorpus(workspaceRoot: string, corpusDir: string): { root: string; dir: string } {
  const root = realpathOrNull(workspaceRoot);
  if (root === null)
    throw new MoorError('CORPUS_NOT_FOUND', `workspace root ${workspaceRoot} does not exist`);
  const dir = realpathOrNull(path.resolve(root, corpusDir));
  if (dir === null) throw new MoorError('CORPUS_NOT_FOUND', `decision folder ${corpusDir} does not exist`);
  if (!isInside(root, dir)) {
    throw new MoorError(
      'PATH_OUTSIDE_WORKSPACE',
      `decision folder ${corpusDir} is outside the workspace root ${root}`,
    );
  }
  if (!isDirectory(dir))
    throw new MoorError('CORPUS_NOT_A_DIRECTORY', `decision folder ${corpusDir} is not a directory`);
  return { root, dir };
}
