/**
 * Walking the corpus folder. Every Markdown file comes out as one of: a file
 * to read as a decision; `ignored` (a template, or a README/index listing
 * the folder's records); or `skipped` with the reason it cannot be read (a
 * problem). A README/index that is the only Markdown file of a topic folder
 * is that folder's record. Symlinks are followed only while they stay inside
 * the workspace root; nothing outside it is ever opened.
 */
import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SkipReason } from '../model.js';
import { isFolderIndexName, isMarkdownFile, isNonDecisionFile, isTemplateName } from '../read/identity.js';
import { isInside, realpathOrNull, toPosix } from './paths.js';

const SKIP_DIRS = new Set(['node_modules']);

export type ScanEntry =
  | {
      readonly kind: 'file';
      readonly abs: string;
      readonly corpusPath: string;
      /** What to open: the checked realpath for a symlink, else abs. Open it with O_NOFOLLOW. */
      readonly readPath: string;
    }
  | { readonly kind: 'skipped'; readonly abs: string; readonly corpusPath: string; readonly reason: string }
  | {
      readonly kind: 'ignored';
      readonly abs: string;
      readonly corpusPath: string;
      readonly reason: SkipReason;
    };

export interface ScanContext {
  /** Workspace root, realpath'd. */
  readonly root: string;
  /** Corpus folder, realpath'd, inside root. */
  readonly corpusDir: string;
}

function corpusPathOf(ctx: ScanContext, abs: string): string {
  return toPosix(path.relative(ctx.corpusDir, abs));
}

/**
 * What one path is now: a decision file, a skipped Markdown file, a folder to
 * walk (its realpath), or nothing (vanished, hidden folder, not Markdown).
 */
export function inspect(
  ctx: ScanContext,
  abs: string,
  dirent?: Dirent,
): ScanEntry | { readonly kind: 'dir'; readonly abs: string; readonly real: string } | null {
  const name = path.basename(abs);
  const corpusPath = corpusPathOf(ctx, abs);
  if (name.startsWith('.')) {
    // Hidden folders (.git) are not corpus content; a hidden Markdown file is worth a word.
    return isMarkdownFile(name) && !isNonDecisionFile(name.slice(1))
      ? { kind: 'skipped', abs, corpusPath, reason: 'hidden file; not read as a decision' }
      : null;
  }
  let isLink: boolean;
  let isDir: boolean;
  try {
    if (dirent !== undefined && !dirent.isSymbolicLink()) {
      isLink = false;
      isDir = dirent.isDirectory();
    } else {
      const st = lstatSync(abs);
      isLink = st.isSymbolicLink();
      isDir = st.isDirectory();
    }
  } catch {
    return null;
  }
  const md = isMarkdownFile(name);
  let target = abs;
  if (isLink) {
    const real = realpathOrNull(abs);
    if (real === null) return md ? { kind: 'skipped', abs, corpusPath, reason: 'broken symlink' } : null;
    if (!isInside(ctx.root, real)) {
      return md || isDirectoryQuiet(real)
        ? {
            kind: 'skipped',
            abs,
            corpusPath,
            reason: 'symlink to a location outside the workspace root; not read',
          }
        : null;
    }
    target = real;
    isDir = isDirectoryQuiet(real);
  }
  if (isDir) return SKIP_DIRS.has(name) ? null : { kind: 'dir', abs, real: isLink ? target : abs };
  if (!md) return null;
  if (isTemplateName(name)) return { kind: 'ignored', abs, corpusPath, reason: 'template' };
  if (isFolderIndexName(name) && !isFolderRecord(ctx, path.dirname(abs)))
    return { kind: 'ignored', abs, corpusPath, reason: 'table of contents' };
  if (!isLink && dirent !== undefined && !dirent.isFile())
    return { kind: 'skipped', abs, corpusPath, reason: 'not a regular file' };
  // Size, type and stamp come from the open descriptor when the file is read: one stat fewer per file.
  return { kind: 'file', abs, corpusPath, readPath: target };
}

/** Markdown files in a listing that would be read as records if they stood alone. */
function recordCandidates(names: readonly string[]): number {
  let n = 0;
  for (const name of names)
    if (name.charCodeAt(0) !== 0x2e && isMarkdownFile(name) && !isNonDecisionFile(name)) n++;
  return n;
}

/**
 * A topic folder's README/index is its record when the folder is not the
 * corpus folder itself and holds no other record, beside it or below it: a
 * README over folders of records (`sig-x/README.md` over `sig-x/1234-y/`)
 * is their table of contents.
 */
