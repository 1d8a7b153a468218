/**
 * Several decision logs in one repository. A monorepo keeps a log per
 * package (`packages/billing/docs/adr`, `services/auth/decisions`) and none
 * at the top. Only when the root itself has no decision folder are the
 * package folders asked, one and two levels down, by the same rules as the
 * root (`.adr-dir`, then the conventional folders): a repository that has a
 * top-level log keeps being served exactly as before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONVENTIONAL_CORPUS_DIRS, findCorpusDir } from './discover.js';
import { isInside, toPosix } from './paths.js';

export interface DecisionLogPlace {
  /** The log's name in ids and URIs: its package folder's name, made unique by its path when two share one. */
  readonly name: string;
  /** The decision folder, absolute. */
  readonly dir: string;
  /** The folder the log speaks for (its package), absolute: files below it are governed by this log first. */
  readonly owner: string;
}

/** Folders that hold dependencies or build output, never a package's own records. */
const NOT_PACKAGES: ReadonlySet<string> = new Set([
  'node_modules',
  'vendor',
  'dist',
  'build',
  'target',
  'out',
]);

/** How far below the root a package folder may sit (`billing/`, `packages/billing/`). */
const MAX_DEPTH = 2;

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_PACKAGES.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The package logs of a root that has no decision folder of its own, sorted
 * by path; empty when there are none. A folder that has a log is not searched
 * further down.
 */
export function findPackageLogs(root: string): DecisionLogPlace[] {
  const found: { dir: string; owner: string }[] = [];
  const visit = (folder: string, depth: number): void => {
    for (const name of subfolders(folder)) {
      const owner = path.join(folder, name);
      const choice = findCorpusDir(owner);
      if (choice !== null && !found.some((f) => isInside(f.dir, choice.dir))) {
        found.push({ dir: choice.dir, owner });
        continue;
      }
      if (depth < MAX_DEPTH) visit(owner, depth + 1);
    }
  };
  visit(root, 1);
  return nameLogs(root, found);
}

/** What a root `moor.json` lists under `decisions`: nothing, folders (absolute, existing), or why it cannot be used. */
export type ListedDirs =
  | { readonly kind: 'none' }
  | { readonly kind: 'listed'; readonly dirs: readonly string[] }
  | { readonly kind: 'invalid'; readonly message: string };

/**
 * `moor.json` at the root: `{"decisions": "docs/adr"}` names the one folder,
 * `{"decisions": ["packages/a/adr", "packages/b/adr"]}` several logs. A file
 * that says something moor cannot use is refused with why, never ignored.
 */
export function readListedDirs(root: string): ListedDirs {
  let text: string;
  try {
    text = readFileSync(path.join(root, 'moor.json'), 'utf8');
  } catch {
    return { kind: 'none' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'invalid', message: `${path.join(root, 'moor.json')} is not valid JSON` };
  }
  const listed = (parsed as { decisions?: unknown } | null)?.decisions;
  if (listed === undefined) return { kind: 'none' };
  const entries = typeof listed === 'string' ? [listed] : listed;
  if (
    !Array.isArray(entries) ||
    entries.length === 0 ||
    !entries.every((e) => typeof e === 'string' && e !== '')
  )
    return {
      kind: 'invalid',
      message: 'moor.json: "decisions" must be a folder or a non-empty list of folders',
    };
  const dirs = entries.map((e) => path.resolve(root, e as string));
  const missing = dirs.filter((d) => !isDirectory(d));
  if (missing.length > 0)
    return {
      kind: 'invalid',
      message: `moor.json lists ${missing.map((d) => toPosix(path.relative(root, d))).join(', ')}, not a folder`,
    };
  return { kind: 'listed', dirs };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Explicitly listed folders (`moor.json`): each folder's log is named after its package. */
export function listedLogs(root: string, dirs: readonly string[]): DecisionLogPlace[] {
  return nameLogs(
    root,
    dirs.map((dir) => ({ dir, owner: packageOf(root, dir) })),
  );
}

/** The package a decision folder belongs to: the folder above its conventional path (`docs/adr`), else its parent. */
function packageOf(root: string, dir: string): string {
  const rel = toPosix(path.relative(root, dir));
  for (const tail of CONVENTIONAL_CORPUS_DIRS) {
    if (rel.endsWith(`/${tail}`)) return path.join(root, rel.slice(0, -tail.length - 1));
  }
  return path.dirname(dir);
}

/** The owner folder's name; where two share one, their relative paths with `-` for `/`. */
function nameLogs(root: string, logs: readonly { dir: string; owner: string }[]): DecisionLogPlace[] {
  const base = (owner: string) => (owner === root ? 'root' : path.basename(owner));
  const counts = new Map<string, number>();
  for (const l of logs) counts.set(base(l.owner), (counts.get(base(l.owner)) ?? 0) + 1);
  return logs.map((l) => ({
    name:
      (counts.get(base(l.owner)) ?? 0) > 1
        ? toPosix(path.relative(root, l.owner)).replaceAll('/', '-')
        : base(l.owner),
    dir: l.dir,
    owner: l.owner,
  }));
}
