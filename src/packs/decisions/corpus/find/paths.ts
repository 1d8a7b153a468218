/**
 * Workspace-relative path handling. Every path that reaches the corpus or the
 * tools goes through here so that nothing outside the workspace root is ever
 * read, whether the escape is spelled `..`, an absolute path, or a symlink.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

export type RelativePathResult =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string };

/** POSIX separators; the corpus speaks POSIX paths on every platform. */
export function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** True when `abs` is `root` itself or lies below it. Both must be absolute and normalized. */
export function isInside(root: string, abs: string): boolean {
  if (abs === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return abs.startsWith(prefix);
}

/** realpath that returns null instead of throwing (missing file, loop, permission). */
export function realpathOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Resolve the longest existing prefix of `abs` through symlinks. Paths that do
 * not exist yet are legitimate questions ("what governs this new file?"), so
 * only the part that exists can be checked.
 */
function realpathOfExistingPrefix(abs: string): string | null {
  let current = abs;
  let rest = '';
  for (;;) {
    const real = realpathOrNull(current);
    if (real !== null) return rest === '' ? real : path.join(real, rest);
    const parent = path.dirname(current);
    if (parent === current) return null;
    rest = rest === '' ? path.basename(current) : path.join(path.basename(current), rest);
    current = parent;
  }
}

/**
 * Turn a user- or agent-supplied path into a normalized workspace-relative
 * POSIX path, or say why it is refused. Relative inputs are taken relative to
 * the workspace root. `root` should already be a realpath.
 */
export function toWorkspaceRelative(root: string, input: string): RelativePathResult {
  if (input.length === 0) return { ok: false, reason: 'empty path' };
  if (input.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  // Agents on Windows hosts send backslashes; a backslash in a real repository path is rarer still.
  const cleaned = input.replace(/\\/g, '/');
  const abs = path.isAbsolute(cleaned) ? path.normalize(cleaned) : path.join(root, cleaned);
  if (!isInside(root, abs)) {
    return {
      ok: false,
      reason: path.isAbsolute(cleaned)
        ? `absolute path ${input} is outside the workspace root`
        : `path ${input} escapes the workspace root`,
    };
  }
  const rel = toPosix(path.relative(root, abs));
  if (rel === '')
    return { ok: false, reason: 'path names the workspace root itself, not a file or folder in it' };
  const real = realpathOfExistingPrefix(abs);
  const realRoot = realpathOrNull(root) ?? root;
  if (real !== null && !isInside(realRoot, real)) {
    return { ok: false, reason: `path ${input} resolves through a symlink to outside the workspace root` };
  }
  return { ok: true, path: rel };
}