export function isFolderRecord(ctx: ScanContext, dir: string): boolean {
  if (dir === ctx.corpusDir) return false;
  try {
    return recordCandidates(readdirSync(dir)) === 0 && !hasMarkdownBelow(dir, NESTED_DEPTH);
  } catch {
    return false;
  }
}

/**
 * The READMEs a change in `dir` can turn, read again: beside a changed
 * record, and in the folders above it. `folder`: the change was a whole folder.
 */
export function folderIndexesAbove(
  ctx: ScanContext,
  dir: string,
  changedKey: string,
  folder: boolean,
): ScanEntry[] {
  if (!folder && !isMarkdownFile(changedKey)) return [];
  // A README's own change has settled its own fate; a folder or another record beside it can turn it.
  const beside = folder || !isFolderIndexName(path.basename(changedKey));
  const out: ScanEntry[] = [];
  for (let d = dir, up = 0; up <= NESTED_DEPTH && d !== ctx.corpusDir && isInside(ctx.corpusDir, d); up++) {
    if (up > 0 || beside) {
      let names: string[] = [];
      try {
        names = readdirSync(d);
      } catch {
        // gone: nothing to turn here
      }
      for (const name of names) {
        if (!isFolderIndexName(name) || !isMarkdownFile(name)) continue;
        const entry = inspect(ctx, path.join(d, name));
        if (entry !== null && entry.kind !== 'dir') out.push(entry);
      }
    }
    d = path.dirname(d);
  }
  return out;
}

/** How deep a README's sub-folders are searched for records; tables of contents sit a level or two up. */
const NESTED_DEPTH = 3;

/** Any Markdown file in a sub-folder of `dir` (hidden folders and node_modules aside), `depth` levels down. */
function hasMarkdownBelow(dir: string, depth: number): boolean {
  if (depth === 0) return false;
  let list: Dirent[];
  try {
    list = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const d of list) {
    if (!d.isDirectory() || d.name.charCodeAt(0) === 0x2e || SKIP_DIRS.has(d.name)) continue;
    const sub = path.join(dir, d.name);
    let names: string[];
    try {
      names = readdirSync(sub);
    } catch {
      continue;
    }
    if (names.some((n) => n.charCodeAt(0) !== 0x2e && isMarkdownFile(n))) return true;
    if (hasMarkdownBelow(sub, depth - 1)) return true;
  }
  return false;
}

function isDirectoryQuiet(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export interface WalkResult {
  readonly entries: ScanEntry[];
  /** Every folder walked (as reached, not realpath'd), for the watcher. */
  readonly dirs: string[];
}

/** Walk `start` (the corpus folder or a new subfolder) depth-first. */
export function walk(ctx: ScanContext, start: string): WalkResult {
  const entries: ScanEntry[] = [];
  const dirs: string[] = [];
  const visited = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    const real = realpathOrNull(dir);
    // A symlinked folder can lead back up the tree; walk each real folder once.
    if (real === null || visited.has(real) || !isInside(ctx.root, real)) continue;
    visited.add(real);
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    dirs.push(dir);
    const prefix = dir === ctx.corpusDir ? '' : `${corpusPathOf(ctx, dir)}/`;
    const indexes: Dirent[] = [];
    let records = 0;
    for (const dirent of list) {
      const name = dirent.name;
      const abs = dir + path.sep + name;
      // The common case, a plain decision file, without the general checks' path arithmetic.
      if (
        dirent.isFile() &&
        name.charCodeAt(0) !== 0x2e &&
        isMarkdownFile(name) &&
        !isNonDecisionFile(name)
      ) {
        entries.push({ kind: 'file', abs, corpusPath: prefix + name, readPath: abs });
        records++;
        continue;
      }
      // A README/index's fate depends on its siblings: settled once the listing is read.
      if (dirent.isFile() && isFolderIndexName(name) && isMarkdownFile(name)) {
        indexes.push(dirent);
        continue;
      }
      const found = inspect(ctx, abs, dirent);
      if (found === null) continue;
      if (found.kind === 'dir') stack.push(found.abs);
      else entries.push(found);
    }
    const folderRecord =
      records === 0 && dir !== ctx.corpusDir && indexes.length > 0 && !hasMarkdownBelow(dir, NESTED_DEPTH);
    for (const dirent of indexes) {
      const abs = dir + path.sep + dirent.name;
      const corpusPath = prefix + dirent.name;
      entries.push(
        folderRecord
          ? { kind: 'file', abs, corpusPath, readPath: abs }
          : { kind: 'ignored', abs, corpusPath, reason: 'table of contents' },
      );
    }
  }
  return { entries, dirs };
}
